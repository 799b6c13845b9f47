"""Lines → blocks (lines are ``lines.py``; the blocks' reading order is ``order.py``).

Lines stack into a block while they are close below each other, overlap horizontally and
share a font size and weight; a first-line indent under a full line starts a new block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from omnireader.formats.layout.furniture import page_number
from omnireader.formats.layout.lines import is_label, item_text_x0
from omnireader.formats.layout.model import Line

__all__ = ["TextBlock", "make_blocks"]

# Below a line, the next line of the same block starts within this many line heights.
_LEADING = 0.9
# Bold lines further apart than this share of a line's height are two headings, unless
# the first ran to its column's edge (a long heading wrapped in a double-spaced text).
_HEADING_GAP = 0.5
# Bold lines whose sizes differ by more than this share are two headings (a heading wraps
# in one size; a line a point smaller below a title is its subtitle).
_HEADING_SIZE_STEP = 0.04
# Font sizes within this ratio are one size.
_SIZE_RATIO = 1.12


@dataclass(slots=True)
class TextBlock:
    lines: list[Line] = field(default_factory=list)
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    table: Any = None  # a found Table standing in reading order as one block
    # The widest gap between two of its lines so far (-1: one line); below 0 where the
    # lines' boxes overlap (a font's ascent and descent taller than its leading).
    leading: float = -1.0
    # Which lines end on purpose (paragraphs.line_breaks), when worked out for these lines
    # and this box already; None: not yet.
    breaks: list[bool] | None = None

    def add(self, line: Line) -> None:
        self.breaks = None  # worked out for the lines before this one
        if not self.lines:
            self.x0, self.y0, self.x1, self.y1 = line.x0, line.y0, line.x1, line.y1
        else:
            # min() and max() written out (each is a call; a page adds every line twice):
            # the same values, ties and all (min keeps the first unless the second is less).
            gap = line.y0 - self.lines[-1].y1
            if gap > self.leading:
                self.leading = gap
            if line.x0 < self.x0:
                self.x0 = line.x0
            if line.y0 < self.y0:
                self.y0 = line.y0
            if line.x1 > self.x1:
                self.x1 = line.x1
            if line.y1 > self.y1:
                self.y1 = line.y1
        self.lines.append(line)

    @property
    def size(self) -> float:
        return self.lines[0].size if self.lines else 0.0

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)


def _next_heading(last: Line, line: Line, gap: float, height: float, lines: list[Line]) -> bool:
    """Whether bold ``line`` under bold ``last`` starts a heading of its own."""
    font, other = _font(last), _font(line)
    if font and other and font != other:
        return True
    if abs(last.size - line.size) > _HEADING_SIZE_STEP * max(last.size, line.size):
        return True  # a title over its subtitle ("... Statements of Income" / "Verizon Inc.")
    if gap <= _HEADING_GAP * height:
        return False
    # The right edge of the text in the column: the lines overlapping ``last`` across.
    edge = max((o.x1 for o in lines if o.x0 < last.x1 and o.x1 > last.x0), default=last.x1)
    first = line.words[0]
    return edge - last.x1 > (first.x1 - first.x0) + max(line.size, 1.0)


def _font(line: Line) -> str:
    """The font most of the line's characters are set in (a bullet's symbol font aside)."""
    weights: dict[str, int] = {}
    for w in line.words:
        weights[w.font] = weights.get(w.font, 0) + len(w.text)
    return max(weights, key=weights.__getitem__)


def _opens(block: TextBlock, em: float) -> bool:
    """The block's last line opens a paragraph: it is the block's first, or the line above
    it ended short of the edge, or it starts left of that line (the next entry of a list
    set with hanging indents)."""
    if len(block.lines) < 2:
        return True
    above, last = block.lines[-2], block.lines[-1]
    return block.x1 - above.x1 > 4 * em or above.x0 - last.x0 > 0.8 * em


def _centred_under(last: Line, line: Line, em: float) -> bool:
    """``line`` is as far in from ``last``'s right end as from its left, further than a
    hanging indent goes: centred lines (a title page, an address), each its own."""
    inset = line.x0 - last.x0
    return inset > 2 * em and abs(inset - (last.x1 - line.x1)) < em


def _hangs_under(last: Line, line: Line, em: float) -> bool:
    """``line`` starts under the text after ``last``'s list marker: the item's second line,
    not a paragraph's indented first."""
    text_x0 = item_text_x0(last)
    if text_x0 is None or len(last.words[0].text) > 4:
        return False  # (a bullet run into its first word leaves no text edge to hang from)
    return abs(line.x0 - text_x0) <= em


