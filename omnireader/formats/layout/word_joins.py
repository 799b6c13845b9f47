"""Line breaks PDFium made up inside a word, undone before the text is cut into words.

Some generators (a browser printing a page, a typesetter writing one text object per
glyph) make PDFium start a new line between every two characters of a line: its text reads
"P\\r\\nH\\r\\nA\\r\\nR\\r\\nM\\r\\nA" for PHARMA and "1\\r\\n1\\r\\n,\\r\\n0\\r\\n3\\r\\n6"
for 11,036, and the page's words become letters ("P H A R M A"). The rule: a line break
PDFium generated (not one in the content) between two characters on one baseline, of one
height, the second starting where the first ends (within :data:`_TOUCH_EM` of an em either
way), is no break: the characters touch on the page as the letters of one word do. A real
new line starts far left of where the last one ended or on another baseline; a break
between two words or cells of one line leaves a space-wide gap (a quarter em or more).
It could misfire on two table cells whose text touches with no gap at all, which a reader
of the page would take for one word too.

Every line of a page ends in a generated break, so the test runs a few times a line; it is
compiled (``_loops.join_spans``) where the loops are built, the same test in the same order.
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.pdfium_calls import Calls

__all__ = ["JOINED", "join_split_words"]

#: Stands in the text for a generated break that is no break: not a break character (the
#: run goes on), zero-size on the page (box-by-box reading skips it), dropped from a word's
#: text. A noncharacter, so it never stands for text of the page.
JOINED = "\ufdd0"
# A generated line break between two characters of a word; spaces are another matter
# (PDFium generates those at real word gaps too, down to a hair's width after an italic f).
_LINE_BREAK = re.compile(r"(?<=[^\s\x00\u200b])(?:\r\n|\r|\n)(?=[^\s\x00\u200b])")
# The second character starts within this share of an em of the first's end.
_TOUCH_EM = 0.08
# The two loose boxes' heights may differ this much (one font size; a raised footnote mark
# or a change of size is a change of word).
_HEIGHT_RATIO = 1.25
# Their bottoms (the font's descent below one baseline) within this share of the height.
_BASELINE_SHARE = 0.15
# The PDFium functions the compiled loop calls, in the order it takes them.
_JOIN_CALLS = ("FPDFText_IsGenerated", "FPDFText_GetLooseCharBox")


def join_split_words(
    text: str, handle: int | None, c: Calls, rect: Any, rect_ref: Any, compiled: bool = True
) -> str:
    """``text`` with each generated line break inside a word (see the module's rule)
    replaced by :data:`JOINED`, index for index; ``rect`` and ``rect_ref`` are an
    ``FS_RECTF`` and its reference, reused. ``compiled`` false runs the Python loop (tests
    compare the two)."""
    if "\n" not in text and "\r" not in text:
        return text
    join_spans = pdfium_calls.compiled("join_spans", compiled)
    if join_spans is not None:
        spans = join_spans(
            text, handle, c.addresses(_JOIN_CALLS), (_TOUCH_EM, _HEIGHT_RATIO, _BASELINE_SHARE)
        )
    else:
        spans = _join_spans(text, handle, c, rect, rect_ref)
    if not spans:
        return text
    pieces: list[str] = []
    done = 0
    for lo, hi in spans:
        pieces.append(text[done:lo])
        pieces.append(JOINED * (hi - lo))
        done = hi
    pieces.append(text[done:])
    return "".join(pieces)


def _join_spans(
    text: str, handle: int | None, c: Calls, rect: Any, rect_ref: Any
) -> list[tuple[int, int]]:
    """The spans of ``text`` that are generated line breaks inside a word, in order."""
    get_box, generated = c.loose_box, c.is_generated
    spans: list[tuple[int, int]] = []
    for match in _LINE_BREAK.finditer(text):
        lo, hi = match.span()
        if generated(handle, lo) != 1 or not get_box(handle, lo - 1, rect_ref):
            continue
        a_left, a_right, a_bottom, a_top = rect.left, rect.right, rect.bottom, rect.top
        if not get_box(handle, hi, rect_ref):
            continue
        a_height, b_height = a_top - a_bottom, rect.top - rect.bottom
        if not (a_height > 0 and b_height > 0):
            continue
        if not 1 / _HEIGHT_RATIO <= a_height / b_height <= _HEIGHT_RATIO:
            continue
        if abs(rect.bottom - a_bottom) > _BASELINE_SHARE * a_height:
            continue
        touch = _TOUCH_EM * a_height / 1.15  # a loose box is ~1.15 em tall
        if rect.left > a_left and abs(rect.left - a_right) <= touch:
            spans.append((lo, hi))
    return spans
