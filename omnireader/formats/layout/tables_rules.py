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

from omnireader.formats.layout.model import Rule, Word
from omnireader.formats.layout.tables_text import SNAP

__all__ = ["grid_rules", "outer_rows"]

_INSET = 8.0  # points: an edge this close inside a longer parallel rule may be its shading
_PASSES = 3  # rounds of dropping lines that meet no grid (each drop may free another)


def grid_rules(hs: list[Rule], vs: list[Rule], words: list[Word]) -> tuple[list[Rule], list[Rule]]:
    """The horizontal and vertical rules that can be grid lines."""
    centres = [(w.cx, w.cy) for w in words]
    hs = _without_insets(hs, centres, horizontal=True)
    vs = _without_insets(vs, centres, horizontal=False)
    for _ in range(_PASSES):
        keep_h = _meeting(hs, vs, horizontal=True)
        keep_v = _meeting(vs, hs, horizontal=False)
        if len(keep_h) == len(hs) and len(keep_v) == len(vs):
            break
        hs, vs = keep_h, keep_v
    return hs, vs


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
        if not any(_covers(spans[k][0], at, a0, a1, points) for k in range(lo, hi)):
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
