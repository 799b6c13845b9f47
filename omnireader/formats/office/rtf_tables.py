"""RTF tables as Markdown tables, as the DOCX and ODT readers write them.

striprtf ends a cell with ``|`` and a row with a line break, and a cell's paragraphs with
line breaks too, so a menu's table reads as pipes run together across lines. Before
striprtf reads the source, :func:`mark_tables` swaps ``\\cell`` and ``\\row`` for marks of
their own, and the paragraph and line breaks inside table paragraphs (``\\intbl``, until
``\\pard`` resets it, group by group as RTF scopes paragraph properties) for a third;
:func:`tables_markdown` then turns the marked text back into rows, cells and tables:

    text = tables_markdown(rtf_to_text(mark_tables(source)))

A cell's paragraphs are joined by spaces and its runs of spaces collapsed (DOCX's cells
are one line as well); a row's first line starts after the last paragraph outside the
table; rows one after another are one table, its first row the header. A table one
column wide is a box around text, not data: its cells are read as paragraphs. Nested
tables (``\\nestcell``) stay as striprtf writes them, inside their cell.
"""

from __future__ import annotations

import re

__all__ = ["mark_tables", "tables_markdown"]

# Private-use characters, written as \uN escapes in groups of their own (so the \ucN in
# force around them is left as it was).
_CELL, _ROW, _BREAK = "\ue001", "\ue002", "\ue003"
_TOKEN = re.compile(r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\.|[{}]|[^\\{}]+", re.S)
_SPACES = re.compile(r"\s+")


def _mark(char: str) -> str:
    return f"{{\\uc1\\u{ord(char)}?}}"


def mark_tables(source: str) -> str:
    """``source`` with table cells, rows and in-cell breaks marked (unchanged when it has
    no ``\\cell``)."""
    if "\\cell" not in source:
        return source
    out: list[str] = []
    scopes: list[bool] = []  # \intbl in force in each open group
    in_table = False
    for token in _TOKEN.finditer(source):
        text, word = token.group(0), token.group(1)
        if text == "{":
            scopes.append(in_table)
        elif text == "}":
            in_table = scopes.pop() if scopes else in_table
        elif word == "pard":
            in_table = False
        elif word == "intbl":
            in_table = True
        elif word == "cell":
            text = _mark(_CELL)
        elif word == "row":
            text = _mark(_ROW)
        elif word in ("par", "line") and in_table:
            text = _mark(_BREAK)
        out.append(text)
    return "".join(out)


def _cell(text: str) -> str:
    return _SPACES.sub(" ", text.replace(_BREAK, " ")).strip().replace("|", "\\|")


def _table(rows: list[list[str]]) -> str:
    rows = [row for row in rows if any(row)]
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    if width == 1:  # one column: a box around text, read as its paragraphs
        return "\n\n".join(row[0].replace("\\|", "|") for row in rows)
    lines = []
    for i, row in enumerate(rows):
        lines.append("| " + " | ".join(row + [""] * (width - len(row))) + " |")
        if i == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


def _loose(text: str) -> str:
    """Marks outside any row (a cell never closed by \\row): read as plain breaks."""
    return text.replace(_CELL, " ").replace(_BREAK, "\n")


def tables_markdown(text: str) -> str:
    """The text striprtf made of :func:`mark_tables`' source, its tables as Markdown."""
    if _ROW not in text and _CELL not in text:
        return text
    pieces: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            pieces.append(f"\n\n{_table(rows)}\n\n")
            rows.clear()

    *done, rest = text.split(_ROW)
    for segment in done:
        before, outside, row = segment.rpartition("\n")
        if outside:  # a paragraph outside the table came first: the table before it ended
            flush()
            pieces.append(_loose(before) + "\n")
        cells = row.split(_CELL)
        if len(cells) > 1 and not cells[-1].strip():
            cells.pop()  # what follows a row's last \cell: its properties, no text
        rows.append([_cell(c) for c in cells])
    flush()
    pieces.append(_loose(rest))
    return "".join(pieces)
