"""Ruled tables: a grid from where the page's ruling lines cross.

Rules that touch or cross form one network; a network with two or more horizontal and two
or more vertical lines is a candidate grid. Its distinct line positions cut it into rows
and columns; a missing wall between two grid cells (no rule along that edge) makes them
one spanning cell, whose text goes to its top-left grid cell, the others staying "". A
word belongs to the cell that holds its centre.

A box drawn round whitespace-aligned columns (a frame with row lines only) is no grid: when
many cells hold runs of words with wide gaps between them, the ruled reading is refused and
the borderless finder reads the region instead.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Rule, Table, Word
from omnireader.formats.layout.tables_cells import (
    records,
    split_columns,
    split_spans,
    whitespace_columns,
)
from omnireader.formats.layout.tables_rules import grid_rules, outer_rows
from omnireader.formats.layout.tables_signs import merge_sign_columns
from omnireader.formats.layout.tables_text import SNAP, cell_text, group_lines, header_rows

__all__ = ["SNAP", "ruled_tables"]

_MIN_RULE = 4.0  # points: shorter strokes are tick marks or glyph-like art
_MAX_RULES = 3_000  # past this many, the page is a drawing, not a grid
_MAX_CELLS = 20_000  # grid cells one table may have (a 200 x 100 grid)
_STUB_EM = 3.0  # em between a row label and the grid it labels, at most
_STUB_WORDS = 5  # words a row label has at most (more is text beside the table)


def ruled_tables(words: list[Word], rules: list[Rule]) -> list[tuple[Table, set[int]]]:
    """The ruled tables in ``rules``, each with the indices of the ``words`` it took."""
    hs = [r for r in rules if r.horizontal and r.x1 - r.x0 >= _MIN_RULE]
    vs = [r for r in rules if not r.horizontal and r.y1 - r.y0 >= _MIN_RULE]
    if len(hs) < 2 or len(vs) < 2 or len(hs) + len(vs) > _MAX_RULES:
        return []
    hs, vs = grid_rules(hs, vs, words)
    out = []
    # Words by their vertical middle, so each grid looks only at the words of its band.
    cys = [(w.y0 + w.y1) / 2 for w in words]  # Word.cy, without a property call each
    order = sorted(range(len(words)), key=cys.__getitem__)
    mids = [cys[k] for k in order]
    for comp_h, comp_v in _networks(hs, vs):
        comp_h = comp_h + outer_rows(comp_h, comp_v)
        top, bottom = min(h.y0 for h in comp_h), max(h.y0 for h in comp_h)
        band = order[bisect_left(mids, top - SNAP) : bisect_right(mids, bottom + SNAP)]
        found = _grid_table(words, band, comp_h, comp_v)
        if found is not None:
            out.append(found)
    return out


def _networks(
    hs: list[Rule], vs: list[Rule], compiled: bool = True
) -> list[tuple[list[Rule], list[Rule]]]:
    """Groups of rules connected by crossings (union-find; verticals found by bisection),
    those with two or more of each kind; compiled where ``_loops`` is built."""
    fast = pdfium_calls.compiled("networks", compiled)
    if fast is not None:
        got = fast(hs, vs, SNAP)
        if got is not None:  # None: a coordinate is not a number; the loop below decides
            return got  # type: ignore[no-any-return]
    parent = list(range(len(hs) + len(vs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(vs)), key=lambda k: vs[k].x0)
    xs = [vs[k].x0 for k in order]
    for i, h in enumerate(hs):
        lo, hi = bisect_left(xs, h.x0 - SNAP), bisect_right(xs, h.x1 + SNAP)
        for k in order[lo:hi]:
            v = vs[k]
            if v.y0 - SNAP <= h.y0 <= v.y1 + SNAP:
                parent[find(i)] = find(len(hs) + k)
    groups: dict[int, tuple[list[Rule], list[Rule]]] = {}
    for i, h in enumerate(hs):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for k, v in enumerate(vs):
        groups.setdefault(find(len(hs) + k), ([], []))[1].append(v)
    return [g for g in groups.values() if len(g[0]) >= 2 and len(g[1]) >= 2]


def _positions(values: list[float]) -> list[float]:
    """Distinct line positions: values within SNAP of each other are one line."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= SNAP:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(g) / len(g) for g in out]


