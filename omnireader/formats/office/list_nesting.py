"""Markdown list indentation from a document's list levels (DOCX ``w:ilvl``).

    nest_list_items([Item("- a", True, 2), Item("- b", True, 3)])
    # -> "- a", "  - b": the first item flush left, the next one step under it

A block is any NamedTuple with ``text``, ``is_list`` and ``depth`` fields.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["nest_list_items"]

B = TypeVar("B", bound=Any)


def nest_list_items(blocks: list[B]) -> list[B]:
    """List items indented as Markdown nests them, not as deep as the document's levels.

    A list's first item is never indented: a list that starts at level 2 (a style such as
    "List Bullet 3", or numbering that begins deep) would otherwise be indented four spaces
    after a paragraph, which Markdown reads as a code block. An item nests one step under
    the item above it, by that item's marker width ("- " 2 columns, "1. " 3), however many
    levels deeper the document puts it.
    """
    out: list[B] = []
    stack: list[tuple[int, int, int]] = []  # (document level, indent, marker width)
    for block in blocks:
        if not block.is_list:
            stack.clear()
            out.append(block)
            continue
        while stack and stack[-1][0] > block.depth:
            stack.pop()
        width = len(block.text.split(" ", 1)[0]) + 1
        if stack and stack[-1][0] == block.depth:
            indent = stack[-1][1]
            stack[-1] = (block.depth, indent, width)
        else:
            indent = stack[-1][1] + stack[-1][2] if stack else 0
            stack.append((block.depth, indent, width))
        out.append(block._replace(text=" " * indent + block.text))
    return out
