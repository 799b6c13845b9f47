"""Column gutters: the vertical strips that a page's text columns leave empty.

Lines are runs of words split at wide gaps (``lines.make_lines``), but the gutter of a
two-column paper is often no wider than the widest gap inside a justified line (ACL's
is 1.5 em): read by gaps alone, the two columns zip into one line each and the page
interleaves line by line. A gutter shows itself over many rows instead: the same x falls
in a gap of row after row, no word crosses it, and there is a column's worth of text on
either side. Full-width titles, tables and figures above or below end its run; it is
found, and used, only over the rows it runs through.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Word

__all__ = ["Gutter", "find_gutters", "gutter_at"]

# Gaps narrower than this (em) are word spaces, and say nothing of columns.
_GAP_EM = 0.6
# A gutter stands in the middle of the page, not at a margin note's edge ...
_INNER = (0.15, 0.85)
# ... runs through at least this many rows with text on both sides ...
_MIN_ROWS = 5
# ... and has, in a typical one of them, this share of the page's width of text each side
# (a column of figures beside its labels is not a column of text).
_MIN_SIDE = 0.15
# Candidate positions are tried at this resolution (points).
_BIN = 2.0


@dataclass(slots=True, frozen=True)
class Gutter:
    """An empty strip at ``x``, running from row top ``y0`` to row bottom ``y1``."""

    x: float
    y0: float
    y1: float


def find_gutters(rows: list[list[Word]], width: float, compiled: bool = True) -> list[Gutter]:
    """The column gutters of a page whose words are grouped in ``rows`` (top to bottom,
    each sorted left to right). Every gap of a page is voted on: the compiled vote
    (``_loops.gutter_votes``) runs where it is built and ``compiled`` is true."""
    if len(rows) < _MIN_ROWS or width <= 0:
        return []
    lo, hi = width * _INNER[0], width * _INNER[1]
    bins = int(width / _BIN) + 2
    vote = pdfium_calls.compiled("gutter_votes", compiled)
    counts = (
        vote(rows, lo, hi, bins, _GAP_EM, _BIN, _MIN_ROWS)
        if vote is not None
        else _votes(rows, lo, hi, bins)
    )
    if not counts:
        return []  # most pages: too few wide gaps in the middle to line up
    out: list[Gutter] = []
    for x in _peaks(counts):
        out.extend(_runs(rows, x, width))
    return out


def _votes(rows: list[list[Word]], lo: float, hi: float, bins: int) -> list[int]:
    """For each bin, how many rows' wide gaps cover it; empty when fewer than
    :data:`_MIN_ROWS` gaps voted."""
    votes = [0] * (bins + 1)
    cast = 0
    for row in rows:
        prev = row[0]
        for word in row[1:]:
            # max(prev.size, word.size, 1.0) written out: every word of a page passes here.
            size = word.size if word.size > prev.size else prev.size
            if word.x0 - prev.x1 > _GAP_EM * (1.0 if 1.0 > size else size):
                a, b = max(prev.x1, lo), min(word.x0, hi)
                if b > a:
                    votes[int(a / _BIN) + 1] += 1
                    votes[int(b / _BIN)] -= 1
                    cast += 1
            prev = word
    if cast < _MIN_ROWS:
        return []
    counts, run = [], 0
    for v in votes[:bins]:
        run += v
        counts.append(run)
    return counts


def _peaks(counts: list[int]) -> list[float]:
    """The middle of each stretch of bins that enough rows' gaps share."""
    out: list[float] = []
    if max(counts) < _MIN_ROWS:
        return out
    i = 0
    while i < len(counts):
        if counts[i] < _MIN_ROWS:
            i += 1
            continue
        j, top = i, counts[i]
        while j + 1 < len(counts) and counts[j + 1] >= _MIN_ROWS:
            j += 1
            top = max(top, counts[j])
        best = [k for k in range(i, j + 1) if counts[k] == top]
        middle = (best[0] + best[-1] + 1) / 2
        if counts[int(middle)] != top:
            # The middle fell in a dip between runs at the top count: a few rows' gaps
            # are narrower there (a footnote's number standing out of its column), and
            # it would cross them. The longest run at the top count is the gutter.
            middle = _longest_run(best)
        out.append(middle * _BIN)
        i = j + 1
    return out


def _longest_run(best: list[int]) -> float:
    """The middle (in bins) of the longest run of consecutive bins among ``best``."""
    start = length = 0
    k = 0
    while k < len(best):
        end = k
        while end + 1 < len(best) and best[end + 1] == best[end] + 1:
            end += 1
        if end - k + 1 > length:
            start, length = best[k], end - k + 1
        k = end + 1
    return start + length / 2


def _runs(rows: list[list[Word]], x: float, width: float) -> list[Gutter]:
    """The vertical stretches over which no word crosses ``x`` and enough rows hold text
    on both sides of it, each from the first to the last row where ``x`` is in a wide gap:
    past those, ``x`` may fall in a word space of a paragraph's line above or below, which
    the gutter would cut in two."""
    out: list[Gutter] = []
    start = first = last = -1
    split: list[tuple[float, float]] = []  # (left span, right span) of the rows with both

    def close() -> None:
        if len(split) >= _MIN_ROWS and first >= 0:
            lefts = sorted(s[0] for s in split)
            rights = sorted(s[1] for s in split)
            mid = len(split) // 2
            if min(lefts[mid], rights[mid]) >= _MIN_SIDE * width:
                y0 = min(w.y0 for w in rows[first])
                y1 = max(w.y1 for w in rows[last])
                out.append(Gutter(x, y0, y1))

    for i, row in enumerate(rows):
        k = bisect_left([w.x1 for w in row], x)
        crossing = k < len(row) and row[k].x0 <= x
        if crossing:
            if start >= 0:
                close()
            start = first = last = -1
            split = []
            continue
        if start < 0:
            start = i
        if 0 < k < len(row):
            a, b = row[k - 1], row[k]
            split.append((a.x1 - row[0].x0, row[-1].x1 - b.x0))
            if b.x0 - a.x1 > _GAP_EM * max(a.size, b.size, 1.0):
                first = i if first < 0 else first
                last = i
    if start >= 0:
        close()
    return out


def gutter_at(gutters: list[Gutter], prev: Word, word: Word) -> bool:
    """Whether a gutter runs between ``prev`` and ``word``, neighbours on one row."""
    cy = (word.y0 + word.y1) * 0.5
    return any(prev.x1 <= g.x <= word.x0 and g.y0 <= cy <= g.y1 for g in gutters)
