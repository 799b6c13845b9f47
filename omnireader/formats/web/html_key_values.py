"""Read a table of labelled values (an infobox, a fact sheet) as "Label: value" lines.

Wikipedia's infobox and the fact boxes of many sites are tables whose rows each pair a
row header (``<th>``) with its value (``<td>``), between rows of one full-width cell: the
box's title, a picture with its caption, a sub-heading. Such a table has no header row,
and its values hold lists and inline blocks, so as a Markdown table its first pair became
the header ("| Founded | 1975 |"), and as a layout table
(:mod:`omnireader.formats.web.html_tables`) every label and every list item became a
paragraph of its own, the label far from its value. A table is read as key/value lines
when

- every row with text is either a pair (a ``<th>`` then a ``<td>``, both with text) or a
  single cell, and
- at least :data:`_MIN_PAIRS` rows are pairs, and no cell holds another table.

Its caption, then each row, becomes one line: "Founders: Bill Gates; Paul Allen" (a
value's list items joined by "; ", its line breaks and blocks read as spaces, as a
browser lays an inline ``<div>`` out). A two-column table with a header row of ``<th>``
(Country | Capital) has a row that is no pair, and stays a table.
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.web.html_walk import gone, own_rows, parent_named, tags

__all__ = ["is_key_value_table", "key_value_lines"]

_MIN_PAIRS = 2
_CELLS = ("td", "th")
# Elements a value's text breaks at: read as a space (a browser lays these out as blocks,
# or, with display:inline, as runs of the same line; either way one value).
_BREAKS = {"br", "div", "p", "dd", "dt", "dl", "ul", "ol", "tr", "td", "th", "table"}
_ITEM = "\x1e"  # a list item's start, joined with "; "
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER = re.compile(r"([(\[])\s+")


def _cells_with_text(row: Any) -> list[Any]:
    return [c for c in row.find_all(_CELLS, recursive=False) if c.get_text(strip=True)]


def is_key_value_table(table: Any) -> bool:
    """Whether ``table`` is a box of labelled values (see the module)."""
    if table.find("table") is not None:
        return False
    pairs = 0
    for row in own_rows(table):
        cells = _cells_with_text(row)
        if len(cells) == 2 and cells[0].name == "th" and cells[1].name == "td":
            pairs += 1
        elif len(cells) > 1:
            return False
    return pairs >= _MIN_PAIRS


def _walk(el: Any, out: list[str]) -> None:
    for child in el.children:
        name = getattr(child, "name", None)
        if name is None:
            out.append(str(child))
        elif name == "li":
            out.append(_ITEM)
            _walk(child, out)
        elif name in _BREAKS:
            out.append(" ")
            _walk(child, out)
            out.append(" ")
        else:
            _walk(child, out)


def cell_line(cell: Any) -> str:
    """A cell's text on one line: list items joined by "; ", breaks and blocks as spaces,
    no space left before a comma or inside brackets."""
    out: list[str] = []
    _walk(cell, out)
    pieces = []
    for piece in "".join(out).split(_ITEM):
        text = " ".join(piece.split())
        text = _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", text))
        if text.strip(" ;,"):
            pieces.append(text)
    return "; ".join(pieces)


def _lines(table: Any) -> list[str]:
    lines = []
    caption = table.find("caption")
    if caption is not None and parent_named(caption, ("table",)) is table:
        if text := cell_line(caption):
            lines.append(text)
    for row in own_rows(table):
        cells = _cells_with_text(row)
        if len(cells) == 2:
            label = cell_line(cells[0]).rstrip(":")
            lines.append(f"{label}: {cell_line(cells[1])}")
        elif cells and (text := cell_line(cells[0])):
            lines.append(text)
    return lines


def key_value_lines(root: Any, soup: Any) -> int:
    """Replace every key/value table under ``root`` by a paragraph of its lines, one
    ``<br>`` apart; returns how many."""
    count = 0
    for table in tags(root, ("table",)):
        if gone(table) or not is_key_value_table(table):
            continue
        block = soup.new_tag("p")
        for n, line in enumerate(_lines(table)):
            if n:
                block.append(soup.new_tag("br"))
            block.append(line)
        table.replace_with(block)
        count += 1
    return count
