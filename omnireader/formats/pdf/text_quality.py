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
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["is_garbled", "not_text_share"]


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
