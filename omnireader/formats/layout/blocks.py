"""Words → lines → blocks, and blocks in reading order.

A *line* here is a run of words on one baseline with no wide gap inside: two columns side
by side give two lines at the same height, which is what lets columns be found at all.
Lines stack into a block while they are close below each other, overlap horizontally and
share a font size. Reading order is a recursive XY cut that tries columns first (a gutter
no block crosses, with real text on both sides), then bands top to bottom; consecutive
bands that share a gutter are read as one multi-column band, so paragraph gaps that happen
to line up across two columns do not interleave them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import Word

__all__ = ["Line", "TextBlock", "make_lines", "make_blocks", "reading_order"]

# Inside a line, a gap wider than this (in em of the line's size) separates two lines.
_SPLIT_EM = 1.6
# Below a line, the next line of the same block starts within this many line heights.
_LEADING = 0.9
# Font sizes within this ratio are one size.
_SIZE_RATIO = 1.12
# A gutter is at least this wide (points), and each side holds a block this share of the
# band's width, so a column of numbers beside its labels is not read as a column of text.
_MIN_GUTTER = 7.0
_MIN_COLUMN_SHARE = 0.18
_MAX_DEPTH = 24


@dataclass(slots=True)
class Line:
    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool

    @property
    def text(self) -> str:
        if not any(_is_rtl(w.text) for w in self.words):
            return " ".join(w.text for w in self.words)
        return " ".join(w.text for w in _visual_to_logical(self.words))


def _is_rtl(text: str) -> bool:
    code = ord(text[0]) if text else 0
    return 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFC


def _visual_to_logical(words: list[Word]) -> list[Word]:
    """Words sorted left to right, in reading order: runs of right-to-left words reversed
    (the whole line first, when most of it is right to left)."""
    rtl_base = sum(len(w.text) for w in words if _is_rtl(w.text)) * 2 > sum(
        len(w.text) for w in words
    )
    seq = list(reversed(words)) if rtl_base else list(words)
    out: list[Word] = []
    run: list[Word] = []
    for word in seq:
        # In a right-to-left line the left-to-right runs are the ones to turn back.
        if _is_rtl(word.text) != rtl_base:
            run.append(word)
            continue
        out.extend(reversed(run))
        run = []
        out.append(word)
    out.extend(reversed(run))
    return out


@dataclass(slots=True)
class TextBlock:
    lines: list[Line] = field(default_factory=list)
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    table: Any = None  # a found Table standing in reading order as one block

    def add(self, line: Line) -> None:
        if not self.lines:
            self.x0, self.y0, self.x1, self.y1 = line.x0, line.y0, line.x1, line.y1
        else:
            self.x0 = min(self.x0, line.x0)
            self.y0 = min(self.y0, line.y0)
            self.x1 = max(self.x1, line.x1)
            self.y1 = max(self.y1, line.y1)
        self.lines.append(line)

    @property
    def size(self) -> float:
        return self.lines[0].size if self.lines else 0.0

    @property
    def bold(self) -> bool:
        return all(line.bold for line in self.lines)


def make_lines(words: list[Word]) -> list[Line]:
    """Words grouped into lines, top to bottom, each split at wide gaps."""
    if not words:
        return []
    ordered = sorted(words, key=lambda w: (w.cy, w.x0))
    rows: list[list[Word]] = []
    band_top = band_bottom = -1e9
    for word in ordered:
        if rows and band_top <= word.cy <= band_bottom:
            rows[-1].append(word)
        else:
            rows.append([word])
            band_top, band_bottom = word.y0, word.y1
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda w: w.x0)
        run = [row[0]]
        for word in row[1:]:
            prev = run[-1]
            em = max(prev.size, word.size, 1.0)
            if word.x0 - prev.x1 > _SPLIT_EM * em or abs(word.size - prev.size) > 0.3 * em:
                lines.append(_line(run))
                run = [word]
            else:
                run.append(word)
        lines.append(_line(run))
    return lines


def _line(words: list[Word]) -> Line:
    # The size of most of its characters: one big drop cap or superscript does not decide.
    weights: dict[float, int] = {}
    for w in words:
        weights[w.size] = weights.get(w.size, 0) + len(w.text)
    size = max(weights, key=weights.__getitem__)
    bold_chars = sum(len(w.text) for w in words if w.bold)
    return Line(
        words,
        min(w.x0 for w in words),
        min(w.y0 for w in words),
        max(w.x1 for w in words),
        max(w.y1 for w in words),
        size,
        bold_chars * 2 > sum(len(w.text) for w in words),
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
            if target is None and _continues(block, last, line, gap, height):
                target = block
        open_blocks = still_open
        if target is None:
            target = TextBlock()
            blocks.append(target)
            open_blocks.append(target)
        target.add(line)
    return blocks


def _continues(block: TextBlock, last: Line, line: Line, gap: float, height: float) -> bool:
    if gap < -0.5 * height:
        return False  # beside it, not below
    if line.x0 > last.x1 or line.x1 < last.x0:
        return False
    big, small = max(last.size, line.size), max(min(last.size, line.size), 0.1)
    if big / small > _SIZE_RATIO:
        return False
    if last.bold != line.bold and last.bold:
        return False
    em = max(line.size, 1.0)
    # A first-line indent under a line that ran to the right edge starts a paragraph.
    width = block.x1 - block.x0
    if (
        len(block.lines) >= 1
        and width > 20 * em
        and line.x0 - block.x0 > 0.8 * em
        and line.x0 - last.x0 > 0.8 * em
        and block.x1 - last.x1 < 2 * em
    ):
        return False
    return True


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
        wide = _regroup(bands, gutter)
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


def _regroup(bands: list[list[TextBlock]], gutter: float) -> list[list[TextBlock]]:
    """Bands joined back together except across gaps wider than ``gutter``."""
    groups: list[list[TextBlock]] = []
    bottom = None
    for band in bands:
        top = min(b.y0 for b in band)
        if groups and bottom is not None and top - bottom <= gutter:
            groups[-1].extend(band)
        else:
            groups.append(list(band))
        bottom = max(b.y1 for b in band) if bottom is None else max(bottom, *(b.y1 for b in band))
    return groups


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
    """Consecutive bands that are split into columns at a common gutter become one band."""
    merged: list[list[TextBlock]] = []
    gutter: tuple[float, float] | None = None
    for band in bands:
        own = _gutter(band)
        if merged and gutter is not None and own is None and all(
            b.x1 <= gutter[0] + 0.1 or b.x0 >= gutter[1] - 0.1 for b in band
        ):
            merged[-1].extend(band)  # text in one column only: still those columns
            continue
        if merged and gutter is not None and own is not None:
            lo, hi = max(gutter[0], own[0]), min(gutter[1], own[1])
            if hi - lo > _MIN_GUTTER:
                merged[-1].extend(band)
                gutter = (lo, hi)
                continue
        merged.append(list(band))
        gutter = own
    return merged


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
        if min(before, after) >= _MIN_COLUMN_SHARE * span and (best is None or hi - lo > best[1] - best[0]):
            best = (lo, hi)
    return best
