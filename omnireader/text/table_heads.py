"""Which row heads a piece of a split table: the header a continuation chunk repeats.

A table cut between rows repeats its header atop each later piece, so a chunk of rows says
what its columns are. Two kinds of table make that header a lie:

- a table with no header: a contents page, a list of figures, whose first row ("| 1.
  Introduction | 3 |") is data. A header row names columns: its cells are labels, not
  amounts or page numbers (a year, "2023", "FY2022", is a label);
- stacked blocks in one sheet (2023's figures, a blank row, then 2022's under their own
  header): the 2022 rows are headed by the 2022 header, not the table's first. A block
  starts at a header-like row after an all-blank row, or at a row that repeats the header's
  first cell.

    >>> is_header_row("| Item | 2023 | 2022 |")
    True
    >>> is_header_row("| 1. Introduction | 3 |")
    False
"""

from __future__ import annotations

import re

__all__ = ["cells", "is_header_row", "block_starts"]

_NUMBER = re.compile(r"^[-+(]?[$€£¥]?\s*\d[\d.,\s%]*\)?[%$€£¥]?$")
_YEAR = re.compile(r"^(?:FY|Q[1-4]|H[12])?\s*'?(?:19|20)\d{2}[A-Z]?$", re.I)


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row, stripped (escaped pipes kept inside a cell)."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner)]


def is_header_row(row: str) -> bool:
    """Whether a row names columns: at least one label, and no cell an amount or a page
    number (a year is a label: "| | 2023 | 2022 |" heads a statement)."""
    filled = [c for c in cells(row) if c]
    if not filled:
        return False
    return all(not _NUMBER.match(c) or _YEAR.match(c) for c in filled)


def block_starts(rows: list[str], header: str) -> list[int]:
    """The indexes of ``rows`` (a table's rows after its header and rule) that start a new
    block with a header of its own: a header-like row of two or more cells after an
    all-blank row, or one repeating the header's first cell, or -- in a table of figures,
    where data rows are not header-like -- one filling the header's columns."""
    head = cells(header)
    shape = [bool(c) for c in head]
    parsed = [cells(row) for row in rows]
    headerish = [is_header_row(row) for row in rows]
    filled_rows = [i for i, c in enumerate(parsed) if any(c)]
    figures = bool(filled_rows) and (
        sum(1 for i in filled_rows if not headerish[i]) >= 0.6 * len(filled_rows)
    )
    out = []
    blank_before = False
    for i, row_cells in enumerate(parsed):
        filled = [c for c in row_cells if c]
        if not filled:
            blank_before = True
            continue
        if headerish[i] and (
            (blank_before and len(filled) >= 2)
            or (bool(head) and bool(head[0]) and row_cells[0] == head[0])
            or (
                figures
                and len(filled) >= 2
                and [bool(c) for c in row_cells] == shape
                and _years(filled) != 1
            )
        ):
            out.append(i)
        blank_before = False
    return out


def _years(filled: list[str]) -> int:
    """How many cells read as a year. A header over figures names none ("| Region | Sales |")
    or several ("| | 2023 | 2022 |"); a data row with one count between 1900 and 2099
    ("| item 272 | 1904 | ... |") only looks like it."""
    return sum(1 for c in filled if _NUMBER.match(c) and _YEAR.match(c))
