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

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["is_garbled", "not_text_share", "is_bad_ocr_layer", "odd_token_share",
           "lone_letter_share"]


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
            pdfium_c.FPDFText_HasUnicodeMapError(handle, (2 * k + 1) * count // (2 * samples))
            == 1
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
    visible = len("".join(text.split()))
    return bad / visible if visible else 0.0


# A bad OCR layer: at least this share of its tokens look like no word or number.
_BAD_OCR_SHARE = 0.35
_LONE_LETTER_SHARE = 0.3
# Fewer tokens than this say too little either way: a stamp, a page number.
_MIN_OCR_TOKENS = 12
_EDGE_PUNCTUATION = "\"'“”‘’«»„‚()[]{}<>.,;:!?¡¿…-–—/\\*•·|"
_NUMBER_MARKS = set(".,:/-–+%$€£¥()")
_WORD_MARKS = set("-'’.·")


def _odd(token: str) -> bool:
    """Whether an OCR token is no word and no number: a stray mark, letters mixed with
    digits or symbols, or a case change inside a word."""
    core = token.strip(_EDGE_PUNCTUATION)
    if not core:
        return True  # punctuation alone: specks read as ";" "~" "|"
    if all(c.isdigit() or c in _NUMBER_MARKS for c in core):
        return False  # 12, 3.5, 2024-05-01, 10:30, 15%
    if not all(c.isalpha() or c in _WORD_MARKS for c in core):
        return True  # l1ke, wo;rd, 0ne
    letters = [c for c in core if c.isalpha()]
    tail = "".join(letters[1:])
    # Scripts without case (CJK, Arabic, Hebrew) have nothing to check here.
    return bool(tail) and not (tail == tail.lower() or "".join(letters).isupper())


def odd_token_share(text: str) -> float:
    """Share of the whitespace-separated tokens of ``text`` that are no word or number;
    0.0 when there are too few tokens to tell."""
    tokens = text.split()
    if len(tokens) < _MIN_OCR_TOKENS:
        return 0.0
    return sum(1 for t in tokens if _odd(t)) / len(tokens)


def lone_letter_share(text: str) -> float:
    """Share of tokens that are one letter: a misread line falls apart into "i l t r";
    in read text one-letter words ("a", "y", "à", "I") are a small minority."""
    tokens = text.split()
    if len(tokens) < _MIN_OCR_TOKENS:
        return 0.0
    return sum(1 for t in tokens if len(t) == 1 and t.isalpha()) / len(tokens)


def is_bad_ocr_layer(text: str) -> bool:
    """Whether an invisible OCR text layer is garbage rather than the page's text (then
    the page is OCR'd afresh, as a scan)."""
    return (not_text_share(text) >= _GARBLED_SHARE or odd_token_share(text) >= _BAD_OCR_SHARE
            or lone_letter_share(text) >= _LONE_LETTER_SHARE)
