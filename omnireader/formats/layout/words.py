"""A PDF page's text layer as positioned words (page points, top-left origin, y down).

PDFium's text page holds one entry per character, with the spaces and line breaks it
inferred as generated characters. A C call costs a microsecond or two from Python, more
than PDFium's whole extraction per character, so calls are spent sparingly: the text
comes in one ``FPDFText_GetText`` call (index-aligned with the char indices) and is split
into runs at its spaces in C (a regex); a run of letters costs the loose boxes of its first
and last characters (the loose box spans the font's ascent to descent, so the words of a
line share a top and bottom) and one text-object lookup, under which the font size,
weight and name are cached. Runs with digits that span two text objects, and runs wider
than their characters could be, are read box by box and split at a horizontal gap wider
than a fraction of the font size, or a jump back or down (a new line): PDFium does not
always put a space between two table cells, and "400.01" beside "3" must not become
"400.013" (inside one text object it does space a jump). The C functions are called
through the int prototypes of :mod:`.pdfium_calls`, which skip ctypes' argument checks; on
an upright page the loop over runs is the compiled one of ``_loops.c`` when it is built
(the same words, without a Python step per run). Before the runs are cut, line breaks
PDFium made up inside a word are undone (``word_joins.py``) and codes it could not map are
read back from their glyph names where the font names them (``glyph_names.py``).
"""

from __future__ import annotations

import ctypes
import re
from typing import TYPE_CHECKING, Any

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.font_style import INFLATED, FontStyle
from omnireader.formats.layout.glyph_names import read_back
from omnireader.formats.layout.model import Word
from omnireader.formats.layout.pdfium_calls import calls
from omnireader.formats.layout.pdfium_calls import handle as as_int
from omnireader.formats.layout.transform import page_transform
from omnireader.formats.layout.word_chars import Expand, char_text
from omnireader.formats.layout.word_chars import expand as expand_chars
from omnireader.formats.layout.word_joins import join_split_words

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["MAX_CHARS", "TooManyChars", "page_words"]

_RUN = re.compile(r"[^\s\x00\u200b]+")
_UNMAPPED = re.compile(r"[\x01-\x08\x0e-\x1f]|\r(?!\n)")
_DIGIT = re.compile(r"\d")

#: A page with more characters than this is not laid out (a page of 100,000 tiny glyphs is
#: a drawing made of text, and reading it char by char would take seconds).
MAX_CHARS = 60_000

# A gap between two characters wider than this share of the font size splits the word.
_GAP_EM = 0.22
# A character starting this far (in em) left of the previous one's start is a new line.
_BACK_EM = 0.5


# The compiled words loop this module calls (``_loops.WORD_LOOP``): 2 reads fused runs itself,
# 3 also fits inflated boxes as it makes each word (``_fit_boxes``).
_WORD_LOOP = 3
# The PDFium functions the compiled loop calls, in the order it takes them.
_WORD_CALLS = (
    "FPDFText_GetLooseCharBox",
    "FPDFText_GetTextObject",
    "FPDFText_GetFontSize",
    "FPDFTextObj_GetFont",
    "FPDFTextObj_GetFontSize",
    "FPDFText_GetCharBox",
    "FPDFPageObj_GetMatrix",
)


class TooManyChars(ValueError):
    """The page holds more characters than :data:`MAX_CHARS`; lay it out plainly."""


