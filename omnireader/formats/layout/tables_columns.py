"""Text columns of a page, so that a borderless table in one column is not read across
the lines of its neighbour.

Lines are grouped by height across the whole page; on a two-column page a table row in the
right column would take the prose line beside it as a cell. A gutter no word crosses, with
running text on both sides, splits the page into columns first. A page of tables alone has
gutters too, but no prose beside them, so it stays whole.
"""

from __future__ import annotations

from operator import itemgetter
from statistics import median

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.tables_regions import run_words
from omnireader.formats.layout.tables_text import em, group_lines, runs

__all__ = ["text_columns"]

_PROSE_RUN = 5  # words (with a letter or digit) in a run that reads as running text
_PROSE_SHARE = 0.5  # share of a side's runs that are running text
_MIN_LINES = 5  # lines each side needs before it counts as a text column
_DEPTH = 2  # a page splits at most twice (three columns)
_GAPS = 3  # the widest gaps tried at each split (each try groups the words into lines)
_FIRST = itemgetter(0)


def text_columns(words: list[Word], depth: int = 0) -> list[list[Word]]:
    """``words`` split at the page's text-column gutters (one group when there are none)."""
    if depth >= _DEPTH or len(words) < 2 * _MIN_LINES:
        return [words]
    size = median(map(em, words))
    left_edge = min(w.x0 for w in words)
    right_edge = max(w.x1 for w in words)
    span = right_edge - left_edge
    # Gaps in the words' projection on the x axis, widest first, in the middle half.
    gaps: list[tuple[float, float]] = []
    reach = left_edge
    # (x0, x1) pairs sorted by x0 alone (stable, as the words were): no attribute look-up
    # or max() call a word in the loop.
    for x0, x1 in sorted([(w.x0, w.x1) for w in words], key=_FIRST):
        if x0 - reach >= size:
            gaps.append((reach, x0))
        if x1 > reach:  # max(reach, x1): reach kept on a tie or a NaN
            reach = x1
    gaps = [
        g for g in gaps if left_edge + 0.25 * span <= (g[0] + g[1]) / 2 <= right_edge - 0.25 * span
    ]
    centres = [(w.x0 + w.x1) / 2 for w in words]  # Word.cx, once for every gap tried
    for g0, g1 in sorted(gaps, key=lambda g: g[0] - g[1])[:_GAPS]:
        middle = (g0 + g1) / 2
        left = [w for w, cx in zip(words, centres) if cx < middle]
        right = [w for w, cx in zip(words, centres) if cx >= middle]
        if _prose(left) and _prose(right):
            return text_columns(left, depth + 1) + text_columns(right, depth + 1)
    return [words]


def _prose(words: list[Word]) -> bool:
    lines = group_lines(words)
    if len(lines) < _MIN_LINES:
        return False
    found = [run for line in lines for run in runs(line)]
    long = sum(1 for run in found if run_words(run) >= _PROSE_RUN)
    return long >= _PROSE_SHARE * len(found)
