"""A justified line whose word spaces were stretched wide, put back together.

A line is cut where a gap between two words is wider than 1.6 em (``lines.make_lines``):
that is how two columns side by side come apart. A narrow justified column stretches the
spaces of a line with few long words past that ("These    changes    in    compliance" in a
column 17 em wide, every space 1.8 em): the line fell into pieces that the blocks took for
columns, and the paragraph read "These" / "requirements occur …" / "changes in compliance".

The rule: pieces of one row, in one size, go back together when every space between their
words, the wide ones included, is the same width (justification stretches them alike; a
gutter is wider than the spaces beside it) and no wider than :data:`_MAX_SPACE_EM`, the
words are mostly words (not a table's figures), there are at least two, and a line of the same
size on the row above or below (within :data:`_NEAR_LINES` line heights) runs across each
cut, its words over half of it (no word enters a gutter).
"""

from __future__ import annotations

from collections.abc import Callable

from omnireader.formats.layout.model import Line, Word

__all__ = ["stretched_joined"]

# Spaces stretched alike: the widest at most this much wider than the narrowest (a share,
# plus half a point for the rounding of glyph positions).
_EVEN = 0.08
_EVEN_PT = 0.5
# The row above or below: its centre within this many line heights.
_NEAR_LINES = 1.8
_SAME_SIZE_EM = 0.1
# Wider spaces than this (in em) are no justification: a table's evenly spaced columns.
_MAX_SPACE_EM = 4.0


def stretched_joined(lines: list[Line], make_line: Callable[[list[Word]], Line]) -> list[Line]:
    """``lines`` (in row order, each row left to right) with each justified line cut at its
    stretched spaces made one line again."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        end = i + 1  # the pieces of one row in one size: lines[i:end]
        # _same_row's cheapest test first, inline: the next line most often starts left of
        # this one's end (the next row).
        while (
            end < len(lines)
            and lines[end].x0 > lines[end - 1].x1
            and _same_row(lines[end - 1], lines[end])
        ):
            end += 1
        if end - i > 1 and _stretched(lines, i, end):
            out.append(make_line([w for line in lines[i:end] for w in line.words]))
        else:
            out.extend(lines[i:end])
        i = end
    return out


def _same_row(a: Line, b: Line) -> bool:
    em = max(a.size, 1.0)
    return (
        abs(a.size - b.size) <= _SAME_SIZE_EM * em
        and b.x0 > a.x1
        and abs((a.y0 + a.y1) - (b.y0 + b.y1)) <= 0.5 * em
    )


def _stretched(lines: list[Line], start: int, end: int) -> bool:
    pieces = lines[start:end]
    words = [w for line in pieces for w in line.words]
    if len(words) < 3:
        return False
    gaps = [right.x0 - left.x1 for left, right in zip(words, words[1:])]
    low, high = min(gaps), max(gaps)
    first = pieces[0]
    if low <= 0 or high - low > _EVEN * high + _EVEN_PT or high > _MAX_SPACE_EM * first.size:
        return False
    if sum(any(c.isalpha() for c in w.text) for w in words) * 2 < len(words):
        return False  # figures ("2021  2020  2019"): a table's column heads
    height = max(first.y1 - first.y0, 1.0)
    centre = (first.y0 + first.y1) / 2
    em = max(first.size, 1.0)
    # The rows just above and below (lines are in row order: look a few dozen either way).
    near = [
        other
        for other in lines[max(0, start - 40) : end + 40]
        if abs(other.size - first.size) <= _SAME_SIZE_EM * em
        and 0 < abs((other.y0 + other.y1) / 2 - centre) <= _NEAR_LINES * height
    ]
    # Each cut spanned by one of those lines, its words over half the cut: a gutter is a
    # strip no word of the rows around it enters.
    return all(any(_spans(other, a.x1, b.x0) for other in near) for a, b in zip(pieces, pieces[1:]))


def _spans(line: Line, left: float, right: float) -> bool:
    if line.x0 > left or line.x1 < right:
        return False
    covered = sum(max(0.0, min(w.x1, right) - max(w.x0, left)) for w in line.words)
    return covered * 2 >= right - left
