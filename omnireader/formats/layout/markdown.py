"""A page's blocks as Markdown: ``#`` headings, ``-`` list items, pipe tables, fenced code,
and where each
block's text stands in the page's text (the spans items and page breaks are cut by)."""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.layout.lines import BULLETS
from omnireader.formats.layout.model import Block, PageLayout, Table

__all__ = ["block_markdown", "join_markdown", "render_markdown"]

# A list item's own mark, replaced by Markdown's.
_BULLET_MARK = re.compile(rf"^[{BULLETS}\u2013\u2014]\s*")


def render_markdown(layout: PageLayout) -> str:
    """The page's body blocks as Markdown: ``#`` headings, ``-`` list items, tables."""
    return join_markdown([(block, block_markdown(block)) for block in layout.blocks])[0]


def join_markdown(pieces: list[tuple[Block, str]]) -> tuple[str, list[tuple[int, int]]]:
    """Blocks' Markdown as one text, and each piece's span in it (an empty piece: an empty
    span where it would have stood). Items of a list are a line apart (a tight list),
    other blocks a blank line."""
    text = ""
    spans: list[tuple[int, int]] = []
    previous: Block | None = None
    for block, piece in pieces:
        gap = ""
        if text:
            tight = previous is not None and previous.kind == block.kind == "list_item"
            gap = "\n" if tight else "\n\n"
        start = len(text) + len(gap)
        spans.append((start, start + len(piece)))
        if piece:
            text = f"{text}{gap}{piece}"
            previous = block
    return text, spans


def block_markdown(block: Block) -> str:
    if block.kind == "heading":
        return "#" * max(1, min(block.level, 6)) + " " + block.text
    if block.kind == "list_item":
        return _BULLET_MARK.sub("- ", block.text, count=1)
    if block.kind == "table" and block.table is not None:
        return _table_markdown(block.table)
    if block.kind == "code":
        fence = "~~~" if "```" in block.text else "```"  # a fence inside would end it early
        return f"{fence}\n{block.text}\n{fence}"
    return block.text


def _table_markdown(table: Table) -> str:
    try:
        from omnireader.formats.layout.tables import render_table
    except ImportError:
        render_table = _plain_table
    return render_table(table)


def _plain_table(table: Table) -> str:
    rows: list[Any] = table.rows
    return "\n".join(" ".join(cell for cell in row if cell) for row in rows)
