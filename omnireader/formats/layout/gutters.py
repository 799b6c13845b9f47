"""Column gutters: the vertical strips of a page that its text columns leave empty.

Lines are runs of words split at wide gaps (``blocks.make_lines``), but the gutter of a
two-column paper is often no wider than the widest gap inside a justified line (ACL's
is 1.5 em): read by gaps alone, the two columns zip into one line each, and the page
interleaves line by line. The gutter shows itself on the whole page instead: a strip
next to no word, with a fair share of the text on either side of it. Full-width titles,
figures and captions cross it in places; they are few, so the strip stays nearly empty.
"""

from __future__ import annotations

from omnireader.formats.layout.model import Word

__all__ = ["find_gutters", "splits_at_gutter"]

# A gutter lies in the middle of the page (not a margin note's edge) ...
_INNER = (0.2, 0.8)
# ... is at least this wide (points) ...
_MIN_WIDTH = 6.0
# ... has at most this share of a column's ink across it (full-width lines cross it) ...
_MAX_CROSSING = 0.12
# ... and has this share of the page's text on each side.
_MIN_SIDE = 0.2
#: A gap inside a line splits it at a gutter only when it is wider than this (em): the
#: spaces of a full-width title that happen to straddle the gutter do not.
SPLIT_EM = 0.8
# Pages with fewer words than this have no columns to find.
_MIN_WORDS = 40


def find_gutters(words: list[Word], width: float) -> list[float]:
    """The x of each column gutter of the page, left to right (none on most pages)."""
    if len(words) < _MIN_WORDS or width <= 0:
        return []
    bins = int(width) + 2
    diff = [0.0] * (bins + 1)
    mass = 0.0
    for w in words:
        lo, hi = int(max(w.x0, 0.0)), int(min(w.x1, width)) + 1
        if hi <= lo:
            continue
        ink = (w.y1 - w.y0) * len(w.text)
        per = ink / (hi - lo)
        diff[lo] += per
        diff[hi] -= per
        mass += ink
    if mass <= 0:
        return []
    cover: list[float] = []
    run = 0.0
    for d in diff[:bins]:
        run += d
        cover.append(run)
    # What a column's strip carries: the upper quartile of the strips that carry text.
    inked = sorted(c for c in cover if c > 0)
    if not inked:
        return []
    column = inked[(3 * len(inked)) // 4]
    limit = _MAX_CROSSING * column
    lo_x, hi_x = int(width * _INNER[0]), int(width * _INNER[1])
    prefix = [0.0]
    for c in cover:
        prefix.append(prefix[-1] + c)
    out: list[float] = []
    x = lo_x
    while x < hi_x:
        if cover[x] > limit:
            x += 1
            continue
        end = x
        while end + 1 < len(cover) and cover[end + 1] <= limit:
            end += 1
        if end - x + 1 >= _MIN_WIDTH:
            left, right = prefix[x], prefix[-1] - prefix[end + 1]
            total = prefix[-1]
            if left >= _MIN_SIDE * total and right >= _MIN_SIDE * total:
                # The strip's emptiest point: where a crossing line is least likely.
                best = min(range(x, end + 1), key=lambda i: (cover[i], abs(i - (x + end) / 2)))
                out.append(best + 0.5)
        x = end + 1
    return out


def splits_at_gutter(prev: Word, word: Word, gutters: list[float]) -> bool:
    """Whether the gap between ``prev`` and ``word`` on one line is a column gutter."""
    gap = word.x0 - prev.x1
    if gap <= SPLIT_EM * max(prev.size, word.size, 1.0):
        return False
    return any(prev.x1 <= g <= word.x0 for g in gutters)