def _grid_table(
    words: list[Word], band: list[int], hs: list[Rule], vs: list[Rule]
) -> tuple[Table, set[int]] | None:
    xs = _positions([v.x0 for v in vs])
    ys = _positions([h.y0 for h in hs])
    vs = vs + _outer_walls(hs, xs, ys)
    xs = _positions([v.x0 for v in vs])
    nr, nc = len(ys) - 1, len(xs) - 1
    if nr < 1 or nc < 2 or nr * nc > _MAX_CELLS:
        return None  # a hatching or a chart's grid lines, not a table

    anchor = _anchors(xs, ys, vs, hs)
    spans: dict[tuple[int, int], list[Word]] = {}
    taken: set[int] = set()
    for index in band:
        w = words[index]
        cx, cy = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2  # Word.cx, Word.cy inline
        if not (xs[0] < cx < xs[-1] and ys[0] < cy < ys[-1]):
            continue
        j, i = bisect_right(xs, cx) - 1, bisect_right(ys, cy) - 1
        spans.setdefault(anchor[(i, j)], []).append(w)
        taken.add(index)
    cells = split_spans(spans, anchor, xs, ys)
    if len(cells) < 2:
        return None
    drawn = cells  # the drawn grid's cells, for the whitespace test below
    stub = _stub(words, band, taken, xs[0], ys)
    if stub:
        # Row labels printed left of the drawn grid, one a row: a column of their own.
        cells = {(i, j + 1): ws for (i, j), ws in cells.items()}
        for i, (indices, ws) in stub.items():
            cells[(i, 0)] = ws
            taken |= indices
        xs = [min(w.x0 for _, ws in stub.values() for w in ws)] + xs
        nc += 1
    # Grid rows of word lists; a drawn row that holds several records one per line (a
    # form's labels and values in two tall boxes) becomes one row per line.
    word_rows = [
        row for i in range(nr) for row in records([cells.get((i, j), []) for j in range(nc)], xs)
    ]
    # Text in one row only (a line boxed or underlined by rules, most grids on a filing's
    # page): fewer than two rows would be kept below. Tested before the costlier tests.
    if sum(1 for row in word_rows if any(row)) < 2 or whitespace_columns(drawn):
        return None
    word_rows, edges = split_columns(word_rows, xs)
    grid = [[cell_text(ws) for ws in row] for row in word_rows]
    merge_sign_columns(grid)
    bold = [all(w.bold for ws in row for w in ws) and any(row) for row in word_rows]
    # Rows and columns with nothing in them are spacers between the drawn lines.
    keep_r = [i for i in range(len(grid)) if any(grid[i])]
    keep_c = [j for j in range(len(edges) - 1) if any(row[j] for row in grid)]
    if len(keep_r) < 2 or len(keep_c) < 2:
        return None
    rows = [[grid[i][j] for j in keep_c] for i in keep_r]
    table = Table(
        rows,
        xs[0] - 0.5,
        ys[0],
        xs[-1],
        ys[-1],
        header_rows(rows, [bold[i] for i in keep_r]),
        ruled=True,
        columns=[edges[j] for j in keep_c] + [edges[-1]],
    )
    return table, taken


