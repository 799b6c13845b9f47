"""Tables on a page, ruled and borderless, as grids of cell texts; and their Markdown.

:func:`find_tables` reads the ruled tables first (a grid from the page's ruling lines,
:mod:`.tables_ruled`), then looks for borderless ones (columns of aligned word runs,
:mod:`.tables_stream`) among the words no ruled table took. :func:`render_table` writes a
Markdown pipe table; :func:`continues` and :func:`merge_continued` keep a table that runs
onto the next page one table.
"""

from __future__ import annotations

from .model import Rule, Table, Word
from .tables_ruled import ruled_tables
from .tables_stream import borderless_tables

__all__ = ["find_tables", "render_table", "continues", "merge_continued"]

# Column boundaries of two parts of one table agree to this share of the table's width.
_SAME_COLUMNS = 0.03


def find_tables(words: list[Word], rules: list[Rule], width: float, height: float) -> list[Table]:
    """The tables on a page, top to bottom.

    ``words`` and ``rules`` are in page points, top-left origin (``page_words`` and
    ``page_rules``); ``width`` and ``height`` are the page's size in the same frame.
    """
    del width, height  # every measure is relative to the words' font size instead
    tables: list[Table] = []
    taken: set[int] = set()
    for table, used in ruled_tables(words, rules):
        tables.append(table)
        taken |= used
    rest = [w for i, w in enumerate(words) if i not in taken and not _inside(w, tables)]
    tables.extend(borderless_tables(rest))
    tables.sort(key=lambda t: (t.y0, t.x0))
    return tables


def _inside(word: Word, tables: list[Table]) -> bool:
    return any(t.x0 <= word.cx <= t.x1 and t.y0 <= word.cy <= t.y1 for t in tables)


def _escape(cell: str) -> str:
    # A pipe inside a cell would end it; a line break would end the row.
    return " ".join(cell.replace("\\", "\\\\").replace("|", "\\|").split())


def render_table(table: Table) -> str:
    """A Markdown pipe table, the header separator after the header rows (at least one)."""
    if not table.rows:
        return ""
    width = max(len(r) for r in table.rows)
    rows = [[_escape(c) for c in r] + [""] * (width - len(r)) for r in table.rows]
    head = min(max(1, table.header_rows), len(rows))
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(head, "|" + " --- |" * width)
    return "\n".join(lines)


def continues(prev: Table, nxt: Table) -> bool:
    """Whether ``nxt`` (at the top of the next page) carries on ``prev``.

    The same number of columns, and either the same column boundaries (to a few percent of
    the table's width) or the same header rows repeated at its top.
    """
    if not prev.rows or not nxt.rows:
        return False
    if len(prev.rows[0]) != len(nxt.rows[0]):
        return False
    head = prev.rows[: max(1, prev.header_rows)]
    if nxt.rows[: len(head)] == head:
        return True
    if len(prev.columns) == len(nxt.columns) >= 2:
        span = max(prev.x1 - prev.x0, nxt.x1 - nxt.x0, 1.0)
        return all(abs(a - b) <= _SAME_COLUMNS * span for a, b in zip(prev.columns, nxt.columns))
    return False


def merge_continued(prev: Table, nxt: Table) -> Table:
    """``prev`` with the rows of its continuation ``nxt`` below (a repeated header dropped)."""
    head = prev.rows[: max(1, prev.header_rows)]
    body = nxt.rows[len(head):] if nxt.rows[: len(head)] == head else nxt.rows
    return Table(
        prev.rows + body, prev.x0, prev.y0, prev.x1, prev.y1,
        prev.header_rows, prev.ruled and nxt.ruled, list(prev.columns),
    )
