"""Tell layout tables from data tables, and read layout tables as blocks of text.

E-mail templates and old web pages lay themselves out with tables: a column of rows for
the letter, nested tables for the header and the buttons, paragraphs and headings inside
cells. Written as Markdown pipe tables they become rows of pipes with whole paragraphs
(and further tables) squeezed into cells. A table is *layout* when

- it says so (``role="presentation"`` / ``role="none"``), or
- it holds another table, or
- it has one column of text (every row at most one cell with text: a single cell, a
  stack of rows, or a column between empty spacer cells and images), or
- one of its cells holds blocks: a heading, a list, a quote, a rule, preformatted text,
  or two or more paragraphs / divisions with text, or
- it has no header row (no ``<thead>``, no row of ``<th>``) and one of its cells holds a
  paragraph of prose (two sentences, or 30 words) or a block of three or more lines
  broken by ``<br>`` (an address, a signature): a data table without a header holds
  short values.

A layout table's rows and cells become plain blocks (``div``), read in document order, so
its text comes out as paragraphs; a table of data (rows of short values, one block at
most in a cell) stays a table.
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.web.html_walk import gone, named, own_rows, parent_named, tags

__all__ = ["is_layout_table", "unwrap_layout_tables"]

_SECTIONS = ("thead", "tbody", "tfoot")
_CELLS = ("td", "th")
_PARTS = (*_SECTIONS, "caption", "colgroup", "col")
# Blocks no data cell holds.
_BLOCKS = frozenset(
    ["h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "blockquote", "pre", "hr", "table"]
)
_PARAGRAPHS = ("p", "div")
# Where one sentence ends and another starts ("shipped. Track it"); a piece of fewer
# than three words is an abbreviation or a label ("Mr. Smith", "No. 4"), not a sentence.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[\"'“‘(]?[A-ZÀ-ɏ])")
_SENTENCE_WORDS = 3
# A picture's alt text as the main-content step leaves it (html._flatten_links_and_images).
_IMAGE_ALT = re.compile(r"\[image: [^\]]*\]")
_PROSE_WORDS = 30
_BLOCK_LINES = 3


def _own_cells(row: Any) -> list[Any]:
    return [c for c in row.find_all(_CELLS, recursive=False)]


def _span(cell: Any) -> int:
    # One cell spanning a row of a wider table is still a column of that table; only a
    # table no row of which is wider than one cell is a single column.
    value = str(cell.get("colspan", "1")).strip()
    return int(value) if value.isdigit() and int(value) > 0 else 1


def _holds_blocks(cell: Any) -> bool:
    inside = tags(cell)
    if any(named(el, _BLOCKS) for el in inside):
        return True
    paragraphs = [p for p in inside if named(p, _PARAGRAPHS) and p.get_text(strip=True)]
    return len(paragraphs) >= 2


def _has_text(cell: Any) -> bool:
    # A spacer cell ("&nbsp;", a zero-width joiner) or a cell of images lays out, it does
    # not hold a value.
    text = _IMAGE_ALT.sub("", cell.get_text())
    return bool(text.replace("\u200c", "").replace("\u200b", "").strip())


def _has_header(table: Any, rows: list[Any]) -> bool:
    head = table.find("thead")
    if head is not None and parent_named(head, ("table",)) is table:
        return True
    first = _own_cells(rows[0]) if rows else []
    return bool(first) and all(c.name == "th" for c in first)


def _holds_prose(cell: Any) -> bool:
    text = " ".join(cell.get_text(" ").split())
    sentences = [p for p in _SENTENCE_BREAK.split(text) if len(p.split()) >= _SENTENCE_WORDS]
    if len(text.split()) >= _PROSE_WORDS or len(sentences) >= 2:
        return True
    return cell.find("br") is not None and len(_br_lines(cell)) >= _BLOCK_LINES


def _br_lines(cell: Any) -> list[str]:
    """The cell's lines as ``<br>`` breaks them (inline tags such as ``<b>`` break none)."""
    parts = [
        str(el) if el.name is None else "\n" for el in cell.descendants if el.name in (None, "br")
    ]
    return [line for line in "".join(parts).split("\n") if line.strip()]


def is_layout_table(table: Any) -> bool:
    """Whether ``table`` lays a page out rather than holding data (see the module)."""
    if str(table.get("role", "")).lower() in ("presentation", "none"):
        return True
    if table.find("table") is not None:
        return True
    rows = own_rows(table)
    cells = [_own_cells(r) for r in rows]
    if max((sum(_span(c) for c in row if _has_text(c)) for row in cells), default=0) <= 1:
        return True
    if any(_holds_blocks(c) for row in cells for c in row):
        return True
    return not _has_header(table, rows) and any(_holds_prose(c) for row in cells for c in row)


def unwrap_layout_tables(root: Any) -> int:
    """Turn every layout table under ``root`` into plain blocks, outermost first (so a
    data table inside a layout cell is judged on its own); returns how many."""
    count = 0
    for table in tags(root, ("table",)):  # document order: outer tables first
        if gone(table) or table.name != "table" or not is_layout_table(table):
            continue
        for row in own_rows(table):
            for cell in _own_cells(row):
                cell.name = "div"
                cell.attrs = {}
            row.name = "div"
            row.attrs = {}
        for part in tags(table, _PARTS):
            if parent_named(part, ("table",)) is table:
                if part.name in ("colgroup", "col"):
                    part.decompose()
                else:
                    part.name = "div"
        table.name = "div"
        table.attrs = {}
        count += 1
    return count
