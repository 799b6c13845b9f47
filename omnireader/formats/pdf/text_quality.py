"""Is a PDF page's extracted text real text, or glyph codes that only look like characters?

A font without a ToUnicode map (and without a standard encoding or a known CID ordering)
gives no way back from glyphs to characters: the page renders fine but its text layer reads
``=47KHKDUERXUPDVWHU…``. Such a page has no usable text layer, exactly like a scan, so it is
flagged ``needs_ocr`` (and read by OCR when OCR is on).

Two signals, both principled and cheap:

* PDFium's own verdict. When it maps a character code to Unicode it knows whether the font
  told it how (ToUnicode, an encoding, a predefined CMap) or whether it fell back to the raw
  code (``FPDFText_HasUnicodeMapError``). That is exact and knows nothing about languages,
  so code, number tables, CJK, Cyrillic, Arabic or part numbers are never suspects. It is
  asked for a fixed sample of characters, not all of them: one ctypes call per character
  would cost as much as the extraction itself (~1 µs × 3,000 characters a page).
* What the text is made of: private-use code points (what broken maps and icon fonts
  produce), U+FFFD replacement characters, and ``(cid:N)`` runs (pdfminer's rendering of
  unmapped glyphs, found in PDFs made from such output). Checked with C-speed string scans
  first (ASCII text can only hold ``(cid:``; UTF-8 without the lead bytes of those code
  points holds none of them), the regex only runs when they may be there.

Word lists or vowel ratios were not used: they are language-bound and misjudge code,
identifiers and formulas, which this must never flag.

An invisible OCR layer over a page image (a scan someone OCR'd) maps to Unicode fine, so
neither signal sees that the engine misread it. :func:`is_bad_ocr_layer` judges such a
layer by its tokens: OCR garbage is made of stray marks, single letters and words that
mix letters with digits or change case inside (``l1ke``, ``tHe``, ``;:``), which read text
in any alphabet rarely is. It only runs on pages whose text is all invisible, so printed
code or part-number tables are never judged by it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from omnireader.text.visible_chars import visible_chars

if TYPE_CHECKING:
    import pypdfium2

__all__ = [
    "is_garbled",
    "not_text_share",
    "is_bad_ocr_layer",
    "odd_token_share",
    "lone_letter_share",
]


# Characters asked about per page. A page with most characters unmapped shows none of
# them in the first sample only by a freak of placement; the second tells "most" from
# "some" (±9% at worst).
_FIRST_SAMPLES = 8
_SAMPLES = 32
# A page is garbled when at least this share of its characters is not text. A majority, so
# a page whose body reads fine keeps its text even if a logo or a formula font is unmapped.
_GARBLED_SHARE = 0.5

# UTF-8 lead bytes of U+E000-U+FFFF and of planes 15-16: text without them has none of
# the characters _NOT_TEXT looks for.
_SUSPECT_LEADS = (b"\xee", b"\xef", b"\xf3", b"\xf4")
_NOT_TEXT = re.compile(r"[\ue000-\uf8ff\ufffd\U000f0000-\U0010ffff]")
_CID = re.compile(r"\(cid:\d+\)")


def is_garbled(textpage: pypdfium2.PdfTextPage, text: str) -> bool:
    """Whether the page's ``text`` (cleaned, from ``textpage``) is mostly not text."""
    return _unmapped_share(textpage) >= _GARBLED_SHARE or not_text_share(text) >= _GARBLED_SHARE


