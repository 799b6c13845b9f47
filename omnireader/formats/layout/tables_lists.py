"""A numbered or bulleted list set with tabs is no table.

Contracts, specifications and filings' exhibits set their clauses with hanging indents: a
label ("1.", ".1", "(a)", "•") at a tab stop, the text at the next. The borderless table
finder sees aligned columns there, and a clause became a table row ("| | (a) | Payments
contemplated with respect to …"), its sentence cut at the row's last line, the rest of it
text below the table. :func:`is_list` tells such a grid: every cell left of its last column
is a label or empty (header included), and the last column holds running text.
"""

from __future__ import annotations

from omnireader.formats.layout.lines import is_label
from omnireader.formats.layout.model import Table

__all__ = ["is_list"]

# Words a cell of running text has at least (a table's text cells are names and figures).
_TEXT_WORDS = 4


def is_list(table: Table) -> bool:
    """``table`` is a list's labels and items, not a table (see the module docstring)."""
    if not table.rows or len(table.rows[0]) < 2:
        return False
    labels = [cell.strip() for row in table.rows for cell in row[:-1]]
    return (
        any(labels)
        and all(not cell or is_label(cell) for cell in labels)
        and any(len(row[-1].split()) >= _TEXT_WORDS for row in table.rows)
    )
