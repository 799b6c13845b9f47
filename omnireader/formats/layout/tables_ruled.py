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
from itertools import pairwise

from .model import Rule, Table, Word
from .tables_stream import column_of, column_spans
from .tables_text import cell_text, group_lines, header_rows, runs

__all__ = ["SNAP", "ruled_tables"]

SNAP = 2.0  # points: rule ends this close count as touching, positions this close as one line
_MIN_RULE = 4.0  # points: shorter strokes are tick marks or glyph-like art
_MAX_RULES = 3_000  # past this many, the page is a drawing, not a grid
_MAX_CELLS = 20_000  # grid cells one table may have (a 200 x 100 grid)
_SPLIT_CELLS = 0.3
_STUB_EM = 3.0  # em between a row label and the grid it labels, at most
_STUB_WORDS = 5  # words a row label has at most (more is text beside the table)
_RECORD_WIDTH = 0.6  # lines shorter than this share of their cell are records, not wrapped text  # share of cells with internal wide gaps that refuses a ruled reading


def ruled_tables(words: list[Word], rules: list[Rule]) -> list[tuple[Table, set[int]]]:
    """The ruled tables in ``rules``, each with the indices of the ``words`` it took."""
    hs = [r for r in rules if r.horizontal and r.x1 - r.x0 >= _MIN_RULE]
    vs = [r for r in rules if not r.horizontal and r.y1 - r.y0 >= _MIN_RULE]
    if len(hs) < 2 or len(vs) < 2 or len(hs) + len(vs) > _MAX_RULES:
        return []
    out = []
    # Words by their vertical middle, so each grid looks only at the words of its band.
    order = sorted(range(len(words)), key=lambda k: words[k].cy)
    mids = [words[k].cy for k in order]
    for comp_h, comp_v in _networks(hs, vs):
        top, bottom = min(h.y0 for h in comp_h), max(h.y0 for h in comp_h)
        band = order[bisect_left(mids, top - SNAP) : bisect_right(mids, bottom + SNAP)]
        found = _grid_table(words, band, comp_h, comp_v)
        if found is not None:
            out.append(found)
    return out


def _networks(hs: list[Rule], vs: list[Rule]) -> list[tuple[list[Rule], list[Rule]]]:
    """Groups of rules connected by crossings (union-find; verticals found by bisection)."""
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

    # The rules along each grid line, so a wall test looks at one line's pieces only.
    at_x = [[v for v in vs if abs(v.x0 - x) <= SNAP] for x in xs]
    at_y = [[h for h in hs if abs(h.y0 - y) <= SNAP] for y in ys]

    def vwall(i: int, j: int) -> bool:  # the wall left of column j, in row i
        lo, hi = (
            ys[i] + (ys[i + 1] - ys[i]) * 0.25,
            ys[i + 1] - (ys[i + 1] - ys[i]) * 0.25,
        )
        return any(v.y0 <= lo + SNAP and v.y1 >= hi - SNAP for v in at_x[j])

    def hwall(i: int, j: int) -> bool:  # the wall above row i, in column j
        lo, hi = (
            xs[j] + (xs[j + 1] - xs[j]) * 0.25,
            xs[j + 1] - (xs[j + 1] - xs[j]) * 0.25,
        )
        return any(h.x0 <= lo + SNAP and h.x1 >= hi - SNAP for h in at_y[i])

    anchor: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(nr):
        for j in range(nc):
            if j > 0 and not vwall(i, j):
                anchor[(i, j)] = anchor[(i, j - 1)]
            elif i > 0 and not hwall(i, j):
                anchor[(i, j)] = anchor[(i - 1, j)]
            else:
                anchor[(i, j)] = (i, j)
    spans: dict[tuple[int, int], list[Word]] = {}
    taken: set[int] = set()
    for index in band:
        w = words[index]
        cx, cy = w.cx, w.cy
        if not (xs[0] < cx < xs[-1] and ys[0] < cy < ys[-1]):
            continue
        j, i = bisect_right(xs, cx) - 1, bisect_right(ys, cy) - 1
        spans.setdefault(anchor[(i, j)], []).append(w)
        taken.add(index)
    cells = _split_spans(spans, anchor, xs, ys)
    if len(cells) < 2 or _whitespace_columns(cells):
        return None
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
        row
        for i in range(nr)
        for row in _records([cells.get((i, j), []) for j in range(nc)], xs)
    ]
    word_rows, edges = _split_columns(word_rows, xs)
    grid = [[cell_text(ws) for ws in row] for row in word_rows]
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


