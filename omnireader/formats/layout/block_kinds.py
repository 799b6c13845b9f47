"""What a laid-out block is: a heading (at which level), a caption, a list item, a
paragraph or a table; and a heading that only labels the larger one under it (a kicker)."""

from __future__ import annotations

import re
from collections.abc import Callable

from omnireader.formats.layout.blocks import TextBlock
from omnireader.formats.layout.headings import HeadingRules
from omnireader.formats.layout.lines import BULLETS
from omnireader.formats.layout.model import Block, BlockKind, Table
from omnireader.formats.layout.paragraphs import line_breaks
from omnireader.formats.layout.reflow import Hyphen, Vocabulary, reflow

__all__ = ["all_bold", "block_of", "drop_kickers", "main_size"]

# "*" is left out: at a line start it is a footnote mark more often than a bullet.
_BULLET = re.compile(rf"^(?:[{BULLETS}\u2013\u2014\-]|\(?[a-z0-9]{{1,3}}[.)])\s+")
_CAPTION = re.compile(
    r"^(?i:figure|fig\.|table|chart|exhibit)(?:\s+(?:\d|[A-Z]\b|[IVX]+\b)|\s?:\s)"
)
# A heading over one set this much larger is its kicker (``drop_kickers``).
_KICKER_RATIO = 1.15


def block_of(
    block: TextBlock,
    index: int,
    headings: HeadingRules,
    vocabulary: Vocabulary,
    margin: bool = False,
) -> Block:
    if block.table is not None:
        table: Table = block.table
        return Block("table", "", table.x0, table.y0, table.x1, table.y1, table=table)
    hyphens: list[Hyphen] = []
    # One line breaks nowhere; a block paragraphs() left whole has its breaks already.
    breaks = None if len(block.lines) < 2 else block.breaks or line_breaks(block)
    text = reflow([line.text for line in block.lines], vocabulary, breaks, hyphens)
    size = main_size(block)
    level = headings.level(text, size, all_bold(block), len(block.lines), index)
    if margin and not headings.outline.level(text, index):
        level = 0  # the page's running header or footer, read as text
    kind: BlockKind = "paragraph"
    if _CAPTION.match(text) and not headings.outline.level(text, index):
        kind, level = "caption", 0  # "Table 3: ..." names a table, it opens no section
    elif level:
        kind = "heading"
    elif _BULLET.match(text):
        kind = "list_item"
    return Block(
        kind, text, block.x0, block.y0, block.x1, block.y1, level=level, size=size, hyphens=hyphens
    )


def main_size(block: TextBlock) -> float:
    """The size most of the block's characters are set in: a formula's big operator on its
    first line does not make a paragraph a heading."""
    if len(block.lines) == 1:
        return block.lines[0].size
    weights: dict[float, int] = {}
    for line in block.lines:
        weights[line.size] = weights.get(line.size, 0) + len(line.text)
    return max(weights, key=weights.__getitem__)


def all_bold(block: TextBlock) -> bool:
    """Bold throughout, not a paragraph led in by a bold phrase ("Ablation. We ..."):
    at most a tenth of its characters regular (a number or a symbol set apart)."""
    if not block.bold:
        return False
    regular = total = 0
    for line in block.lines:
        for word in line.words:
            total += len(word.text)
            if not word.bold:
                regular += len(word.text)
    return regular * 10 <= total


def drop_kickers(blocks: list[Block], sizes: list[float], outlined: Callable[[str], bool]) -> None:
    """A heading right above a heading set larger is its kicker ("AI Pack" over a slide's
    title, a series name over an article's): a label of what follows, not a section of
    its own, which would head nothing. Read as text; a heading the outline names stays."""
    for i in range(len(blocks) - 1):
        block, nxt = blocks[i], blocks[i + 1]
        if (
            block.kind == "heading"
            and nxt.kind == "heading"
            and sizes[i + 1] >= _KICKER_RATIO * sizes[i]
            and not outlined(block.text)
        ):
            block.kind, block.level = "paragraph", 0
