"""The shapes the layout stage works on and gives back.

Coordinates are page points with the origin at the page's top left and y growing down
(PDF space is flipped once, where words are read). Plain slotted dataclasses: a page can
hold tens of thousands of glyphs, and these are built in loops; the pydantic boundary is
where blocks leave the stage (``Block.box_fraction`` for item metadata).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Word", "Line", "Rule", "Table", "Block", "BlockKind", "PageLayout"]

BlockKind = Literal[
    "heading",
    "paragraph",
    "list_item",
    "table",
    "caption",
    "code",
    "header",
    "footer",
    "page_number",
]


@dataclass(slots=True)
class Word:
    """A run of characters with no space inside, on one line, in one font."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float = 0.0  # font size in points
    bold: bool = False
    font: str = ""

    @property
    def height(self) -> float:
        return max(0.1, self.y1 - self.y0)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


@dataclass(slots=True)
class Line:
    """Words on one baseline with no wide gap inside, left to right (``lines.make_lines``)."""

    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool
    text: str = ""  # the words in reading order (set by line_text; words change with it)


@dataclass(slots=True)
class Rule:
    """A ruling line: a stroked path segment, or a thin filled rectangle, axis-aligned."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y0) <= abs(self.x1 - self.x0)


@dataclass(slots=True)
class Table:
    """A grid of cell texts, every row as long as the widest; empty cells are ``""``."""

    rows: list[list[str]]
    x0: float
    y0: float
    x1: float
    y1: float
    header_rows: int = 1
    ruled: bool = False
    # Column boundaries, left to right (one more than the columns): what tells a table that
    # runs onto the next page from a new one. Empty when unknown.
    columns: list[float] = field(default_factory=list)


@dataclass(slots=True)
class Block:
    """One block in reading order. ``level`` is a heading's level (1 = top)."""

    kind: BlockKind
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    level: int = 0
    table: Table | None = None
    size: float = 0.0  # the size most of its characters are set in (points; 0: unknown)
    # Its line-end hyphens as decided when laid out (reflow.Hyphen), to decide again once
    # later pages are read (stream.py); empty when there were none or once done.
    hyphens: list[tuple[int, str, str, str]] = field(
        default_factory=list, compare=False, repr=False
    )
    # Its lines as a code listing keeps them (code_blocks.py), for a paragraph set in a
    # monospace font on a page mostly so: code only if it carries on the listing the page
    # before ended with (page_breaks.carries_listing).
    listing: str | None = field(default=None, compare=False, repr=False)

    def box_fraction(self, width: float, height: float) -> tuple[float, float, float, float]:
        """The box as fractions of the page (0..1, top left origin), like ``ocr_blocks``."""
        w, h = max(width, 1e-6), max(height, 1e-6)
        return (
            round(self.x0 / w, 4),
            round(self.y0 / h, 4),
            round(self.x1 / w, 4),
            round(self.y1 / h, 4),
        )


@dataclass(slots=True)
class PageLayout:
    """A page's blocks in reading order, with the page size they were measured on."""

    width: float
    height: float
    blocks: list[Block] = field(default_factory=list)
    label: str | None = None  # the printed page number, when the page shows one