def page_words(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    hidden: frozenset[int] = frozenset(),
    compiled: bool = True,
) -> list[Word]:
    """The words of ``page`` in PDFium's text order, with their boxes, size and boldness;
    the characters of the ``hidden`` text objects (by address) are left out.

    An upright page's runs go through the compiled loop when it is built and ``compiled``
    is true (tests compare the two loops; their words are the same). Raises
    :class:`TooManyChars` past :data:`MAX_CHARS` characters.
    """
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    if count <= 0:
        return []
    if count > MAX_CHARS:
        raise TooManyChars(f"{count} characters on the page (at most {MAX_CHARS} are laid out)")
    text = char_text(textpage, raw, count)
    to_page, (left, top) = page_transform(page)
    c = calls()
    handle = as_int(raw)
    if hidden:  # rare: asked char by char only on pages that hide text
        chars = list(text)
        for i in range(len(chars)):
            if c.text_object(handle, i) in hidden:
                chars[i] = " "
        text = "".join(chars)
    get_box = c.loose_box
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    text = join_split_words(text, handle, c, rect, rect_ref, compiled)
    expand: Any = expand_chars
    if _UNMAPPED.search(text):  # rare: codes PDFium could not map (glyph_names.py)
        text, expansions = read_back(text, page, handle, c)
        if expansions:
            expand = Expand(expansions)
    style = FontStyle(raw, handle, c)
    by_object, text_object = style.by_object, c.text_object
    upright = to_page is None  # nearly all pages: y is flipped inline

    def box(index: int) -> tuple[float, float, float, float] | None:
        if not get_box(handle, index, rect_ref):
            return None
        if upright:
            return rect.left - left, top - rect.top, rect.right - left, top - rect.bottom
        return to_page(rect.left, rect.top, rect.right, rect.bottom)

    words: list[Word] = []
    loops = pdfium_calls.loops
    # A module built from an older _loops.c (other calls) is not used: the Python loop is.
    if (
        upright
        and compiled
        and getattr(loops, "WORD_CALLS", 0) == len(_WORD_CALLS)
        and getattr(loops, "WORD_LOOP", 1) == _WORD_LOOP
    ):
        loops.upright_words(  # type: ignore[union-attr]
            text,
            handle,
            c.addresses(_WORD_CALLS),
            left,
            top,
            style,
            Word,
            expand,
            (_GAP_EM, _BACK_EM),  # the C loop reads a fused run as _scan does
            words,
        )
        return words  # boxes fitted as each word was made
    append = words.append
    digit = _DIGIT.search
    for match in _RUN.finditer(text):
        lo, hi = match.span()
        obj = text_object(handle, lo)
        # A run with digits is read box by box, unless one text object holds it all: two
        # cells fused without a space come from two objects ("400.01" and "3"); inside one,
        # PDFium itself puts a space where the text jumps.
        if digit(text, lo, hi) is None or (obj and text_object(handle, hi - 1) == obj):
            if upright:  # inline: this runs once per word, and calls cost
                found = get_box(handle, lo, rect_ref)
                x0, y0, x1, y1 = (
                    rect.left - left,
                    top - rect.top,
                    rect.right - left,
                    top - rect.bottom,
                )
                if hi - lo == 1:
                    a0, b0, a1, b1 = x0, y0, x1, y1
                elif found:
                    found = get_box(handle, hi - 1, rect_ref)
                    a0, b0 = rect.left - left, top - rect.top
                    a1, b1 = rect.right - left, top - rect.bottom
            else:
                first = box(lo)
                last = first if hi - lo == 1 else box(hi - 1)
                found = first is not None and last is not None
                if found:
                    x0, y0, x1, y1 = first  # type: ignore[misc]
                    a0, b0, a1, b1 = last  # type: ignore[misc]
            if found:
                height = y1 - y0
                if height > 0 and y0 <= (b0 + b1) * 0.5 <= y1:
                    # The common case inline (a known text object, its Tf size plausible):
                    # a method call per word costs as much as the C calls.
                    known = by_object.get(obj)
                    if known is not None and 0.5 * height < known[0] < 1.5 * height:
                        size, bold, font = known
                    else:
                        size, bold, font = style.of(lo, height)
                    wx0 = min(a0, x0)
                    wx1 = max(a1, x1)
                    if wx0 < wx1 <= wx0 + (hi - lo + 0.5) * max(size, 1.0):
                        chars = text[lo:hi]
                        if not chars.isascii():
                            chars = expand(chars)
                        append(Word(chars, wx0, min(y0, b0), wx1, max(y1, b1), size, bold, font))
                        continue
        _scan(text, lo, hi, box, style, words, expand)
    return _fit_boxes(words)


def _fit_boxes(words: list[Word]) -> list[Word]:
    """Words whose box is far taller than their size (a font's wrong ascent and descent,
    :data:`INFLATED`) cut to an em's box around its middle: boxes several lines tall
    would fuse the lines they cross."""
    limit = INFLATED * 1.15
    for w in words:
        if w.y1 - w.y0 > limit * w.size > 0:
            mid, half = (w.y0 + w.y1) * 0.5, 0.575 * w.size
            w.y0, w.y1 = mid - half, mid + half
    return words


def _scan(
    text: str,
    lo: int,
    hi: int,
    box: Any,
    style: FontStyle,
    words: list[Word],
    expand: Any = None,
) -> None:
    """Chars ``lo..hi`` (no space among them) as words, split where a gap or a new line
    falls between two of them."""
    x0 = y0 = x1 = y1 = 0.0
    gap = back = 0.0
    start = -1  # char index of the current word's first character, -1 when none
    props: tuple[float, bool, str] = (0.0, False, "")
    for index in range(lo, hi):
        got = box(index)
        if got is None:
            continue
        cx0, cy0, cx1, cy1 = got
        if cx1 <= cx0 and cy1 <= cy0:
            continue  # a zero-size glyph (a marker, not ink)
        if start >= 0:
            mid = (cy0 + cy1) * 0.5
            code = ord(text[index])
            rtl = 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFC
            if rtl and x0 - cx1 <= gap and cx1 <= x1 + back and y0 <= mid <= y1:
                # Right-to-left script: the next char in reading order stands to the left.
                x0, y0, y1 = min(x0, cx0), min(y0, cy0), max(y1, cy1)
                continue
            if cx0 - x1 > gap or cx0 < x0 - back or mid > y1 or mid < y0:
                words.append(_word(text, start, index, x0, y0, x1, y1, props, expand))
                start = -1
            else:
                x1, y0, y1 = max(x1, cx1), min(y0, cy0), max(y1, cy1)
                continue
        start = index
        x0, y0, x1, y1 = cx0, cy0, cx1, cy1
        props = style.of(index, cy1 - cy0)
        em = max(props[0], 1.0)
        gap = _GAP_EM * em
        back = _BACK_EM * em
    if start >= 0:
        words.append(_word(text, start, hi, x0, y0, x1, y1, props, expand))


def _word(
    text: str,
    start: int,
    end: int,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    props: tuple[float, bool, str],
    expand: Any = None,
) -> Word:
    chars = text[start:end]
    if not chars.isascii():
        chars = (expand or expand_chars)(chars)
    return Word(chars, x0, y0, x1, y1, *props)
