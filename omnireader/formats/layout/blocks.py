"""Words → lines → blocks (their reading order is ``order.py``).

A *line* here is a run of words on one baseline with no wide gap inside: two columns side
by side give two lines at the same height, which is what lets columns be found at all.
Lines stack into a block while they are close below each other, overlap horizontally and
share a font size and weight; a first-line indent under a full line starts a new block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.bidi import line_text
from omnireader.formats.layout.furniture import page_number
from omnireader.formats.layout.gutters import find_gutters, gutter_at
from omnireader.formats.layout.marks import marks_joined
from omnireader.formats.layout.model import Line, Word

__all__ = [
    "BULLETS",
    "TextBlock",
    "item_marker",
    "item_text_x0",
    "is_label",
    "make_blocks",
    "make_line",
    "make_lines",
]

#: The glyphs a bulleted list item starts with (symbol fonts' private-use bullets too).
BULLETS = "\u2022\u25cf\u25aa\u25a0\u25e6\u2023\u2043\u00b7\u27a2\uf0b7\uf0a7\uf0d8\uf076"
# A numbered item's label: "1." "2)" "(a)" "b." "iv)" (a capital "A." is too often an initial).
_NUMBERED = re.compile(
    r"^(?:\d{1,2}[.)]|[a-z][.)]|[ivx]{1,4}[.)]|\((?:\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})\))$"
)

# Inside a line, a gap wider than this (in em of the line's size) separates two lines.
_SPLIT_EM = 1.6
# A label ("ITEM 1A.", "1.2", "(a)", a bullet) and the text a tab away are one line.
_LABEL_GAP_EM = 8.0
_LABEL = re.compile(
    r"^(?:(?:item|part|section|article|chapter|note|schedule)\s+)?"
    r"(?:\.?\d{1,3}(?:\.\d{1,3}){0,3}[a-z]?|[A-Z]|[IVXLC]{1,6}|\([a-z0-9]{1,3}\))[.):]?$"
    r"|^[\u2022\u25cf\u25aa\u25e6\u2013\u2014\u00b7\u2043\uf0b7\-*\u2610-\u2612]$",  # ☐☑☒ too
    re.IGNORECASE,
)
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

    def add(self, line: Line) -> None:
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


_X0 = attrgetter("x0")


def make_lines(words: list[Word], width: float = 0.0, compiled: bool = True) -> list[Line]:
    """Words grouped into lines, top to bottom, each split at wide gaps and, given the
    page's ``width``, at its column gutters (``gutters.py``). Every word of a page passes
    here: the compiled loops (``_loops.c``) run it where they are built and ``compiled`` is
    true (tests compare the two)."""
    if not words:
        return []
    bands = pdfium_calls.compiled("bands", compiled)
    split = pdfium_calls.compiled("split_rows", compiled)
    rows = bands(words) if bands is not None and split is not None else None
    if rows is None:
        split = None  # not built, or a coordinate that is no number: Python decides
        rows = _bands(words)
    gutters = find_gutters(rows, width) if width else []
    if split is not None:
        between = (lambda prev, word: gutter_at(gutters, prev, word)) if gutters else None
        lines: list[Line] = split(
            rows, _SPLIT_EM, _LABEL_GAP_EM, Line, _is_label, between, make_line
        )
        return marks_joined(_bullets_joined(lines), make_line)
    lines = []
    for row in rows:
        run = [row[0]]
        for word in row[1:]:
            prev = run[-1]
            em = max(prev.size, word.size, 1.0)
            wide = word.x0 - prev.x1 > _SPLIT_EM * em
            if wide and word.x0 - prev.x1 <= _LABEL_GAP_EM * em and _is_label(run):
                run.append(word)  # "ITEM 1A." / "1.2" / "•", a tab, then its text
                continue
            if (
                wide
                or abs(word.size - prev.size) > 0.3 * em
                or (gutters and gutter_at(gutters, prev, word))
            ):
                lines.append(make_line(run))
                run = [word]
            else:
                run.append(word)
        lines.append(make_line(run))
    return marks_joined(_bullets_joined(lines), make_line)


def _bullets_joined(lines: list[Line]) -> list[Line]:
    """Each bullet set as a line of its own joined to the text a tab to its right: a symbol
    font's bullet glyph ("\uf0b7") often has a box of a few points, so its size differs from
    its text's and the split by size cut it off (the bullets then gathered as a column of
    bare lines after the list)."""
    out: list[Line] = []
    for line in lines:
        bullet = out[-1] if out else None
        if (
            bullet is not None
            and len(bullet.words) == 1
            and bullet.text in BULLETS
            and 0 <= line.x0 - bullet.x1 <= _LABEL_GAP_EM * max(line.size, 1.0)
            and line.y0 <= (bullet.y0 + bullet.y1) / 2 <= line.y1
        ):
            out[-1] = make_line([*bullet.words, *line.words])
        else:
            out.append(line)
    return out


def _bands(words: list[Word]) -> list[list[Word]]:
    """The words in rows, top to bottom, each left to right: a word joins the row while
    (twice) its centre is inside the span of the row's first word."""
    # Twice the centre, to spare a division and a property call per word.
    ordered = sorted(words, key=lambda w: (w.y0 + w.y1, w.x0))
    rows: list[list[Word]] = []
    band_top = band_bottom = -1e9
    for word in ordered:
        if rows and band_top <= word.y0 + word.y1 <= band_bottom:
            rows[-1].append(word)
        else:
            rows.append([word])
            band_top, band_bottom = 2 * word.y0, 2 * word.y1
    for row in rows:
        row.sort(key=_X0)
    return rows


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


def item_marker(line: Line) -> str | None:
    """``"bullet"`` when ``line`` opens a bulleted list item, ``"number"`` a numbered one or
    one led by a dash (those also start lines that merely wrap), else None."""
    text = line.text
    if not text:
        return None
    if text[0] in BULLETS:
        return "bullet"
    words = line.words
    if len(words) > 1 and (
        words[0].text in ("-", "\u2013", "\u2014") or _NUMBERED.match(words[0].text)
    ):
        return "number"
    return None


def item_text_x0(line: Line) -> float | None:
    """Where the text after ``line``'s list marker starts, when it opens a list item."""
    words = line.words
    if len(words) < 2 or item_marker(line) is None:
        return None
    return words[1].x0


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


def _is_label(run: list[Word]) -> bool:
    """A run that is only a number, a bullet or "Item 7." — what a tab follows."""
    return len(run) <= 2 and is_label(" ".join(w.text for w in run))


def is_label(text: str) -> bool:
    """``text`` is a list item's or a section's label: "1.", ".1", "(a)", "Item 7.", "•"."""
    return bool(_LABEL.match(text))


def make_line(words: list[Word]) -> Line:
    """A line of ``words`` (left to right): its box, main size, weight and text."""
    # The size of most of its characters: one big drop cap or superscript does not decide.
    weights: dict[float, int] = {}
    for w in words:
        weights[w.size] = weights.get(w.size, 0) + len(w.text)
    size = max(weights, key=weights.__getitem__)
    bold_chars = sum(len(w.text) for w in words if w.bold)
    return Line(
        words,
        min([w.x0 for w in words]),
        min([w.y0 for w in words]),
        max([w.x1 for w in words]),
        max([w.y1 for w in words]),
        size,
        bold_chars * 2 > sum(weights.values()),
        line_text(words),
    )


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
        and not _is_label(block.lines[0].words[:1])
        and not _hangs_under(last, line, em)
    )
    return not indented