def _anchors(
    xs: list[float], ys: list[float], vs: list[Rule], hs: list[Rule]
) -> dict[tuple[int, int], tuple[int, int]]:
    """Each grid cell's spanning cell, by its top-left grid cell: a cell without a wall to
    its left joins its left neighbour's, else one without a wall above joins the one above.

    A wall is a rule along the grid line over the middle half of the cell's side. Each
    row's and column's middle half is worked out once and each grid line's rules kept as
    (start, end) pairs: the same comparisons as a wall test a cell, fewer steps."""
    nr, nc = len(ys) - 1, len(xs) - 1
    at_x = [[(v.y0, v.y1) for v in vs if abs(v.x0 - x) <= SNAP] for x in xs]
    at_y = [[(h.x0, h.x1) for h in hs if abs(h.y0 - y) <= SNAP] for y in ys]
    # (lo + SNAP, hi - SNAP) of each row's and each column's middle half (lo, hi).
    rows = [
        (ys[i] + (ys[i + 1] - ys[i]) * 0.25 + SNAP, ys[i + 1] - (ys[i + 1] - ys[i]) * 0.25 - SNAP)
        for i in range(nr)
    ]
    cols = [
        (xs[j] + (xs[j + 1] - xs[j]) * 0.25 + SNAP, xs[j + 1] - (xs[j + 1] - xs[j]) * 0.25 - SNAP)
        for j in range(nc)
    ]
    anchor: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(nr):
        lo, hi = rows[i]
        above = at_y[i]
        for j in range(nc):
            # The wall left of column j in row i; else the wall above row i in column j.
            if j > 0 and not _wall(at_x[j], lo, hi):
                anchor[(i, j)] = anchor[(i, j - 1)]
            elif i > 0 and not _wall(above, *cols[j]):
                anchor[(i, j)] = anchor[(i - 1, j)]
            else:
                anchor[(i, j)] = (i, j)
    return anchor


def _wall(pieces: list[tuple[float, float]], lo: float, hi: float) -> bool:
    """Whether a piece starts by ``lo`` and ends by ``hi`` (a loop: no generator a cell)."""
    for start, end in pieces:
        if start <= lo and end >= hi:
            return True
    return False


def _outer_walls(hs: list[Rule], xs: list[float], ys: list[float]) -> list[Rule]:
    """Walls where the row lines end, when two or more run on past the outer column lines:
    a shaded column or boxed block inside a wider table, whose rows go on both sides."""
    walls = []
    left = [h.x0 for h in hs if h.x0 < xs[0] - 2 * SNAP]
    right = [h.x1 for h in hs if h.x1 > xs[-1] + 2 * SNAP]
    if len(left) >= 2:
        walls.append(Rule(min(left), ys[0], min(left), ys[-1]))
    if len(right) >= 2:
        walls.append(Rule(max(right), ys[0], max(right), ys[-1]))
    return walls


def _stub(
    words: list[Word], band: list[int], taken: set[int], left: float, ys: list[float]
) -> dict[int, tuple[set[int], list[Word]]]:
    """Row labels printed left of the grid: one short line on each of most of its rows,
    aligned with each other, the longest reaching close to the grid."""
    bands: dict[int, list[tuple[int, Word]]] = {}
    for index in band:
        w = words[index]
        if index not in taken and w.x1 <= left + SNAP and ys[0] < w.cy < ys[-1]:
            bands.setdefault(bisect_right(ys, w.cy) - 1, []).append((index, w))
    labels = {
        i: ({k for k, _ in got}, [w for _, w in got])
        for i, got in bands.items()
        if len(got) <= _STUB_WORDS and len(group_lines([w for _, w in got])) == 1
    }
    rows_with_text = len({bisect_right(ys, words[k].cy) - 1 for k in taken})
    if len(labels) < max(2, rows_with_text // 2) or len(labels) < len(bands):
        return {}
    ws = [min(got, key=lambda w: w.x0) for _, got in labels.values()]
    size = max(1.0, max(w.size for w in ws))
    lefts = sorted(w.x0 for w in ws)
    middle = lefts[len(lefts) // 2]
    aligned = sum(abs(x - middle) <= size for x in lefts)
    reach = max(w.x1 for _, got in labels.values() for w in got)
    # Most labels share their left edge (a total may be indented).
    if aligned < 0.75 * len(lefts) or left - reach > _STUB_EM * size:
        return {}
    return labels
