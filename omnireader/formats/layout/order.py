"""Blocks in reading order: columns left to right, each top to bottom; full-width blocks
in place.

A recursive XY cut. Columns are tried first: a gutter no block crosses, with text as wide
as a fair share of the band on both sides (a column of figures beside its labels is no
column of text). But a band gap wider than that gutter cuts first, so a note beside a
table and the text under both are two bands, unless text in every column runs on past
the gap (``_regroup``). Without columns the blocks are cut into bands top to bottom;
consecutive bands that share a gutter are read as one multi-column band, so paragraph
gaps that happen to line up across two columns do not interleave them, and a row of
column heads joins the columns right under it (``_heads``).
"""

from __future__ import annotations

from omnireader.formats.layout.blocks import TextBlock

__all__ = ["reading_order"]

# A gutter is at least this wide (points), and each side holds a block this share of the
# band's width, so a column of numbers beside its labels is not read as a column of text.
_MIN_GUTTER = 7.0
_MIN_COLUMN_SHARE = 0.18
_MAX_DEPTH = 24
# A band whose largest text is below this share of the largest in the band above it is
# notes under the columns (``_regroup``).
_NOTES = 0.95
# Texts starting within this share of a line of each other start level (``_level``).
_LEVEL = 0.3
# A band gap this many times the text's size cuts however wide the gutter (``_regroup``).
_BAND_LINES = 3.0


def reading_order(blocks: list[TextBlock], width: float) -> list[TextBlock]:
    """``blocks`` in reading order: columns left to right, each top to bottom; full-width
    blocks in place."""
    return _order(blocks, width, 0)


def _order(blocks: list[TextBlock], width: float, depth: int) -> list[TextBlock]:
    if len(blocks) <= 1 or depth > _MAX_DEPTH:
        return sorted(blocks, key=lambda b: (b.y0, b.x0))
    columns, gutter = _columns(blocks)
    bands = _bands(blocks)
    if len(columns) > 1:
        # A band gap wider than the gutter cuts first: a note beside a table and the text
        # under both are two bands, not a column that runs to the page's foot.
        wide = _regroup(bands, gutter, _splits(columns))
        if len(wide) > 1:
            return [b for group in wide for b in _order(group, width, depth + 1)]
        return [b for column in columns for b in _order(column, width, depth + 1)]
    if len(bands) == 1:
        return sorted(blocks, key=lambda b: (b.y0, b.x0))
    merged = _merge_bands(bands)
    if len(merged) == 1:
        # Every band shares a gutter, yet the whole has none that _columns accepts (a
        # side too narrow overall): read the bands in turn.
        merged = bands
    return [b for band in merged for b in _order(band, width, depth + 1)]


