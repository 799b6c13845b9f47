"""Page numbers printed as a column apart, given back to the contents entries they end.

Filings and many reports set a contents page in two columns: the entries, and far right of
them each entry's page number on the entry's baseline, with no dot leader between. Read by
lines, the numbers made a block of their own ("3 6 15 16 16 16") below the entries, and the
entries ran together where a short one sat over a long one ("Item 1B. Unresolved Staff
Comments Item 2. Properties"). :func:`pair_page_numbers` puts each number back at the end of
the entry line on its baseline, as a dotted leader's entry reads ("Item 1A. Risk Factors 6"),
and each entry stands as a block of its own (:mod:`.contents` then makes them list items).

Only a column that looks like page numbers is paired: at least three lines that are each one
page number (arabic under 1000, or lower-case roman), going up down each block of them, most of them
on the baseline of a line to their left, each line taking one. A column of figures in a table (a year, an amount with a
comma, numbers going down) is left alone.
"""

from __future__ import annotations

import re

from omnireader.formats.layout.blocks import TextBlock
from omnireader.formats.layout.model import Line

__all__ = ["pair_page_numbers"]

# Front matter's roman numbers are lower case; a capital "X" in a column is a check mark.
_PAGE = re.compile(r"^(?:\d{1,3}|[ivxlc]{1,6})$")
# At least this many numbers make a column of pages, and this share of them must pair.
_MIN_NUMBERS = 3
_PAIRED_SHARE = 0.8
# A number and its entry share a baseline within this share of the number's size.
_BASELINE = 0.5
# An entry's continuation line is indented by at least this many em under its first line.
_HANGING_EM = 0.5


def pair_page_numbers(blocks: list[TextBlock]) -> list[TextBlock]:
    """``blocks`` with a contents page's column of page numbers joined to its entries (see
    the module docstring); other pages come back as they are."""
    columns = [b for b in blocks if b.table is None and _only_numbers(b)]
    numbers = [line for b in columns for line in b.lines]
    if len(numbers) < _MIN_NUMBERS or not all(map(_going_up, columns)):
        return blocks
    in_columns = {id(b) for b in columns}
    entries = [b for b in blocks if b.table is None and id(b) not in in_columns]
    pairs: dict[int, Line] = {}
    for number in numbers:
        line = _entry_line(number, entries)
        if line is not None and id(line) not in pairs:
            pairs[id(line)] = number
    if len(pairs) < _PAIRED_SHARE * len(numbers):
        return blocks
    paired = {id(n) for n in pairs.values()}
    out: list[TextBlock] = []
    for block in blocks:
        if id(block) in in_columns:
            left = [ln for ln in block.lines if id(ln) not in paired]
            if left:
                out.append(_block(left))
        elif block.table is None and any(id(ln) in pairs for ln in block.lines):
            out.extend(_entries(block, pairs))
        else:
            out.append(block)
    return out


def _only_numbers(block: TextBlock) -> bool:
    return bool(block.lines) and all(_PAGE.match(ln.text) for ln in block.lines)


def _going_up(column: TextBlock) -> bool:
    """A block of page numbers never goes down (a contents page may hold two lists)."""
    pages = [int(ln.text) for ln in column.lines if ln.text.isdigit()]
    return pages == sorted(pages)


def _entry_line(number: Line, blocks: list[TextBlock]) -> Line | None:
    """The line left of ``number``, at least an em away, whose baseline is nearest to its
    own and within half a line: some contents set their numbers a little higher (a table
    cell's top), never a whole line off."""
    em = max(number.size, 1.0)
    best: Line | None = None
    best_off = _BASELINE * em
    for block in blocks:
        if block.x0 >= number.x0 or block.y0 > number.y1 + em or block.y1 < number.y0 - em:
            continue
        for line in block.lines:
            off = abs(line.y1 - number.y1)
            if line.x1 <= number.x0 - em and off <= best_off:
                best, best_off = line, off
    return best


def _entries(block: TextBlock, pairs: dict[int, Line]) -> list[TextBlock]:
    """``block`` cut after each line that ends in its page number; a line hanging under an
    entry that is already closed continues that entry (its number sat on its first line)."""
    out: list[list[Line]] = []
    current: list[Line] = []
    closed = False  # the last entry in ``out`` took its number
    for line in block.lines:
        number = pairs.get(id(line))
        if number is None and not current and closed and _hangs(line, out[-1][0]):
            out[-1].append(line)
            continue
        current.append(_with_number(line, number) if number is not None else line)
        closed = number is not None
        if closed:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return [_block(lines) for lines in out]


def _hangs(line: Line, first: Line) -> bool:
    return line.x0 - first.x0 >= _HANGING_EM * max(first.size, 1.0)


def _with_number(line: Line, number: Line) -> Line:
    # The box stays the entry's own: its width, not the number's place, tells a wrapped
    # entry's first line from a short one (page.py's breaks).
    return Line(
        words=[*line.words, *number.words],
        x0=line.x0,
        y0=min(line.y0, number.y0),
        x1=line.x1,
        y1=max(line.y1, number.y1),
        size=line.size,
        bold=line.bold,
        text=f"{line.text} {number.text}",
    )


def _block(lines: list[Line]) -> TextBlock:
    block = TextBlock()
    for line in lines:
        block.add(line)
    return block
