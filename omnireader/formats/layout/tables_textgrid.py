"""Borderless tables of text: columns of wrapped sentences, rows told apart by white space.

A table whose cells are sentences ("Explanation", "Expected benefit") reads as prose line by
line, so the borderless finder refuses it. What makes it a table is its shape: three
columns or more, a header line whose short cells start every column, and cells that start
together across the columns, row after row. Running text in columns starts its paragraphs
wherever each column's text happens to; only a table lines its cells up.

A column's lines are cut into cells where the step down is clearly longer than its own line
spacing; a row starts where cells of two columns or more start on one line. Each column's
lines from there to the next row's start are one cell, however many lines it wrapped to.
"""

from __future__ import annotations

from bisect import bisect_right
from statistics import median

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.tables_regions import PROSE_WORDS, Run, run_words
from omnireader.formats.layout.tables_text import cell_text

__all__ = ["text_grid"]

_MIN_COLUMNS = 3
_MIN_ROWS = 3  # body rows, below the header
_ROW_GAP = 1.4  # a gap this many times a column's line spacing starts a new cell
_LINED_UP = 0.6  # share of the cells that start on a row's first line
_TOGETHER = 1.0  # cells starting within this share of a line's height start together
_FILLED = 0.75  # share of body rows with two cells or more

_Box = tuple[float, float, float, float]


def text_grid(
    placed: list[list[tuple[int, Run]]], nc: int
) -> tuple[list[list[str]], list[_Box]] | None:
    """The region's rows of cell texts and their boxes, when it is a table of text."""
    if nc < _MIN_COLUMNS:
        return None
    # Each column's lines, top to bottom, cut into cells where the step down from one line
    # to the next is clearly longer than the column's own line spacing.
    columns: list[list[list[Word]]] = [[] for _ in range(nc)]
    for line in placed:
        for col, run in line:
            columns[col].append(run)
    starts: list[float] = []  # where each column's cells start
    height = median(w.y1 - w.y0 for col in columns for run in col for w in run)
    for col_runs in columns:
        col_runs.sort(key=lambda run: min(w.y0 for w in run))
        tops = [min(w.y0 for w in run) for run in col_runs]
        bottoms = [max(w.y1 for w in run) for run in col_runs]
        gaps = [tops[k] - bottoms[k - 1] for k in range(1, len(col_runs))]
        # The column's own line spacing: a low quartile of its gaps (cells wrap to
        # several lines, and its leading may vary from cell to cell).
        positive = sorted(g for g in gaps if g > 0)
        spacing = positive[len(positive) // 4] if positive else 0.0
        starts.extend(
            tops[k] for k in range(len(col_runs)) if k == 0 or gaps[k - 1] > _ROW_GAP * spacing
        )
    # A row starts where cells of two columns or more start together.
    starts.sort()
    rows_at: list[float] = []
    for top in starts:
        together = sum(1 for t in starts if abs(t - top) <= _TOGETHER * height)
        if together >= 2 and (not rows_at or top - rows_at[-1] > _TOGETHER * height):
            rows_at.append(top)
    if len(rows_at) < 1 + _MIN_ROWS:
        return None
    # In a table nearly every cell starts a row; in columns of text a paragraph lines up
    # with one beside it only by chance.
    lined_up = sum(1 for t in starts if any(abs(t - r) <= _TOGETHER * height for r in rows_at))
    if lined_up < _LINED_UP * len(starts):
        return None
    # Every line goes to the row started last at or above it.
    grid: list[list[list[Word]]] = [[[] for _ in range(nc)] for _ in rows_at]
    for col, col_runs in enumerate(columns):
        for run in col_runs:
            top = min(w.y0 for w in run)
            i = max(0, bisect_right(rows_at, top + _TOGETHER * height) - 1)
            grid[i][col].extend(run)
    if not _shaped(grid, nc):
        return None
    rows = [[cell_text(ws) for ws in row] for row in grid]
    boxes = [
        (
            min(w.x0 for ws in row for w in ws),
            min(w.y0 for ws in row for w in ws),
            max(w.x1 for ws in row for w in ws),
            max(w.y1 for ws in row for w in ws),
        )
        for row in grid
    ]
    return rows, boxes


def _shaped(cells: list[list[list[Word]]], nc: int) -> bool:
    """A header of short cells over every column, enough body rows of two cells or more,
    and at least one cell that wrapped (else the line-by-line reading was right)."""
    if len(cells) < 1 + _MIN_ROWS:
        return False
    head, body = cells[0], cells[1:]
    if sum(1 for ws in head if ws) < nc or any(run_words(ws) >= PROSE_WORDS for ws in head):
        return False
    if sum(1 for row in body if sum(1 for ws in row if ws) >= 2) < _FILLED * len(body):
        return False
    return any(len({round(w.y0) for w in ws}) > 1 for row in body for ws in row)