def _gaps(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """The empty stretches (wider than ``min_gap``) between the union of ``spans``."""
    spans = sorted(spans)
    out = []
    reach = spans[0][1]
    for start, end in spans[1:]:
        if start - reach > min_gap:
            out.append((reach, start))
        reach = max(reach, end)
    return out


def _regroup(
    bands: list[list[TextBlock]], gutter: float, splits: list[tuple[float, float]]
) -> list[list[TextBlock]]:
    """Bands joined back together except across gaps wider than ``gutter``, unless the
    bands on both sides of the gap hold text in every column (at each of ``splits``): the
    columns go on past a gap that happens to run across both (a figure's caption ending
    in one, a footnote's rule in the other). Notes set smaller than all the text above
    them are the page's foot, read after its columns. A gap of three lines cuts too,
    however wide the gutter: a letterhead's two halves stand 60 pt apart, and the clause
    below the letterhead is no part of its left half."""
    groups: list[list[TextBlock]] = []
    bottom = None
    above: list[TextBlock] = []
    for band in bands:
        top = min(b.y0 for b in band)
        size = max(b.size for b in (*band, *above))
        if groups and bottom is not None and top - bottom <= min(gutter, _BAND_LINES * size):
            groups[-1].extend(band)
        elif (
            groups
            and _in_every_column(above, splits)
            and _in_every_column(band, splits)
            and max(b.size for b in band) >= _NOTES * max(b.size for b in above)
            and not _level(band, splits)
        ):
            groups[-1].extend(band)
        else:
            groups.append(list(band))
        bottom = max(b.y1 for b in band) if bottom is None else max(bottom, *(b.y1 for b in band))
        above = band
    return groups


def _level(band: list[TextBlock], splits: list[tuple[float, float]]) -> bool:
    """Whether the columns' text in ``band`` starts level (within a third of a line): the
    next row of a table whose cells are set apart, not columns that run on."""
    tops = [min((b.y0 for b in column), default=0.0) for column in _by_column(band, splits)]
    return max(tops) - min(tops) <= _LEVEL * max(b.size for b in band)


def _splits(columns: list[list[TextBlock]]) -> list[tuple[float, float]]:
    """The gutters between consecutive columns: (left column's right edge, next's left)."""
    return [
        (max(b.x1 for b in left), min(b.x0 for b in right))
        for left, right in zip(columns, columns[1:])
    ]


def _in_every_column(band: list[TextBlock], splits: list[tuple[float, float]]) -> bool:
    """Whether ``band`` has a block in each column between ``splits``, and a paragraph in
    one of them: a row of one-line pieces (a title a gutter happens to run through) shows
    no columns going on."""
    if all(len(b.lines) == 1 for b in band):
        return False
    return all(_by_column(band, splits))


def _by_column(band: list[TextBlock], splits: list[tuple[float, float]]) -> list[list[TextBlock]]:
    """``band``'s blocks in each column between ``splits`` (a block across one: in none)."""
    edges = [float("-inf")] + [hi for _, hi in splits]
    ends = [lo for lo, _ in splits] + [float("inf")]
    return [
        [b for b in band if b.x0 >= edge - 0.1 and b.x1 <= end + 0.1]
        for edge, end in zip(edges, ends)
    ]


def _columns(blocks: list[TextBlock]) -> tuple[list[list[TextBlock]], float]:
    """The blocks in columns (left to right), and the narrowest gutter between them."""
    left = min(b.x0 for b in blocks)
    right = max(b.x1 for b in blocks)
    span = max(right - left, 1.0)
    gaps = _gaps([(blk.x0, blk.x1) for blk in blocks], _MIN_GUTTER)
    cuts = [(a + b) / 2 for a, b in gaps]
    if not cuts:
        return [blocks], 0.0
    groups: list[list[TextBlock]] = [[] for _ in range(len(cuts) + 1)]
    for block in blocks:
        groups[sum(1 for c in cuts if block.x0 > c)].append(block)
    # A column holds text as wide as a fair share of the band; narrower groups (numbers,
    # labels, marginal notes) join their left neighbour, so they stay with their rows.
    kept: list[list[TextBlock]] = []
    for group in groups:
        widest = max(b.x1 - b.x0 for b in group)
        if kept and widest < _MIN_COLUMN_SHARE * span:
            kept[-1].extend(group)
        else:
            kept.append(group)
    if len(kept) > 1 and max(b.x1 - b.x0 for b in kept[0]) < _MIN_COLUMN_SHARE * span:
        kept[1].extend(kept.pop(0))
    if len(kept) == 1:
        return kept, 0.0
    # The gutters left between kept columns: the gaps that lie between two of them.
    edges = [max(b.x1 for b in group) for group in kept[:-1]]
    widths = [hi - lo for lo, hi in gaps if any(abs(lo - e) < 0.5 for e in edges)]
    return kept, min(widths) if widths else _MIN_GUTTER


def _bands(blocks: list[TextBlock]) -> list[list[TextBlock]]:
    ordered = sorted(blocks, key=lambda b: b.y0)
    bands: list[list[TextBlock]] = [[ordered[0]]]
    reach = ordered[0].y1
    for block in ordered[1:]:
        if block.y0 >= reach - 0.5:
            bands.append([block])
        else:
            bands[-1].append(block)
        reach = max(reach, block.y1)
    return bands


def _merge_bands(bands: list[list[TextBlock]]) -> list[list[TextBlock]]:
    """Consecutive bands that are split into columns at a common gutter become one band;
    so do rows of column heads right above them (``_heads``)."""
    merged: list[list[TextBlock]] = []
    gutters: list[tuple[float, float] | None] = []
    for band in bands:
        own = _gutter(band)
        gutter = gutters[-1] if gutters else None
        if merged and gutter is not None and own is None and _within(band, gutter):
            merged[-1].extend(band)  # text in one column only: still those columns
            continue
        if merged and gutter is not None and own is not None:
            lo, hi = max(gutter[0], own[0]), min(gutter[1], own[1])
            if hi - lo > _MIN_GUTTER:
                merged[-1].extend(band)
                gutters[-1] = (lo, hi)
                continue
        band = list(band)
        if own is not None and _texts(band, own):
            while merged and _heads(merged[-1], own, band):
                band[:0] = merged.pop()
                gutters.pop()
        merged.append(band)
        gutters.append(own)
    return merged


def _within(band: list[TextBlock], gutter: tuple[float, float]) -> bool:
    """No block of ``band`` crosses ``gutter``."""
    return all(b.x1 <= gutter[0] + 0.1 or b.x0 >= gutter[1] - 0.1 for b in band)


def _heads(band: list[TextBlock], gutter: tuple[float, float], texts: list[TextBlock]) -> bool:
    """``band`` is a row of column heads for the columns of ``texts`` split at ``gutter``:
    one-line blocks on both sides of it, none across, most of them (two at least) starting
    where a paragraph below starts (a slide's three titles over their three texts, each
    too short to show the gutter by itself). Read with the columns, each head tops its own
    text instead of the heads running together as one line. Values centred over their
    labels (a form's "Delaware" over "(State of incorporation)") are no heads."""
    if not (
        all(len(b.lines) == 1 for b in band)
        and _within(band, gutter)
        and any(b.x1 <= gutter[0] + 0.1 for b in band)
        and any(b.x0 >= gutter[1] - 0.1 for b in band)
    ):
        return False
    starts = [t.x0 for t in texts if len(t.lines) > 1]
    aligned = sum(any(abs(b.x0 - x) <= max(b.size, 1.0) for x in starts) for b in band)
    return aligned >= 2 and 2 * aligned >= len(band)


def _texts(band: list[TextBlock], gutter: tuple[float, float]) -> bool:
    """``band`` holds a paragraph (two lines or more) on both sides of ``gutter``: columns
    of text that heads may top, not a form's row of one-line labels under its values."""
    return any(len(b.lines) > 1 and b.x1 <= gutter[0] + 0.1 for b in band) and any(
        len(b.lines) > 1 and b.x0 >= gutter[1] - 0.1 for b in band
    )


def _gutter(band: list[TextBlock]) -> tuple[float, float] | None:
    """The band's widest gutter with wide text on both sides, if any."""
    if len(band) < 2:
        return None
    left = min(b.x0 for b in band)
    right = max(b.x1 for b in band)
    span = max(right - left, 1.0)
    best = None
    for lo, hi in _gaps([(b.x0, b.x1) for b in band], _MIN_GUTTER):
        before = max((b.x1 - b.x0 for b in band if b.x1 <= lo + 0.1), default=0.0)
        after = max((b.x1 - b.x0 for b in band if b.x0 >= hi - 0.1), default=0.0)
        if min(before, after) >= _MIN_COLUMN_SHARE * span and (
            best is None or hi - lo > best[1] - best[0]
        ):
            best = (lo, hi)
    return best
