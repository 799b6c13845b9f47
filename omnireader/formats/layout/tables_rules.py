"""A ruled grid's lines, told apart from the lines that only shade or box its text.

Word processors draw a shaded cell as a filled box, and shaded paragraphs inside the cell
as boxes of their own, inset by the cell's padding (a few points) or one per text line.
Their edges look like grid lines: kept, they cut a header cell into one row per line and
put a label in another row than its value. Two rules tell them apart:

- an inset edge runs a few points inside a longer parallel rule that covers it, with no
  text between the two (a real row line has a row of text on each side);
- a grid line meets the grid: it touches or crosses at least two lines across it. The
  pieces left of a shading box (its edges between two inset walls) meet none.

And one rule adds what the drawing leaves out: column lines that run on above the top row
line (or below the bottom one) frame a header row (or a total row) with no line of its own.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import pairwise
from statistics import median

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Rule, Word
from omnireader.formats.layout.tables_text import SNAP

__all__ = ["grid_rules", "outer_rows"]

_INSET = 8.0  # points: an edge this close inside a longer parallel rule may be its shading
_TOUCH = 0.1  # share of a line's height between two boxes that still touch
_TALL = 1.5  # word boxes taller than this many line steps are not the text's own height
_PASSES = 3  # rounds of dropping lines that meet no grid (each drop may free another)


def grid_rules(
    hs: list[Rule], vs: list[Rule], words: list[Word], compiled: bool = True
) -> tuple[list[Rule], list[Rule]]:
    """The horizontal and vertical rules that can be grid lines. The loops below run
    compiled where ``_loops`` is built and ``compiled`` is true (the same rules come out)."""
    fast = pdfium_calls.compiled("grid_lines", compiled)
    if fast is not None:
        got = fast(hs, vs, words, (SNAP, _TOUCH, _TALL, _INSET), _PASSES)
        if got is not None:  # None: a coordinate is not a number; the loops below decide
            return got  # type: ignore[no-any-return]
    centres = [(w.cx, w.cy) for w in words]
    hs = _without_insets(_between_lines(hs, words), centres, horizontal=True)
    vs = _without_insets(vs, centres, horizontal=False)
    for _ in range(_PASSES):
        keep_h = _meeting(hs, vs, horizontal=True)
        keep_v = _meeting(vs, hs, horizontal=False)
        if len(keep_h) == len(hs) and len(keep_v) == len(vs):
            break
        hs, vs = keep_h, keep_v
    return hs, vs


def _between_lines(hs: list[Rule], words: list[Word]) -> list[Rule]:
    """The horizontal rules that do not run between two lines of one paragraph. A row line
    has a cell's padding on each side; the edges of shading drawn one box a text line run
    between lines whose boxes touch (no room for a line between them). Tight tables print
    rows that touch too, with row lines across the whole grid: only a line that stops
    inside the grid (a cell's or a column's shading) is dropped this way."""
    boxes = sorted((w.y0, w.y1, w.x0, w.x1) for w in words)
    if not boxes or not _plausible(boxes):
        return hs
    tops = [b[0] for b in boxes]
    tallest = max(b[1] - b[0] for b in boxes)
    line = median(b[1] - b[0] for b in boxes)
    out = []
    for h in hs:
        y = h.y0
        # Words whose box holds y, or ends or starts within a touch of it.
        near = [
            b
            for b in boxes[bisect_left(tops, y - tallest - SNAP) : bisect_left(tops, y + SNAP)]
            if b[2] < h.x1
            and b[3] > h.x0
            and b[0] - _TOUCH * (b[1] - b[0]) <= y
            and y <= b[1] + _TOUCH * (b[1] - b[0])
        ]
        if not _partial(h, hs, 3 * line) or not any(_touching(a, b, y) for a in near for b in near):
            out.append(h)
    return out


def _partial(h: Rule, hs: list[Rule], reach: float) -> bool:
    """Whether a rule this close above or below runs further left or right: the line
    stops inside the grid (a row line across the whole grid is never shading's)."""
    return any(
        abs(o.y0 - h.y0) <= reach and (o.x0 < h.x0 - 2 * SNAP or o.x1 > h.x1 + 2 * SNAP) for o in hs
    )


def _touching(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], y: float
) -> bool:
    """``a`` a line above ``b`` in the same column, their boxes touching, ``y`` between."""
    height = min(a[1] - a[0], b[1] - b[0])
    return (
        a[0] + a[1] < b[0] + b[1]
        and a[2] < b[3]
        and b[2] < a[3]
        and b[0] - a[1] <= _TOUCH * height
        and a[0] + 0.5 * (a[1] - a[0]) < y < b[1] - 0.5 * (b[1] - b[0])
    )