def make_blocks(lines: list[Line]) -> list[TextBlock]:
    """Lines stacked into blocks: close below each other, overlapping, of one size and
    weight (a bold line above regular ones is a heading, not the paragraph's first line)."""
    blocks: list[TextBlock] = []
    open_blocks: list[TextBlock] = []
    for line in sorted(lines, key=lambda ln: (ln.y0, ln.x0)):
        height = max(line.y1 - line.y0, 1.0)
        target = None
        still_open = []
        for block in open_blocks:
            last = block.lines[-1]
            gap = line.y0 - last.y1
            if gap > _LEADING * height + 2.0:
                continue  # too far above: closed for good (lines come top-down)
            still_open.append(block)
            if target is None and _continues(block, last, line, gap, height, lines):
                target = block
        open_blocks = still_open
        if target is None:
            target = TextBlock()
            blocks.append(target)
            open_blocks.append(target)
        target.add(line)
    return blocks


def _continues(
    block: TextBlock, last: Line, line: Line, gap: float, height: float, lines: list[Line]
) -> bool:
    if gap < -0.5 * height:
        return False  # beside it, not below
    if len(block.lines) > 1 and gap > block.leading + 0.3 * height:
        # More space than between any two of its lines so far: the next paragraph or a
        # heading (the widest gap, not the last: a superscript only narrows a gap).
        return False
    if line.x0 > last.x1 or line.x1 < last.x0:
        return False
    if last.x0 - line.x0 > max(8 * max(line.size, 1.0), (line.x1 - line.x0) / 3):
        # A paragraph's lines start at its left edge (the first one indented a little):
        # a line set far right of the next one's start is not one of its lines ("Table
        # of Contents" right-aligned above a filing page's text, a date above a letter).
        return False
    big, small = max(last.size, line.size), max(min(last.size, line.size), 0.1)
    if big / small > _SIZE_RATIO:
        return False
    em = max(line.size, 1.0)
    if len(line.text) <= 12 and line.x0 - block.x0 > 4 * em and page_number(line.text):
        # A lone number set in from the text's edge, a line below its last: the page's
        # number, printed where the text ends (filings rendered from HTML), not a line of it.
        return False
    if len(block.lines) == 1 and len(last.text) <= 4 and page_number(last.text):
        if page_number(line.text) is None:
            # A lone number over text: a book's page number in its top corner, not the
            # first line of the paragraph under it.
            return False
    # Regular text after a bold line is the body under a heading; a bold line after
    # regular text carries on only a paragraph whose last line ran to its right edge (a
    # bold phrase inside it), not one that had ended.
    if last.bold != line.bold and (last.bold or block.x1 - last.x1 > 4 * em):
        return False
    if line.bold:
        # A heading's second line may hang indented under its text; but a heading wraps
        # in its own font and at its column's edge: another font, or a line set apart
        # below one that left room for its first word, is the next heading.
        if last.bold and _next_heading(last, line, gap, height, lines):
            return False
        return True
    # A first-line indent under a line that ran to the right edge starts a paragraph;
    # under a list item's first line ("1.", "(a)", a bullet) it is the item's hanging
    # indent. So it is under a paragraph's first line (the block's, or one after a line
    # that ended short): a paragraph set with a first-line indent has its first line
    # indented, not its second, and an entry of a reference list hangs its lines under
    # its first (where the entry ends, ``paragraphs.paragraphs`` cuts); centred lines aside.
    width = block.x1 - block.x0
    # (The measures first: most lines are not indented, and the label and list tests are
    # regular expressions.)
    indented = (
        width > 20 * em
        and line.x0 - block.x0 > 0.8 * em
        and line.x0 - last.x0 > 0.8 * em
        and block.x1 - last.x1 < 2 * em
        and (not _opens(block, em) or _centred_under(last, line, em))
        and not is_label(block.lines[0].words[0].text)
        and not _hangs_under(last, line, em)
    )
    return not indented
