"""A Markdown text's blocks: headings, pipe tables and the text between them, in order
(fenced code is text, whatever it holds). What :mod:`.structure` chunks along."""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["MAX_TITLE", "Block", "blocks", "has_structure", "lines"]

MAX_TITLE = 120  # characters of one title: a "heading" that is a whole paragraph is cut
_HEADING = re.compile(r"^(#{1,6})[ \t]+(\S.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_TABLE_ROW = re.compile(r"^[ \t]*\|")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
_HAS_STRUCTURE = re.compile(r"^(#{1,6}[ \t]+\S|[ \t]*\|.*\|[ \t]*$)", re.M)


def has_structure(text: str) -> bool:
    """The text holds a Markdown heading or a pipe-table row."""
    # Either needs a "#" or a "|": looking for those two characters is a memchr each, where
    # the multi-line pattern tries every position of a long text (~4 ms a MB).
    if "#" not in text and "|" not in text:
        return False
    return _HAS_STRUCTURE.search(text) is not None


class Block(NamedTuple):
    """A heading, a table or the text between them: its kind, its span, and what it says."""

    kind: str  # "heading", "table", "text"
    start: int
    end: int
    level: int = 0
    title: str = ""
    caption: str = ""  # a table's: the line above it
    header_end: int = 0  # a table's: where its header (row + rule) ends


def lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line, its newline included."""
    out, at = [], 0
    for line in text.splitlines(keepends=True):
        out.append((at, at + len(line)))
        at += len(line)
    return out


def blocks(text: str) -> list[Block]:
    """Headings, tables and the text between them, in order, covering all of ``text``."""
    spans = lines(text)
    kinds: list[str] = []
    fenced = False
    for a, b in spans:
        line = text[a:b].rstrip("\r\n")
        if _FENCE.match(line):
            fenced = not fenced
            kinds.append("text")
        elif fenced:
            kinds.append("text")
        elif _HEADING.match(line):
            kinds.append("heading")
        elif _TABLE_ROW.match(line):
            kinds.append("table")
        else:
            kinds.append("text")
    blocks: list[Block] = []
    i = 0
    while i < len(spans):
        kind = kinds[i]
        j = i + 1
        if kind != "heading":
            while j < len(spans) and kinds[j] == kind:
                j += 1
        a, b = spans[i][0], spans[j - 1][1]
        if kind == "heading":
            m = _HEADING.match(text[a:b].rstrip("\r\n"))
            assert m is not None
            blocks.append(Block("heading", a, b, len(m.group(1)), m.group(2)))
        elif kind == "table":
            rule = j - i >= 2 and _TABLE_RULE.match(text[spans[i + 1][0] : spans[i + 1][1]])
            header_end = spans[i + 1][1] if rule else a
            caption = _caption(text, blocks)
            blocks.append(Block("table", a, b, caption=caption, header_end=header_end))
        else:
            blocks.append(Block("text", a, b))
        i = j
    return blocks


def _caption(text: str, before: list[Block]) -> str:
    """A table's caption: the last non-blank line above it (a heading's own line), blank
    lines between them skipped; none when another table is right above."""
    for last in reversed(before):
        body = text[last.start : last.end].strip()
        if not body:
            continue
        if last.kind == "heading":
            return body
        if last.kind != "text":
            return ""
        line = body.splitlines()[-1].strip()
        return line if len(line) <= 2 * MAX_TITLE else ""
    return ""