def _plausible(boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether the words' boxes are about a line high: some fonts give boxes several lines
    tall, which every rule near the text would cut."""
    height = median(b[1] - b[0] for b in boxes)
    tops = sorted({round(b[0], 1) for b in boxes})
    steps = [b - a for a, b in pairwise(tops) if b - a > 0.3 * height]
    return bool(steps) and height <= _TALL * median(steps)


def _span(r: Rule, horizontal: bool) -> tuple[float, float, float]:
    """(position across, start along, end along) of a rule."""
    return (r.y0, r.x0, r.x1) if horizontal else (r.x0, r.y0, r.y1)


def _without_insets(
    rules: list[Rule], centres: list[tuple[float, float]], horizontal: bool
) -> list[Rule]:
    spans = sorted((_span(r, horizontal), r) for r in rules)
    ats = [s[0] for s, _ in spans]
    points = [(x, y) if horizontal else (y, x) for x, y in centres]  # (along, across)
    out = []
    for (at, a0, a1), r in spans:
        lo, hi = bisect_left(ats, at - _INSET), bisect_right(ats, at + _INSET)
        for k in range(lo, hi):
            other = spans[k][0]
            # Most neighbours do not reach over the rule: ruled out here, without a call.
            if other[1] > a0 + SNAP or other[2] < a1 - SNAP:
                continue
            if _covers(other, at, a0, a1, points):
                break
        else:
            out.append(r)
    return out


def _covers(
    other: tuple[float, float, float],
    at: float,
    a0: float,
    a1: float,
    points: list[tuple[float, float]],
) -> bool:
    """Whether ``other`` is a longer parallel rule a few points off, covering the rule at
    ``at`` from ``a0`` to ``a1``, with no text between the two."""
    o_at, o0, o1 = other
    if abs(o_at - at) <= SNAP or o0 > a0 + SNAP or o1 < a1 - SNAP:
        return False
    if (o1 - o0) - (a1 - a0) <= 2 * SNAP:
        return False  # as long: a double border
    lo, hi = min(at, o_at), max(at, o_at)
    return not any(a0 <= along <= a1 and lo < across < hi for along, across in points)


def _meeting(rules: list[Rule], across: list[Rule], horizontal: bool) -> list[Rule]:
    """The rules that two or more rules across them touch or cross."""
    others = sorted(_span(o, not horizontal) for o in across)
    ats = [o[0] for o in others]
    out = []
    for r in rules:
        at, a0, a1 = _span(r, horizontal)
        lo, hi = bisect_left(ats, a0 - SNAP), bisect_right(ats, a1 + SNAP)
        n = 0
        for k in range(lo, hi):
            _, o0, o1 = others[k]
            if o0 - SNAP <= at <= o1 + SNAP:
                n += 1
                if n == 2:
                    out.append(r)
                    break
    return out


def outer_rows(hs: list[Rule], vs: list[Rule]) -> list[Rule]:
    """Row lines where two or more column lines end past the top (bottom) row line: a
    header (total) row drawn with column lines only. They run the grid's width."""
    top, bottom = min(h.y0 for h in hs), max(h.y0 for h in hs)
    left, right = min(h.x0 for h in hs), max(h.x1 for h in hs)
    out = []
    above = [v.y0 for v in vs if v.y0 < top - 2 * SNAP]
    below = [v.y1 for v in vs if v.y1 > bottom + 2 * SNAP]
    if len(above) >= 2:
        out.append(Rule(left, min(above), right, min(above)))
    if len(below) >= 2:
        out.append(Rule(left, max(below), right, max(below)))
    return out
