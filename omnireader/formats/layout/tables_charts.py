"""Charts the table finders took for tables: a grid of axis ticks and scattered values.

A bar or line chart drawn with paths sets its text as a table's would: a column of axis
ticks down its left side ("$220", "$200", … "$0"), the values over the bars and the
categories along the foot. Aligned, they pass for a borderless table (and the chart's
gridlines for a ruled one), and came out as a Markdown table of axis labels with the
values in whichever cell they fell. What a table has and a chart has not: its rows are
filled. So a grid is a chart when

- a column holds a value axis: four numbers or more, falling down the rows by one step
  ("100, 80, 60, 40, 20") to three rows from the grid's foot at most, on rows mostly empty
  beside it, what is there numbers, and no column beside filled the whole way down (a
  table whose first column counts years or brackets fills the rest of its rows, or a
  column of them); or
- its cells are scattered figures: most of the grid empty, nearly every filled cell a
  number, and no column filled down most of the rows (a table has a column of labels or
  of figures that runs the whole way).

Such a grid is no table: its words stay text lines in reading order.
"""

from __future__ import annotations

import re

from omnireader.formats.layout.model import Table

__all__ = ["is_chart"]

_AXIS_TICKS = 4  # evenly spaced numbers down a column that make a value axis
_AXIS_FILL = 0.6  # share of the other cells of the axis's rows above which it is a table
_FOOT_ROWS = 3  # rows below the lowest tick: the categories (wrapped) along the foot, a legend
_BESIDE = 0.8  # share of the ticks' rows a column beside them fills: then it is a table's
_SCATTER_FILL = 0.35  # share of a grid's cells filled below which scattered figures are a chart
_SCATTER_NUMBERS = 0.9  # share of those cells that must be numbers
_FULL_COLUMN = 0.6  # share of the rows a column fills for it to run the whole way
_STEP = 0.01  # how far (a share of the step) two steps of one axis may differ
_MAX_CELLS = 40  # cells of a column looked at for an axis (pairs of them are tried)
_NUMBER = re.compile(r"[-\u2212(]?\d[\d,]*(?:\.\d+)?\)?")
_UNITS = str.maketrans("", "", "$€£¥%\u00a0 ")


def is_chart(table: Table) -> bool:
    """Whether ``table`` is a chart's text set out as a grid (see the module's doc)."""
    rows = [[cell.strip() for cell in row] for row in table.rows]
    width = max((len(row) for row in rows), default=0)
    if len(rows) < 3 or width < 2:
        return False
    rows = [row + [""] * (width - len(row)) for row in rows]
    return any(_value_axis(rows, c) for c in range(width)) or _scattered(rows)


def number(cell: str) -> float | None:
    """The value of a cell that is one number ("$1,200", "35%", "(4)"), else None."""
    text = cell.translate(_UNITS)
    if not text or _NUMBER.fullmatch(text) is None:
        return None
    negative = text[0] in "-\u2212(" and not text[0].isdigit()
    value = float(text.strip("-\u2212()").replace(",", ""))
    return -value if negative else value


def _value_axis(rows: list[list[str]], column: int) -> bool:
    """Whether the column holds four numbers or more falling by one step down the rows (a
    value over a bar may fall between two ticks), on rows mostly empty beside them."""
    filled_rows = [n for n, row in enumerate(rows) if row[column]][:_MAX_CELLS]
    ticks = [(n, v) for n in filled_rows if (v := number(rows[n][column])) is not None]
    best: list[int] = []
    count = len(ticks)
    # An axis is four ticks or more, its lowest within the foot rows of the grid: without
    # as many ticks, or without one that low, no run found below could be one.
    if count < _AXIS_TICKS or len(rows) - 1 - ticks[-1][0] > _FOOT_ROWS:
        return False
    # A run takes its rows among the ticks' rows: a column beside filled on all of them
    # (a table's labels) is filled beside any run, which the last test refuses. Most
    # columns of figures end here, before the pair search.
    tick_rows = [n for n, _ in ticks]
    if any(all(rows[n][k] for n in tick_rows) for k in range(len(rows[0])) if k != column):
        return False
    # Pairs of ticks are tried in order, each run from the pair down; a run only takes the
    # ticks below its last, so a pair with too few ticks below it to beat the longest run
    # so far is not tried (the same run is found, with fewer steps).
    for i, (first, top) in enumerate(ticks):
        if count - i <= len(best):
            break
        for k in range(i + 1, count):
            if count - k + 1 <= len(best):
                break
            second, below = ticks[k]
            step = top - below
            if step <= 0:
                continue
            run, want = [first, second], below - step
            for n, value in ticks[k + 1 :]:
                if abs(value - want) <= _STEP * step:
                    run.append(n)
                    want -= step
            if len(run) > len(best):
                best = run
    if len(best) < _AXIS_TICKS or len(rows) - 1 - best[-1] > _FOOT_ROWS:
        # More rows below the axis than its labels and legend: a table the region ran on
        # into, which declining the grid would scatter as text; left as found.
        return False
    others = [cell for n in best for k, cell in enumerate(rows[n]) if k != column]
    filled = [cell for cell in others if cell]
    if len(filled) > _AXIS_FILL * max(len(others), 1):
        return False  # full rows: a table counting years or brackets down its first column
    if sum(1 for cell in filled if number(cell) is not None) * 2 < len(filled):
        return False  # words beside the numbers: a list of exhibits, of clauses
    # A column filled beside every tick (the count of stores opened each year) is a table's.
    return all(
        sum(1 for n in best if rows[n][k]) < _BESIDE * len(best)
        for k in range(len(rows[0]))
        if k != column
    )


def _scattered(rows: list[list[str]]) -> bool:
    width = len(rows[0])
    if width < 3:
        return False
    filled = [cell for row in rows for cell in row if cell]
    if len(filled) > _SCATTER_FILL * len(rows) * width:
        return False
    numbers = sum(1 for cell in filled if number(cell) is not None)
    if numbers < _SCATTER_NUMBERS * len(filled):
        return False
    return all(sum(1 for row in rows if row[k]) < _FULL_COLUMN * len(rows) for k in range(width))
