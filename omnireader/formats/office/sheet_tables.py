"""A sheet's non-empty rows → Markdown: titles above a table as text, sub-tables apart.

XLSX, XLS and CSV share these rules, so a table reads the same whatever file holds it:

- rows above the table that hold a single value (a title, a note) are text above it
  (:func:`leading_titles`); the first row after them is the header when it is all text,
  otherwise the header stays blank and that row is data;
- a sheet where no row holds two values is a list of lines, not a table;
- empty rows (:data:`GAP`) part sub-tables when what follows is a new table: a title, a
  header over data, or other columns. A blank row inside one table (spacing, a group
  break) does not split it.

    sheet_markdown([("Sales 2024", True), GAP, ("Item\\x00Qty", True), ("Pens\\x003", False)])
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CELL_SEP",
    "GAP",
    "Row",
    "buffered_row",
    "gathered_rows",
    "leading_titles",
    "sheet_markdown",
]

# Between the cells of a buffered row: cell text never holds it (cells are cleaned of
# control characters), and one string a row costs a fraction of a tuple of strings, which
# matters when a sheet has millions of cells.
CELL_SEP = "\x00"

#: One buffered sheet row: its cells' text joined by CELL_SEP (trailing empty cells cut off),
#: and whether every non-empty cell holds text (only such a row can be a header).
Row = tuple[str, bool]
#: One or more empty rows between non-empty ones. A buffered row is never "" (its last
#: cell is not empty), so the marker cannot be mistaken for one.
GAP: Row = ("", False)


def buffered_row(texts: list[str], all_text: bool) -> Row | None:
    """A sheet row's cell texts as one :data:`Row` (trailing empty cells cut), or None
    when the row is empty."""
    while texts and not texts[-1]:
        texts.pop()
    return (CELL_SEP.join(texts), all_text) if texts else None


def gathered_rows(cell_rows: Iterable[tuple[list[str], bool]]) -> list[Row]:
    """Each row's cell texts (and whether every filled cell is text) as a sheet's rows:
    empty rows dropped, a run of them between filled rows kept as one :data:`GAP`
    (:func:`sheet_markdown` decides whether it parts two sub-tables)."""
    rows: list[Row] = []
    gap = False
    for texts, all_text in cell_rows:
        if (row := buffered_row(texts, all_text)) is None:
            gap = bool(rows)
            continue
        if gap:
            rows.append(GAP)
            gap = False
        rows.append(row)
    return rows


def leading_titles(filled: list[int]) -> int | None:
    """Where the table starts, given how many values each row holds: the first row with
    two or more; the rows before it hold one value each (titles, notes). None when no row
    holds two values (a list of lines, not a table)."""
    return next((i for i, n in enumerate(filled) if n >= 2), None)


def _filled(joined: str) -> int:
    return sum(1 for text in joined.split(CELL_SEP) if text)


def _columns(block: list[Row]) -> frozenset[int]:
    return frozenset(j for joined, _ in block for j, t in enumerate(joined.split(CELL_SEP)) if t)


def _starts_a_table(previous: list[Row], block: list[Row]) -> bool:
    """Whether ``block`` (after empty rows) is a table of its own rather than more rows of
    ``previous``."""
    first_filled = _filled(block[0][0])
    if first_filled == 1:
        return True  # a title or a note opens the next part
    if block[0][1] and any(not all_text for _, all_text in block[1:]):
        return True  # a header of names over rows of numbers or dates
    return _columns(block) != _columns(previous)


def _blocks(rows: list[Row]) -> list[list[Row]]:
    blocks: list[list[Row]] = [[]]
    for row in rows:
        if row == GAP:
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append(row)
    blocks = [b for b in blocks if b]
    merged: list[list[Row]] = []
    for block in blocks:
        if merged and not _starts_a_table(merged[-1], block):
            merged[-1].extend(block)
        else:
            merged.append(block)
    return merged


def sheet_markdown(rows: list[Row]) -> str:
    """A sheet's non-empty ``rows`` (with :data:`GAP` where empty rows were) as Markdown:
    each sub-table with the lines above it, sub-tables apart."""
    parts = (_block_markdown(block) for block in _blocks(rows))
    return "\n\n".join(p for p in parts if p)


def _block_markdown(rows: list[Row]) -> str:
    """Lines above the table, then the table, from one block of non-empty ``rows``."""
    used: set[int] = set()
    widest = 0
    for joined, _ in rows:
        cells = joined.split(CELL_SEP)
        widest = max(widest, len(cells))
        used.update(j for j, text in enumerate(cells) if text)
    keep = sorted(used)
    width = len(keep)

    def cells_of(joined: str) -> list[str]:
        cells = joined.split(CELL_SEP)
        if width == widest:  # no empty column to drop: pad short rows
            return cells + [""] * (width - len(cells))
        return [cells[j] if j < len(cells) else "" for j in keep]

    start = leading_titles([_filled(joined) for joined, _ in rows])
    if start is None:  # no row holds two values: a list of lines, not a table
        return "\n".join(text for joined, _ in rows for text in joined.split(CELL_SEP) if text)
    above = [text for joined, _ in rows[:start] for text in joined.split(CELL_SEP) if text]
    head, all_text = rows[start]
    # Numbers or dates in the first row make it data, not column names: a blank header.
    header = cells_of(head) if all_text else [""] * width
    lines = [_table_line(header), _table_line(["---"] * width)]
    lines.extend(
        _table_line(cells_of(joined)) for joined, _ in rows[start + 1 if all_text else start :]
    )
    table = "\n".join(lines)
    return "\n".join(above) + "\n\n" + table if above else table


def _table_line(cells: list[str]) -> str:
    return "| " + " | ".join(text.replace("|", "\\|") for text in cells) + " |"
