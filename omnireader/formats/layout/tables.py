"""Tables on a page, ruled and borderless, as grids of cell texts; and their Markdown.

:func:`find_tables` reads the ruled tables first (a grid from the page's ruling lines,
:mod:`.tables_ruled`), then looks for borderless ones (columns of aligned word runs,
:mod:`.tables_stream`) among the words no ruled table took. A grid that is a chart's
axis ticks and values (:mod:`.tables_charts`) is no table: its words stay text.
:func:`render_table` writes a Markdown pipe table; :func:`continues` and
:func:`merge_continued` keep a table that runs onto the next page one table.
"""

from __future__ import annotations

from bisect import bisect_right

from omnireader.formats.layout.bidi import line_text
from omnireader.formats.layout.model import Rule, Table, Word
from omnireader.formats.layout.tables_charts import is_chart
from omnireader.formats.layout.tables_lists import is_list
from omnireader.formats.layout.tables_ruled import SNAP, ruled_tables
from omnireader.formats.layout.tables_signs import cover_hanging_marks
from omnireader.formats.layout.tables_stream import borderless_tables
from omnireader.formats.layout.tables_text import em, group_lines, header_rows, runs

__all__ = ["continues", "find_tables", "merge_continued", "render_table"]

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
        if is_chart(table):
            continue  # a chart's gridlines: its words are text (and no borderless table)
        tables.append(table)
        taken |= used
    for table in tables:
        taken |= _header_above(table, words, taken)
    if tables:
        rest = [w for i, w in enumerate(words) if i not in taken and not _inside(w, tables)]
    else:
        rest = words  # most pages: no ruled table took a word
    # A chart's axis labels and a list set with tabs line up like a table: their words
    # stay text (.tables_charts, .tables_lists).
    for table in borderless_tables(rest):
        if not (is_chart(table) or is_list(table)):
            cover_hanging_marks(table, rest)
            tables.append(table)
    tables.sort(key=lambda t: (t.y0, t.x0))
    return tables


def _header_above(table: Table, words: list[Word], taken: set[int]) -> set[int]:
    """Lines just above a ruled grid whose runs each sit in one of its columns (a header
    printed above the first rule) become its first rows; the indices of their words."""
    edges = table.columns
    if len(edges) < 3:
        return set()
    free = [
        (i, w)
        for i, w in enumerate(words)
        if i not in taken
        and w.y1 <= table.y0 + SNAP
        and edges[0] - SNAP <= w.cx <= edges[-1] + SNAP
    ]
    by_id = {id(w): i for i, w in free}
    body = max(1.0, min((em(w) for w in words if table.y0 < w.cy < table.y1), default=10.0))
    got: set[int] = set()
    heads: list[list[str]] = []
    top = table.y0
    for line in reversed(group_lines([w for _, w in free])):
        size = max(em(w) for w in line)
        if top - max(w.y1 for w in line) > 1.5 * size or size > 1.25 * body or len(heads) == 3:
            break
        row = _header_row(line, edges, size)
        if row is None or sum(1 for c in row if c) < 2:
            # A run across columns, or one cell alone: a caption or title, not a header.
            break
        heads.insert(0, row)
        got |= {by_id[id(w)] for w in line}
        top = min(w.y0 for w in line)
    if heads:
        table.rows[:0] = heads
        # The rows above the first row of numbers, now that the header lines are in.
        table.header_rows = max(len(heads), header_rows(table.rows))
        table.y0 = top
    return got


def _header_row(line: list[Word], edges: list[float], size: float) -> list[str] | None:
    """The line as a row of the table's columns, or None when a run crosses a column line."""
    row = [""] * (len(edges) - 1)
    for run in runs(line):
        x0, x1 = run[0].x0, run[-1].x1
        k = bisect_right(edges, (x0 + x1) / 2) - 1
        if not 0 <= k < len(row) or x0 < edges[k] - 0.5 * size or x1 > edges[k + 1] + 0.5 * size:
            return None
        row[k] = (row[k] + " " + line_text(run)).strip()
    return row


def _inside(word: Word, tables: list[Table]) -> bool:
    return any(t.x0 <= word.cx <= t.x1 and t.y0 <= word.cy <= t.y1 for t in tables)


def _escape(cell: str) -> str:
    # A pipe inside a cell would end it; a line break would end the row.
    return " ".join(cell.replace("\\", "\\\\").replace("|", "\\|").split())


def render_table(table: Table) -> str:
    """A Markdown pipe table, the header separator after its first row.

    GitHub-flavoured Markdown has one header row: the separator must be the table's second
    line, or every line above it is read as a paragraph. A header of two lines or more
    (``Table.header_rows``) goes on as the first rows of the body."""
    if not table.rows:
        return ""
    width = max(len(r) for r in table.rows)
    rows = [[_escape(c) for c in r] + [""] * (width - len(r)) for r in table.rows]
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(1, "|" + " --- |" * width)
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
    body = nxt.rows[len(head) :] if nxt.rows[: len(head)] == head else nxt.rows
    return Table(
        prev.rows + body,
        prev.x0,
        prev.y0,
        prev.x1,
        prev.y1,
        prev.header_rows,
        prev.ruled and nxt.ruled,
        list(prev.columns),
    )
