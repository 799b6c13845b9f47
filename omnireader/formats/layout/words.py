"""A PDF page's text layer as positioned words (page points, top-left origin, y down).

PDFium's text page holds one entry per character, with the spaces and line breaks it
inferred marked as generated. Python objects per character would cost more than PDFium's
own extraction, so the loop here keeps only floats and a growing string per word: the
characters' text comes in one ``FPDFText_GetText`` call (index-aligned with the char
indices), one ``FPDFText_GetLooseCharBox`` call per character gives its box (the loose
box spans the font's ascent to descent, so words on one line share a top and bottom,
which is what line grouping needs), and the font size and weight are asked once per word.

A word ends at whitespace, at a jump back or down (a new line), and at a horizontal gap
wider than a fraction of the font size — PDFium does not always put a space between two
table cells, and "400.01" next to "3" must not become "400.013".
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any

from .model import Word

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["page_words", "LIGATURES", "MAX_CHARS", "TooManyChars"]

#: Presentation-form ligatures and what they stand for (U+FB00..U+FB06).
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
# PDFium's markers for a line-end hyphen it has folded: they are hyphens on the page.
_HYPHEN_MARKS = {"\x02": "-", "\ufffe": "-", "\u00ad": "-"}
_REPLACE = {**LIGATURES, **_HYPHEN_MARKS}
# What ends a word: whitespace (PDFium's generated spaces and line breaks among it) and NUL.
_BREAKS = frozenset(" \t\r\n\x00\x0b\x0c\xa0\u2002\u2003\u2009\u200a\u200b\u3000")

#: A page with more characters than this is not laid out (a page of 100,000 tiny glyphs is
#: a drawing made of text, and reading it char by char would take seconds).
MAX_CHARS = 60_000

# A gap between two characters wider than this share of the font size splits the word.
_GAP_EM = 0.22
# A character starting this far (in em) left of the previous one's start is a new line.
_BACK_EM = 0.5
_BOLD_WEIGHT = 600
# Hebrew, Arabic, Syriac, Thaana, NKo (U+0590..U+08FF) and the Hebrew and Arabic
# presentation forms (U+FB1D..U+FEFC) run right to left: a word grows leftwards.
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")


class TooManyChars(ValueError):
    """The page holds more characters than :data:`MAX_CHARS`; lay it out plainly."""


def page_words(page: pypdfium2.PdfPage, textpage: pypdfium2.PdfTextPage) -> list[Word]:
    """The words of ``page`` in PDFium's text order, with their boxes, size and boldness.

    Raises :class:`TooManyChars` past :data:`MAX_CHARS` characters.
    """
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    if count <= 0:
        return []
    if count > MAX_CHARS:
        raise TooManyChars(f"{count} characters on the page (at most {MAX_CHARS} are laid out)")
    text = _char_text(textpage, raw, count)
    to_page, origin = _page_transform(page)

    get_box = pdfium_c.FPDFText_GetLooseCharBox
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    style = _FontStyle(raw)
    # Upright pages (nearly all) flip y inline; rotated ones go through a transform.
    upright = to_page is None
    left, top = origin

    words: list[Word] = []
    x0 = y0 = x1 = y1 = 0.0
    size = gap = back = 0.0
    start = -1  # char index of the current word's first character, -1 when none
    for index in range(count):
        if text[index] in _BREAKS:
            if start >= 0:
                words.append(_word(text, start, index, x0, y0, x1, y1, size, style))
                start = -1
            continue
        if not get_box(raw, index, rect_ref):
            continue
        if upright:
            cx0 = rect.left - left
            cx1 = rect.right - left
            cy0 = top - rect.top
            cy1 = top - rect.bottom
        else:
            cx0, cy0, cx1, cy1 = to_page(rect.left, rect.top, rect.right, rect.bottom)
        if cx1 <= cx0 and cy1 <= cy0:
            continue  # a zero-size glyph (a marker, not ink)
        if start >= 0:
            mid = (cy0 + cy1) * 0.5
            code = ord(text[index])
            rtl = 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFC
            if rtl and x0 - cx1 <= gap and cx1 <= x1 + back and y0 <= mid <= y1:
                # Right-to-left script: the next char in reading order stands to the left.
                if cx0 < x0:
                    x0 = cx0
                if cy0 < y0:
                    y0 = cy0
                if cy1 > y1:
                    y1 = cy1
                continue
            if cx0 - x1 > gap or cx0 < x0 - back or mid > y1 or mid < y0:
                words.append(_word(text, start, index, x0, y0, x1, y1, size, style))
                start = -1
            else:
                if cx1 > x1:
                    x1 = cx1
                if cy0 < y0:
                    y0 = cy0
                if cy1 > y1:
                    y1 = cy1
                continue
        start = index
        x0, y0, x1, y1 = cx0, cy0, cx1, cy1
        size = style.size(index)
        # Tf size times 1 is often 1 with the scale in the text matrix: the loose box
        # (ascent to descent, ~1.15 em) is then the better measure.
        if not 0.5 < size / max(cy1 - cy0, 0.1) < 1.5:
            size = (cy1 - cy0) / 1.15
        em = max(size, 1.0)
        gap = _GAP_EM * em
        back = _BACK_EM * em
    if start >= 0:
        words.append(_word(text, start, count, x0, y0, x1, y1, size, style))
    return words


def _word(
    text: str, start: int, end: int, x0: float, y0: float, x1: float, y1: float,
    size: float, style: _FontStyle,
) -> Word:
    chars = text[start:end]
    if not chars.isascii():
        # Ligatures expanded, hyphen markers made hyphens, zero-size leftovers dropped.
        chars = "".join(_REPLACE.get(ch, ch) for ch in chars if ch not in _BREAKS)
    bold, font = style.bold(start)
    return Word(chars, x0, y0, x1, y1, round(size, 2), bold, font)


def _char_text(textpage: pypdfium2.PdfTextPage, raw: object, count: int) -> str:
    """The characters' text, one code unit per char index.

    ``get_text_range`` is one C call; a page whose text has surrogate pairs (or any other
    mismatch of length) is read char by char instead, which keeps the indices aligned.
    """
    import pypdfium2.raw as pdfium_c

    try:
        text = textpage.get_text_range(0, count, errors="replace")
    except Exception:  # noqa: BLE001 - a decoding quirk; the per-char path below is exact
        text = ""
    if len(text) == count:
        return text
    get = pdfium_c.FPDFText_GetUnicode
    out = []
    for index in range(count):
        code = get(raw, index)
        out.append(chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else " ")
    return "".join(out)


def _page_transform(page: pypdfium2.PdfPage):  # type: ignore[no-untyped-def]
    """PDF user space (origin bottom left, y up, maybe rotated) → top-left page points:
    ``(None, (left, top))`` for an upright page (the loop flips inline), else a function
    of a char's (left, top, right, bottom)."""
    left, bottom, right, top = page.get_cropbox()
    rotation = page.get_rotation() % 360
    if rotation not in (90, 180, 270):
        return None, (left, top)

    def flip90(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return d - bottom, a - left, b - bottom, c - left

    def flip180(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return right - c, d - bottom, right - a, b - bottom

    def flip270(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return top - b, right - c, top - d, right - a

    return {90: flip90, 180: flip180, 270: flip270}[rotation], (left, top)


class _FontStyle:
    """Font size and boldness of a char, with the font's weight and name cached per text
    object (a page has a few hundred; most words share their neighbour's). The object and
    font handles are read through prototypes that return plain ints, so they are cheap
    dictionary keys (a ctypes pointer object per word cost more than the rest)."""

    _protos: tuple[Any, Any] | None = None

    def __init__(self, raw: Any) -> None:
        import pypdfium2.raw as pdfium_c

        self._raw = raw
        self._c = pdfium_c
        self._by_object: dict[int, tuple[bool, str]] = {}
        self._by_font: dict[int, tuple[bool, str]] = {}
        self._text_object, self._font_of = self._prototypes(pdfium_c)
        self._raw_int = ctypes.cast(raw, ctypes.c_void_p).value

    @classmethod
    def _prototypes(cls, pdfium_c: Any) -> tuple[Any, Any]:
        if cls._protos is None:
            by_index = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
            by_handle = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)
            address = lambda fn: ctypes.cast(fn, ctypes.c_void_p).value  # noqa: E731
            cls._protos = (
                by_index(address(pdfium_c.FPDFText_GetTextObject)),
                by_handle(address(pdfium_c.FPDFTextObj_GetFont)),
            )
        return cls._protos

    def size(self, index: int) -> float:
        return float(self._c.FPDFText_GetFontSize(self._raw, index))

    def bold(self, index: int) -> tuple[bool, str]:
        obj = self._text_object(self._raw_int, index)
        if not obj:
            return self._describe(None, index)
        known = self._by_object.get(obj)
        if known is None:
            font = self._font_of(obj)
            known = self._by_font.get(font) if font else None
            if known is None:
                known = self._describe(font, index)
                if font:
                    self._by_font[font] = known
            self._by_object[obj] = known
        return known

    def _describe(self, font: int | None, index: int) -> tuple[bool, str]:
        c = self._c
        name = ""
        if font:
            handle = ctypes.cast(font, c.FPDF_FONT)
            length = c.FPDFFont_GetBaseFontName(handle, None, 0)
            if length > 0:
                buffer = ctypes.create_string_buffer(length)
                c.FPDFFont_GetBaseFontName(handle, buffer, length)
                name = buffer.value.decode("utf-8", "replace")
        weight = c.FPDFText_GetFontWeight(self._raw, index)
        # Subset fonts carry a "ABCDEF+" prefix; the style is in the rest of the name.
        base = name.split("+", 1)[-1]
        lowered = base.lower()
        bold = weight >= _BOLD_WEIGHT or any(part in lowered for part in _BOLD_NAMES)
        return bold, base