def _unmapped_share(textpage: pypdfium2.PdfTextPage) -> float:
    """Share of sampled characters PDFium could not map to Unicode.

    Spaces and line breaks PDFium inserts itself count as mapped; they are a small part of
    a page, so a page of unmapped glyphs still scores well above the threshold (~0.9).
    """
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw  # the raw handle: ctypes converts the wrapper on every call
    count = pdfium_c.FPDFText_CountChars(handle)
    if count <= 0:
        return 0.0
    share = 0.0
    for wanted in (_FIRST_SAMPLES, _SAMPLES):
        samples = min(count, wanted)
        # Evenly spread over the page, so one unmapped heading font cannot dominate.
        unmapped = sum(
            pdfium_c.FPDFText_HasUnicodeMapError(handle, (2 * k + 1) * count // (2 * samples)) == 1
            for k in range(samples)
        )
        share = unmapped / samples
        if unmapped == 0:
            break
    return share


def not_text_share(text: str) -> float:
    """Share of the visible characters of ``text`` that are private-use, U+FFFD or ``(cid:N)``."""
    if text.isascii():
        if "(cid:" not in text:
            return 0.0  # the common case, decided at C speed
        bad = 0
    else:
        data = text.encode("utf-8", "surrogatepass")
        bad = len(_NOT_TEXT.findall(text)) if any(b in data for b in _SUSPECT_LEADS) else 0
    if "(cid:" in text:
        bad += sum(len(m) for m in _CID.findall(text))
    if not bad:
        return 0.0  # before counting the visible characters, which costs more than all this
    visible = visible_chars(text)
    return bad / visible if visible else 0.0


# A bad OCR layer: at least this share of its tokens look like no word or number.
_BAD_OCR_SHARE = 0.35
_LONE_LETTER_SHARE = 0.3
_PIECE = 160  # characters of each of the three pieces of a long page that are judged
# Fewer tokens than this say too little either way: a stamp, a page number.
_MIN_OCR_TOKENS = 12
# What makes a token no word and no number, found at C speed over the whole text (a
# pattern that matched whole tokens would backtrack through each: 10x slower):
# - punctuation or symbols alone ("~", ";:", "|"): specks read as marks;
# - letters and digits mixed ("l1ke", "0ver", "wi1l");
# - a symbol inside letters ("wo;rd", "qu|ck"): not a hyphen, apostrophe or dot;
# - a lower-case letter followed by a capital inside a word ("tHe", "jUmps"), for the
#   cased alphabets OCR engines misread most (Latin, Greek, Cyrillic).
# Every branch starts with a narrow class (a digit, a symbol, a lower-case letter) and
# looks back for the letter: a branch that starts with "any letter" tests each character's
# Unicode category and costs 4x as much.
_ODD_MARK = re.compile(
    r"\d(?<=[^\W\d_]\d)|\d[^\W\d_]"
    r"|[^\w\s'’.\-–·,;:!?)\]}\"”»%/](?<=[^\W\d_].)(?=[^\W\d_])"
    r"|[a-zß-öø-ÿα-ωа-я][A-ZÀ-ÖØ-ÞΑ-ΩА-Я]"
)
_MARKS_ALONE = re.compile(r"(?<!\S)[^\w\s]+(?!\S)")
_LONE_LETTER = re.compile(r"(?<!\S)[^\W\d_](?!\S)")


def odd_token_share(text: str) -> float:
    """Share of the whitespace-separated tokens of ``text`` that are no word or number;
    0.0 when there are too few tokens to tell."""
    tokens = len(text.split())
    if tokens < _MIN_OCR_TOKENS:
        return 0.0
    # Marks are counted, not the tokens holding them: a token with two counts twice, which
    # only makes a bad layer look worse.
    odd = len(_ODD_MARK.findall(text)) + len(_MARKS_ALONE.findall(text))
    return min(1.0, odd / tokens)


def lone_letter_share(text: str) -> float:
    """Share of tokens that are one letter: a misread line falls apart into "i l t r";
    in read text one-letter words ("a", "y", "à", "I") are a small minority."""
    tokens = len(text.split())
    if tokens < _MIN_OCR_TOKENS:
        return 0.0
    return len(_LONE_LETTER.findall(text)) / tokens


def is_bad_ocr_layer(text: str) -> bool:
    """Whether an invisible OCR text layer is garbage rather than the page's text (then
    the page is OCR'd afresh, as a scan)."""
    sample = _spread_sample(text)
    return (
        not_text_share(sample) >= _GARBLED_SHARE
        or odd_token_share(sample) >= _BAD_OCR_SHARE
        or lone_letter_share(sample) >= _LONE_LETTER_SHARE
    )


def _spread_sample(text: str) -> str:
    """Three pieces of a long text (start, middle, end), cut at spaces: a bad OCR layer is
    bad throughout, and the regexes' cost grows with every character judged."""
    if len(text) <= 3 * _PIECE:
        return text
    pieces = []
    for start in (0, (len(text) - _PIECE) // 2, len(text) - _PIECE):
        piece = text[start : start + _PIECE]
        if start:
            piece = piece.split(None, 1)[-1]  # drop the word cut at the start
        pieces.append(piece.rsplit(None, 1)[0] if start + _PIECE < len(text) else piece)
    return "\n".join(pieces)
