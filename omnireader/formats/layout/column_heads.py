"""A short line right above a table, over its figure columns only, heads those columns.

The table finder takes such a line into the table when it can (``tables_heads``); when it
does not ("Fiscal Year" centred over three years, "Fiscal 2020 vs. 2019 Percentage
Change" over a column of "8 pts"), the line stays above the table as text, and, set bold
(or in a PDF whose every glyph reports a bold weight), it read as a heading that then
headed every page after it. A section title above a table starts at the table's left edge
or over its labels, or is centred on the table; a line that starts right of the middle of
the label column, over columns of figures only, is the columns' head: read as text. Heads
of column groups side by side ("Pension Plans" beside "Retiree Medical Plans") are each
such a line.
"""

from __future__ import annotations

from collections.abc import Callable

from omnireader.formats.layout.model import Block, Table

__all__ = ["drop_column_heads"]

# Gap between the line and the table's top, in the line's size: a head sits right above.
_GAP = 3.0
# Share of a column's filled cells that hold a digit for it to be a column of figures.
_FIGURES = 0.5
# How far off the middle of the table (a share of the page's width) a title centred on it
# may stand.
_CENTRED = 0.03
# How far (in the line's size) it may reach past the table's right edge: a head is often
# wider than the narrow column of figures it stands over.
_REACH = 6.0


def drop_column_heads(blocks: list[Block], width: float, outlined: Callable[[str], bool]) -> None:
    """Each heading of ``blocks`` (reading order) right above a table and over its figure
    columns only becomes a paragraph, as does one on the same line before such a head; a
    heading the outline names stays. ``width`` is the page's."""
    below: Table | None = None  # the table the block after this one heads, if any
    for i in range(len(blocks) - 1, -1, -1):
        block, nxt = blocks[i], blocks[i + 1] if i + 1 < len(blocks) else None
        table = nxt.table if nxt is not None else None
        if table is None and below is not None and nxt is not None and _same_line(block, nxt):
            table = below  # a group head beside the one right before the table
        below = None
        if (
            block.kind == "heading"
            and table is not None
            and _heads_columns(block, table, width)
            and not outlined(block.text)
        ):
            block.kind, block.level = "paragraph", 0
            below = table


def _same_line(a: Block, b: Block) -> bool:
    return min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _heads_columns(block: Block, table: Table, width: float) -> bool:
    edges = table.columns
    size = block.size or (block.y1 - block.y0)
    if len(edges) < 3 or not 0 <= table.y0 - block.y1 + 0.5 * size <= _GAP * size:
        return False
    # A head over a narrow column of figures reaches left into the gutter beside the labels
    # ("Fiscal 2020 vs. 2019 Percentage Change" over "8 pts"), not to their left half.
    if block.x0 < (edges[0] + edges[1]) / 2 or block.x1 > edges[-1] + _REACH * size:
        return False  # from the labels' side on, or far past the table: a title, a sentence
    middle = (block.x0 + block.x1) / 2
    if abs(middle - (table.x0 + table.x1) / 2) <= _CENTRED * width:
        return False  # a title centred on the table
    over = [
        k
        for k in range(1, len(edges) - 1)
        if min(edges[k + 1], block.x1) - max(edges[k], block.x0) > 0
    ]
    return bool(over) and all(_figures(table, k) for k in over)


def _figures(table: Table, column: int) -> bool:
    """Whether most filled cells of the column below its header hold a figure."""
    cells = [row[column] for row in table.rows[table.header_rows :] if column < len(row)]
    filled = [cell for cell in cells if cell.strip()]
    digits = sum(any(ch.isdigit() for ch in cell) for cell in filled)
    return bool(filled) and digits >= _FIGURES * len(filled)
