"""The cells of a ruled grid, refined where the drawn lines do not tell the whole story:
spanning boxes whose text sits over several grid cells, tall boxes of records one per line,
and columns made of whitespace inside one drawn column.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import pairwise

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.tables_regions import column_of, column_spans
from omnireader.formats.layout.tables_text import SNAP, group_lines, runs

__all__ = ["records", "split_columns", "split_spans", "whitespace_columns"]

# Share of cells with internal wide gaps that refuses a ruled reading.
_SPLIT_CELLS = 0.3
# Lines shorter than this share of their cell are records, not wrapped text.
_RECORD_WIDTH = 0.6
# A record's lines start level across its cells, to this share of a line's height, for
# at least this share of the lines.
_LEVEL = 0.25
_ALIGNED = 0.75


def split_columns(
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


def records(row: list[list[Word]], xs: list[float]) -> list[list[list[Word]]]:
    """One drawn row as rows of cells: itself, or one row per text line when two or more of
    its cells hold short lines stacked (records), not text wrapped to the cell's width."""
    stacked: list[list[list[Word]]] = []
    for j, ws in enumerate(row):
        lines = group_lines(ws) if len(ws) > 1 else []
        if len(lines) < 2 or all(len(line) == 1 and len(line[0].text) <= 2 for line in lines):
            continue  # one line, or glyphs of text turned sideways
        if _short(lines, xs[j + 1] - xs[j]):
            stacked.append(lines)
    if len(stacked) < 2 or not _aligned(stacked):
        return [row]
    lines = group_lines([w for ws in row for w in ws])
    line_of = {id(w): k for k, line in enumerate(lines) for w in line}
    return [[[w for w in ws if line_of[id(w)] == k] for ws in row] for k in range(len(lines))]


def split_spans(
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
                if any(x0 < xs[k] - SNAP and x1 > xs[k] + SNAP for k in cols_in[1:]) or (
                    records and any(y0 < ys[k] - SNAP and y1 > ys[k] + SNAP for k in rows_in[1:])
                ):
                    cells.setdefault(a, []).extend(run)
                    continue
                j = min(max(bisect_right(xs, (x0 + x1) / 2) - 1, cols_in[0]), cols_in[-1])
                i = a[0]
                if records:
                    i = min(
                        max(bisect_right(ys, (y0 + y1) / 2) - 1, rows_in[0]),
                        rows_in[-1],
                    )
                cells.setdefault((i, j), []).extend(run)
    return cells


def _aligned(cells: list[list[list[Word]]]) -> bool:
    """Whether the cells' lines stand side by side, as a record's fields do: most lines of
    each cell have a line of the fullest cell starting level with them (to a quarter of a
    line). Two lists set in one box each, at their own leading, drift apart: one row."""
    fullest = max(range(len(cells)), key=lambda k: len(cells[k]))
    reference = sorted(min(w.y0 for w in line) for line in cells[fullest])
    level = total = 0
    for lines in cells[:fullest] + cells[fullest + 1 :]:
        for line in lines:
            top = min(w.y0 for w in line)
            tolerance = _LEVEL * max(max(w.y1 for w in line) - top, 0.1)
            k = bisect_right(reference, top + tolerance)
            level += k > 0 and top - reference[k - 1] <= tolerance
            total += 1
    return level >= _ALIGNED * total


def _short(lines: list[list[Word]], width: float) -> bool:
    """Lines much shorter than their box: records one per line, not text wrapped to fit."""
    widths = sorted(line[-1].x1 - line[0].x0 for line in lines)
    return widths[len(widths) // 2] < _RECORD_WIDTH * width


def whitespace_columns(cells: dict[tuple[int, int], list[Word]]) -> bool:
    """Whether the grid's cells hide columns made of whitespace (words far apart in a cell)."""
    split = 0
    for ws in cells.values():
        if any(len(runs(line)) > 1 for line in group_lines(ws)):
            split += 1
    return split > _SPLIT_CELLS * len(cells) and split >= 2
