"""A running footer that stands under all the rest of its page, at whatever height.

A filing made from HTML ends each page where its text does and prints its footer right under
it: the exhibit's title under the page number ("A-9" over "Global Option Grant Award
Agreement"), a third of the way down one page and at the foot of the next. The margin keys
of :mod:`.furniture` carry the block's height, so such a title never repeats there. Here a
block under all the rest of its page, right by a page number, whose text (digits masked) is
under all the rest of enough other pages in the furniture window too is that running footer;
with it gone, the page number over it is the page's lowest block and is read as the page's
number. A last line with no page number by it ("Date: March 24, 2017" under each of a
filing's certifications) stays text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from omnireader.formats.layout.model import Block

__all__ = ["lowest", "lowest_keys", "lowest_titles"]

Key = tuple[str, str, int]

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
# A footer is a line or two: a longer block under the text is the text's own.
_MAX_CHARS = 120


def _key(block: Block) -> Key:
    # Height left out (-1): that is what differs from page to page.
    return "_", _DIGITS.sub("#", _SPACES.sub(" ", block.text.strip().lower())), -1


def lowest(blocks: list[Block], is_number: Callable[[str], bool]) -> list[Block]:
    """The blocks nothing on the page stands under (their own edges do not count) that
    could be a footer's title: short text, no heading, caption or table, no lone page
    number or a footer carrying one (those count with the pages instead), not the page's
    only text, and right by its page number."""
    if len(blocks) < 2:
        return []
    deepest = max(b.y0 for b in blocks)
    return [
        b
        for b in blocks
        if deepest < b.y1 - 0.5
        and b.kind == "paragraph"
        and 0 < len(b.text) <= _MAX_CHARS
        and not is_number(b.text)
        # Under the page's middle or above it, but never at its top (a header's place).
        and b.y0 > min(o.y1 for o in blocks if o is not b)
        and _by_a_number(b, blocks, is_number)
    ]


def _by_a_number(block: Block, blocks: list[Block], is_number: Callable[[str], bool]) -> bool:
    """A page number stands right over or under ``block`` (a line's gap, or overlapping):
    what makes it the page's footer rather than its last line ("Date: March 24, 2017"
    under each certification, a table's note under each page's table stay text)."""
    reach = 2 * max(block.size, 1.0)
    return any(
        o is not block
        and is_number(o.text)
        and (-reach <= block.y0 - o.y1 <= reach or -reach <= o.y0 - block.y1 <= reach)
        for o in blocks
    )


def lowest_keys(blocks: list[Block]) -> set[Key]:
    """The keys of a page's lowest blocks (:func:`lowest`), for the other pages to look for."""
    return {_key(b) for b in blocks}


def lowest_titles(
    blocks: list[Block],
    others: list[tuple[int, set[Key]]],
    is_number: Callable[[str], bool],
    repeats: int,
) -> list[Block]:
    """The page's lowest blocks that are the lowest on at least ``repeats`` other pages."""
    return [
        b
        for b in lowest(blocks, is_number)
        if sum(1 for _, keys in others if _key(b) in keys) >= repeats
    ]