def _split_columns(
    word_rows: list[list[list[Word]]], xs: list[float]
) -> tuple[list[list[list[Word]]], list[float]]:
    """Columns aligned by whitespace inside one drawn column ("Rate  Cost" under one box)
    become columns of their own, found as the borderless finder finds columns; a column
    splits only when two or more of its lines have runs apart."""
    out: list[list[list[Word]]] = [[] for _ in word_rows]
    edges: list[float] = []
    for j in range(len(xs) - 1):
        lines = [runs(line) for row in word_rows for line in group_lines(row[j])]
        spans = column_spans(lines) if sum(len(line) > 1 for line in lines) >= 2 else []
        if len(spans) < 2:
            for k, row in enumerate(word_rows):
                out[k].append(row[j])
            edges.append(xs[j])
            continue
        for k, row in enumerate(word_rows):
            parts: list[list[Word]] = [[] for _ in spans]
            for line in group_lines(row[j]):
                for run in runs(line):
                    parts[column_of(run, spans)[0]].extend(run)
            out[k].extend(parts)
        edges.extend([xs[j]] + [(a[1] + b[0]) / 2 for a, b in pairwise(spans)])
    return out, edges + [xs[-1]]


def _records(row: list[list[Word]], xs: list[float]) -> list[list[list[Word]]]:
    """One drawn row as rows of cells: itself, or one row per text line when two or more of
    its cells hold short lines stacked (records), not text wrapped to the cell's width."""
    stacked = 0
    for j, ws in enumerate(row):
        lines = group_lines(ws) if len(ws) > 1 else []
        if len(lines) < 2 or all(
            len(line) == 1 and len(line[0].text) <= 2 for line in lines
        ):
            continue  # one line, or glyphs of text turned sideways
        if _short(lines, xs[j + 1] - xs[j]):
            stacked += 1
    if stacked < 2:
        return [row]
    lines = group_lines([w for ws in row for w in ws])
    line_of = {id(w): k for k, line in enumerate(lines) for w in line}
    return [
        [[w for w in ws if line_of[id(w)] == k] for ws in row]
        for k in range(len(lines))
    ]


def _split_spans(
    spans: dict[tuple[int, int], list[Word]],
    anchor: dict[tuple[int, int], tuple[int, int]],
    xs: list[float],
    ys: list[float],
) -> dict[tuple[int, int], list[Word]]:
    """Spanning cells' text, each run of words in the grid cell under it unless it crosses
    a grid line. A header centred over two columns crosses their line and stays one cell; a
    row drawn without walls (alternate shading) still has its values apart; a tall box of
    short records beside ruled rows gives each record its row. Text wrapped in a tall box
    stays one cell."""
    members: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key, a in anchor.items():
        members.setdefault(a, []).append(key)
    cells: dict[tuple[int, int], list[Word]] = {}
    for a, ws in spans.items():
        rows_in = sorted({i for i, _ in members[a]})
        cols_in = sorted({j for _, j in members[a]})
        if len(rows_in) == 1 and len(cols_in) == 1:
            cells.setdefault(a, []).extend(ws)
            continue
        lines = group_lines(ws)
        width = xs[cols_in[-1] + 1] - xs[cols_in[0]]
        records = len(lines) > 1 and _short(lines, width)
        for line in lines:
            for run in runs(line):
                x0, x1 = run[0].x0, run[-1].x1
                y0, y1 = min(w.y0 for w in run), max(w.y1 for w in run)
                if any(
                    x0 < xs[k] - SNAP and x1 > xs[k] + SNAP for k in cols_in[1:]
                ) or (
                    records
                    and any(
                        y0 < ys[k] - SNAP and y1 > ys[k] + SNAP for k in rows_in[1:]
                    )
                ):
                    cells.setdefault(a, []).extend(run)
                    continue
                j = min(
                    max(bisect_right(xs, (x0 + x1) / 2) - 1, cols_in[0]), cols_in[-1]
                )
                i = a[0]
                if records:
                    i = min(
                        max(bisect_right(ys, (y0 + y1) / 2) - 1, rows_in[0]),
                        rows_in[-1],
                    )
                cells.setdefault((i, j), []).extend(run)
    return cells


def _short(lines: list[list[Word]], width: float) -> bool:
    """Lines much shorter than their box: records one per line, not text wrapped to fit."""
    widths = sorted(line[-1].x1 - line[0].x0 for line in lines)
    return widths[len(widths) // 2] < _RECORD_WIDTH * width


def _whitespace_columns(cells: dict[tuple[int, int], list[Word]]) -> bool:
    """Whether the grid's cells hide columns made of whitespace (words far apart in a cell)."""
    split = 0
    for ws in cells.values():
        if any(len(runs(line)) > 1 for line in group_lines(ws)):
            split += 1
    return split > _SPLIT_CELLS * len(cells) and split >= 2
