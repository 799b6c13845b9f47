"""Where a block of lines breaks into paragraphs, and which of its lines end on purpose.

Paragraphs are often set with no space between them: a line that ends a sentence well short
of the block's right edge, when the next starts one, ends a paragraph; a bullet always
opens an item; a list set with hanging indents (a bibliography) is cut where a line is back
at its entry's start. The same ends tell the reflow which line breaks to keep.
"""

from __future__ import annotations

import re

from omnireader.formats.layout.blocks import TextBlock
from omnireader.formats.layout.headings import leader_end
from omnireader.formats.layout.lines import item_marker, item_text_x0
from omnireader.formats.layout.model import Line

__all__ = ["line_breaks", "paragraphs"]

# A form's check boxes (☐ ☑ ☒) end its question as a full stop would ("… Act. Yes ☒ No ☐").
_BOXES = ("\u2610", "\u2611", "\u2612")
_ENDS = re.compile(r"(?:[.!?:;][)\"'\u201d\u2019]?|[\u2610-\u2612])$")
_STARTS = re.compile(r"^[\"'(\u201c\u2018\u2022\u25cf\uf0b7]?[A-Z0-9\u00c0-\u00de]")


def paragraphs(block: TextBlock) -> list[TextBlock]:
    """A block cut after each line that ends a sentence well short of the right edge when
    the next line starts one: paragraphs set with no space between them."""
    if block.table is not None or len(block.lines) < 2:
        return [block]
    breaks = line_breaks(block)
    out: list[TextBlock] = []
    current = TextBlock()
    for i, line in enumerate(block.lines):
        current.add(line)
        if i + 1 == len(block.lines):
            break
        nxt = block.lines[i + 1]
        ended = _ENDS.search(line.words[-1].text)
        marker = item_marker(nxt)
        # A bullet always opens an item; a number or a dash, after a line that ended. Else
        # a line that ends a sentence (or a bold one: a heading) short of the edge, or left
        # of a list item's text, ends a paragraph when the next starts a sentence.
        cut = (
            marker == "bullet"
            or (marker is not None and bool(ended or breaks[i]))
            or (
                (breaks[i] or _outdented(current, nxt))
                and bool(line.bold or ended)
                and bool(_STARTS.match(nxt.words[0].text))
            )
            or _next_entry(current, nxt)
        )
        if cut:
            out.append(current)
            current = TextBlock()
    out.append(current)
    if len(out) == 1 and current.x0 == block.x0 and current.x1 == block.x1:
        current.breaks = breaks  # the same lines and sides: the reflow needs them too
    if len(out) > 1:
        # Each part keeps the block's right edge: what is "short" is measured against it.
        for part in out:
            part.x1 = max(part.x1, block.x1) if len(part.lines) > 1 else part.x1
    return out


def _next_entry(entry: TextBlock, line: Line) -> bool:
    """``line`` starts the next entry of a list set with hanging indents (a bibliography):
    ``entry``'s lines hang under its first, and ``line`` is back where that one began."""
    if len(entry.lines) < 2:
        return False
    first, em = entry.lines[0], max(line.size, 1.0)
    return entry.lines[1].x0 - first.x0 > 0.8 * em and abs(line.x0 - first.x0) < 0.5 * em


def _outdented(item: TextBlock, line: Line) -> bool:
    """``line`` starts left of the text of list item ``item``: the text after the list."""
    text_x0 = item_text_x0(item.lines[0])
    return text_x0 is not None and line.x0 < text_x0 - max(line.size, 1.0)


def line_breaks(block: TextBlock) -> list[bool]:
    """Which lines end on purpose: well short of the block's right edge (a third of its
    width, at least four em), where the next line's first word would have fitted."""
    width = block.x1 - block.x0
    out = []
    for i, line in enumerate(block.lines):
        if leader_end(line.text) or line.text.endswith(_BOXES):
            out.append(True)
            continue
        em = max(line.size, 1.0)
        short = block.x1 - line.x1 > max(width / 3, 4 * em)
        if short and line.words[-1].text.endswith(("-", "\u2010", "\u2011")):
            short = False  # a word broken at the line end: the line runs on
        if short and i + 1 < len(block.lines):
            nxt = block.lines[i + 1].words[0]
            short = block.x1 - line.x1 > (nxt.x1 - nxt.x0) + em
        out.append(short)
    return out
