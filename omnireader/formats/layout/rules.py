"""A PDF page's ruling lines, read from its path objects with pypdfium2.

Tables draw their grid in three ways, and all three end up here as axis-aligned
:class:`~omnireader.formats.layout.model.Rule` segments: stroked line segments, thin filled
rectangles (a "line" 0.5 pt high), and the edges of larger rectangles (cell borders or
shading). Pieces of one line drawn cell by cell are merged (``rules_merge.py``), so a grid's row line is one
rule. Coordinates are page points with the origin at the top left of the media box, y
growing down: the frame words are read in.

Bounded: a page that is a drawing (a map, a chart of 10,000 strokes) is not a table grid;
past :data:`MAX_OBJECTS` objects, :data:`MAX_SEGMENTS` path segments or :data:`MAX_RULES`
rules the page gives no rules at all, and its tables are found from the words' alignment
alone.

The walk over the objects is compiled (``_loops.c``) where it was built: the same pieces,
without a ctypes call per object and segment.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Rule
from omnireader.formats.layout.pdfium_calls import Calls, calls, handle
from omnireader.formats.layout.rules_merge import JOIN, merge_boxes
from omnireader.formats.layout.transform import page_transform

__all__ = [
    "MAX_OBJECTS",
    "MAX_RULES",
    "MAX_SEGMENTS",
    "THIN",
    "page_rules",
]

MAX_OBJECTS = 50_000  # page objects (text runs, paths, images) walked before giving up
MAX_SEGMENTS = 40_000  # path segments looked at on one page before giving up
MAX_RULES = 4_000  # axis-aligned pieces kept before the page counts as a drawing
THIN = 3.0  # a filled rectangle this thin (points) is a line, not a box
_SKEW = 0.5  # points a "horizontal" segment may rise over its length

_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class _TooMany(Exception):
    """Raised inside the walk when the page has more paths than a table grid would."""


# The PDFium functions the compiled walk calls, in the order it takes them.
_WALK_CALLS = (
    "FPDFPage_CountObjects",
    "FPDFPage_GetObject",
    "FPDFFormObj_CountObjects",
    "FPDFFormObj_GetObject",
    "FPDFPageObj_GetType",
    "FPDFPageObj_GetMatrix",
    "FPDFPageObj_GetBounds",
    "FPDFPageObj_GetFillColor",
    "FPDFPageObj_GetStrokeColor",
    "FPDFPath_GetDrawMode",
    "FPDFPath_CountSegments",
    "FPDFPath_GetPathSegment",
    "FPDFPathSegment_GetPoint",
    "FPDFPathSegment_GetType",
    "FPDFPathSegment_GetClose",
)


def page_rules(page: Any, compiled: bool = True) -> list[Rule]:
    """The ruling lines of a ``pypdfium2.PdfPage``, merged, in top-left page points.

    The paths are walked by the compiled loop when it is built and ``compiled`` is true
    (tests compare the two walks; their rules are the same)."""
    to_page, (left, top) = page_transform(page)
    c = calls()
    raw: list[tuple[float, float, float, float]]
    walk = pdfium_calls.compiled("path_pieces", compiled)
    if walk is not None:
        pieces = walk(
            handle(page.raw),
            c.addresses(_WALK_CALLS),
            (c.PATH, c.FORM, c.MOVETO, c.BEZIERTO),
            (MAX_SEGMENTS, MAX_OBJECTS, MAX_RULES),
        )
        if pieces is None:
            return []
        raw = pieces
    else:
        rules: list[Rule] = []
        budget = [MAX_SEGMENTS, MAX_OBJECTS]  # segments, objects left to look at
        try:
            _walk_objects(c, handle(page.raw), False, _IDENTITY, rules, budget)
        except _TooMany:
            return []
        raw = [(r.x0, r.y0, r.x1, r.y1) for r in rules]
    # Into the words' frame once: origin top left, y down, the page's /Rotate applied.
    # Plain tuples until the rules are merged: a filing's page draws thousands of pieces.
    if to_page is None:
        flipped = [(x0 - left, top - y1, x1 - left, top - y0) for x0, y0, x1, y1 in raw]
    else:
        flipped = [to_page(x0, y1, x1, y0) for x0, y0, x1, y1 in raw]
    return merge_boxes(flipped, JOIN, compiled)


def _mul(m: _Matrix, n: _Matrix) -> _Matrix:
    """``m`` then ``n`` (PDF row-vector convention: p' = p·m·n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )


def _matrix(c: Calls, obj: int) -> _Matrix:
    if not c.matrix(obj, c.float_at[0]):
        return _IDENTITY
    return tuple(c.floats)  # type: ignore[return-value]


def _walk_objects(
    c: Calls,
    holder: int | None,
    is_form: bool,
    outer: _Matrix,
    out: list[Rule],
    budget: list[int],
) -> None:
    """The path objects of a page (or a form object's content), forms entered.

    A page holds thousands of text objects for a few dozen paths, so the loop does one
    type check per object, through the int prototypes of :mod:`.pdfium_calls`."""
    count, get = (c.form_count, c.form_object) if is_form else (c.count_objects, c.get_object)
    n = count(holder)
    budget[1] -= n
    if budget[1] < 0:
        raise _TooMany  # a page of 100,000 glyph objects: looking at each costs too much
    get_type, path, form = c.object_type, c.PATH, c.FORM
    for i in range(n):
        obj = get(holder, i)
        kind = get_type(obj)
        if kind == path:
            _path_rules(c, obj, outer, out, budget)
        elif kind == form:
            _walk_objects(c, obj, True, _mul(_matrix(c, obj), outer), out, budget)


def _path_rules(c: Calls, obj: int, outer: _Matrix, out: list[Rule], budget: list[int]) -> None:
    modes = c.ints
    c.draw_mode(obj, *c.int_at)
    fill, stroke = modes[0], modes[1]
    if not fill and not stroke:
        return  # a clipping or invisible path draws nothing
    if _invisible(c, obj, bool(stroke)):
        return
    n = c.count_segments(obj)
    budget[0] -= n
    if budget[0] < 0:
        raise _TooMany
    if n <= 5 and _thin_bounds(c, obj, outer, out):
        return  # a line or a thin bar: its bounding box says all, in one call
    a, b, cc, d, e, f = _mul(_matrix(c, obj), outer)
    xy = c.floats
    x_at, y_at = c.float_at[0], c.float_at[1]
    get_seg, get_point, get_type, get_close = (
        c.segment,
        c.segment_point,
        c.segment_type,
        c.segment_close,
    )
    moveto, bezier = c.MOVETO, c.BEZIERTO
    subpaths: list[tuple[list[tuple[float, float]], bool, bool]] = []
    points: list[tuple[float, float]] = []
    curved = False
    prev = None
    for i in range(n):
        seg = get_seg(obj, i)
        kind = get_type(seg)
        if kind == moveto and points:
            # Only a subpath's last segment says whether it closes.
            subpaths.append((points, bool(get_close(prev)), curved))
            points, curved = [], False
        prev = seg
        if kind == bezier:
            curved = True
        if curved:
            continue  # a curved subpath is dropped whole; its points are not needed
        get_point(seg, x_at, y_at)
        x, y = xy[0], xy[1]
        points.append((x * a + y * cc + e, x * b + y * d + f))
    closed = prev is not None and bool(get_close(prev))
    if points:
        subpaths.append((points, closed, curved))
    for pts, is_closed, is_curved in subpaths:
        if is_curved or len(pts) < 2:
            continue  # curves are rounded boxes or glyph-like art, not rules
        if fill and (is_closed or len(pts) >= 4):
            box = _box(pts)
            if box is not None:
                _box_rules(box, out)
                continue
        if stroke:
            ring = pts + [pts[0]] if is_closed else pts
            for (x0, y0), (x1, y1) in pairwise(ring):
                _segment(x0, y0, x1, y1, out)
    if len(out) > MAX_RULES:
        raise _TooMany


def _thin_bounds(c: Calls, obj: int, outer: _Matrix, out: list[Rule]) -> bool:
    """A short path whose box is thin one way is a rule along it (stroke width included)."""
    if not c.bounds(obj, *c.float_at[:4]):
        return False
    left, bottom, right, top = c.floats[:4]
    if outer is not _IDENTITY:
        a, b, cc, d, e, f = outer
        if abs(b) > 1e-6 or abs(cc) > 1e-6:
            return False  # turned inside a form: the segments are read instead
        left, right = sorted((left * a + e, right * a + e))
        bottom, top = sorted((bottom * d + f, top * d + f))
    w, h = right - left, top - bottom
    if h <= THIN and w > THIN:
        out.append(Rule(left, (top + bottom) / 2, right, (top + bottom) / 2))
    elif w <= THIN and h > THIN:
        out.append(Rule((left + right) / 2, bottom, (left + right) / 2, top))
    elif w <= THIN and h <= THIN:
        pass  # a dot or a tick: nothing a table is drawn with
    else:
        return False
    return True


def _invisible(c: Calls, obj: int, stroked: bool) -> bool:
    """White or fully transparent: a rule nobody sees is no cell border."""
    if not (c.stroke_color if stroked else c.fill_color)(obj, *c.uint_at):
        return False
    r, g, b, alpha = c.uints
    return alpha == 0 or min(r, g, b) >= 250


def _box(pts: list[tuple[float, float]]) -> tuple[float, float, float, float] | None:
    """The rectangle ``pts`` outline, when they outline an axis-aligned one."""
    xs = sorted({_tenth(p[0]) for p in pts})
    ys = sorted({_tenth(p[1]) for p in pts})
    if len(pts) > 5 or len(xs) > 2 or len(ys) > 2:
        return None
    return xs[0], ys[0], xs[-1], ys[-1]


def _tenth(value: float) -> float:
    """``value`` to a tenth of a point, ties to even: what C's ``nearbyint(v * 10) / 10``
    gives in the compiled walk (``round(v, 1)`` rounds the decimal, which C cannot)."""
    return round(value * 10) / 10 if math.isfinite(value) else value


def _box_rules(box: tuple[float, float, float, float], out: list[Rule]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if h <= THIN and w > h:
        out.append(Rule(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2))
    elif w <= THIN and h > w:
        out.append(Rule((x0 + x1) / 2, y0, (x0 + x1) / 2, y1))
    elif w > THIN and h > THIN:
        # A filled box (cell shading, a bordered frame drawn as fills): its edges bound cells.
        out.extend(
            (
                Rule(x0, y0, x1, y0),
                Rule(x0, y1, x1, y1),
                Rule(x0, y0, x0, y1),
                Rule(x1, y0, x1, y1),
            )
        )


def _segment(x0: float, y0: float, x1: float, y1: float, out: list[Rule]) -> None:
    if abs(y1 - y0) <= _SKEW and abs(x1 - x0) > _SKEW:
        y = (y0 + y1) / 2
        out.append(Rule(min(x0, x1), y, max(x0, x1), y))
    elif abs(x1 - x0) <= _SKEW and abs(y1 - y0) > _SKEW:
        x = (x0 + x1) / 2
        out.append(Rule(x, min(y0, y1), x, max(y0, y1)))
