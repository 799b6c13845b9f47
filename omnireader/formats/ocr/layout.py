"""Reading order: the engine's text boxes become lines, tables and blocks, in the order a
person reads them.

1. Boxes whose centres share a row form a row; a row splits into segments where the gap is
   wider than a line is tall (a column gutter, a table's cell gap).
2. Consecutive rows of several *short* segments are a table (or a form, or a receipt):
   read row by row, cells joined by `` | ``. Rows of long segments are columns of text.
3. Columns: an x range few lines cross, with whole lines on both sides, is a gutter.
   Lines that cross it (a title, a footer) cut the page into bands; within a band each
   column is read top to bottom, left column first (recursively, for columns in columns).
4. Within a column, a vertical gap taller than a line starts a new block (a paragraph).

Everything here is plain geometry on boxes: no engine, no image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

from omnireader.formats.ocr.base import BBox, OcrBlock, OcrLine

__all__ = ["Box", "arrange"]

# A row splits where the gap between two boxes is wider than this many line heights.
_CELL_GAP = 1.0
# Rows of segments this short (median characters) are table rows, longer ones text columns.
_TABLE_CELL_CHARS = 22
# A gutter: crossed by at most this share of the lines that cover the busiest x on either
# side of it (a title and a footer across two columns), with whole lines on both sides.
_GUTTER_CROSSING = 0.34
_GUTTER_SIDE_LINES = 2
# A vertical gap taller than this many line heights starts a new block.
_BLOCK_GAP = 0.9
_MAX_DEPTH = 8


@dataclass
class Box:
    """One box the engine read, in pixels of the upright page."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    confidence: float

    @property
    def height(self) -> float:
        return max(1.0, self.y1 - self.y0)

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


@dataclass
class _Line:
    """A line on its way to the output: its boxes, and whether it is a table row."""

    boxes: list[Box]
    table: bool = False
    cells: list[list[Box]] = field(default_factory=list)

    @property
    def x0(self) -> float:
        return min(b.x0 for b in self.boxes)

    @property
    def x1(self) -> float:
        return max(b.x1 for b in self.boxes)

    @property
    def y0(self) -> float:
        return min(b.y0 for b in self.boxes)

    @property
    def y1(self) -> float:
        return max(b.y1 for b in self.boxes)

    @property
    def height(self) -> float:
        return median(b.height for b in self.boxes)

    @property
    def text(self) -> str:
        if self.table:
            return " | ".join(" ".join(b.text for b in cell) for cell in self.cells)
        return " ".join(b.text for b in self.boxes)


def arrange(boxes: list[Box], width: int, height: int) -> list[OcrBlock]:
    """The boxes as blocks of lines in reading order; bounding boxes as page fractions."""
    boxes = [b for b in boxes if b.text.strip()]
    if not boxes:
        return []
    line_h = median(b.height for b in boxes)
    lines = _lines(_rows(boxes), line_h)
    groups = _order(lines, line_h, 0)
    return [_block(group, width, height) for group in groups if group]


# ------------------------------------------------------------------- rows and tables


def _rows(boxes: list[Box]) -> list[list[Box]]:
    """Boxes grouped by row (centres within half a line of each other), top to bottom."""
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: b.cy):
        row = rows[-1] if rows else None
        if row is not None:
            centre = median(b.cy for b in row)
            if abs(box.cy - centre) < 0.5 * min(box.height, median(b.height for b in row)):
                row.append(box)
                continue
        rows.append([box])
    return [sorted(row, key=lambda b: b.x0) for row in rows]


def _segments(row: list[Box], line_h: float) -> list[list[Box]]:
    """A row cut where boxes are further apart than a line is tall."""
    out: list[list[Box]] = [[row[0]]]
    for box in row[1:]:
        gap = box.x0 - max(b.x1 for b in out[-1])
        if gap > _CELL_GAP * max(line_h, min(box.height, out[-1][-1].height)):
            out.append([box])
        else:
            out[-1].append(box)
    return out


def _lines(rows: list[list[Box]], line_h: float) -> list[_Line]:
    """Rows as lines: runs of short multi-segment rows are table rows, the rest segments."""
    split = [_segments(row, line_h) for row in rows]
    lines: list[_Line] = []
    n = 0
    while n < len(split):
        end = n
        while end < len(split) and len(split[end]) > 1:
            end += 1
        run = split[n:end]
        if run and _is_table(run):
            lines.extend(_Line([b for seg in segs for b in seg], True, segs) for segs in run)
            n = end
            continue
        for segs in run or [split[n]]:
            lines.extend(_Line(seg) for seg in segs)
        n = max(end, n + 1)
    return lines


def _is_table(run: list[list[list[Box]]]) -> bool:
    chars = [sum(len(b.text) for b in seg) for segs in run for seg in segs]
    return median(chars) <= _TABLE_CELL_CHARS


# ------------------------------------------------------------------- columns and blocks


def _order(lines: list[_Line], line_h: float, depth: int) -> list[list[_Line]]:
    """Lines in reading order, grouped into blocks."""
    if len(lines) <= 1 or depth >= _MAX_DEPTH:
        return _paragraphs(lines, line_h)
    gutters = _gutters(lines, line_h)
    if not gutters:
        return _paragraphs(lines, line_h)
    blocks: list[list[_Line]] = []
    band: list[_Line] = []
    wide: list[_Line] = []

    def flush_band() -> None:
        columns: list[list[_Line]] = [[] for _ in range(len(gutters) + 1)]
        for line in band:
            centre = (line.x0 + line.x1) / 2
            columns[sum(1 for g0, g1 in gutters if centre > (g0 + g1) / 2)].append(line)
        for column in columns:
            if len(column) == len(lines):  # nothing was split off: stop here
                blocks.extend(_paragraphs(column, line_h))
            elif column:
                blocks.extend(_order(column, line_h, depth + 1))
        band.clear()

    for line in sorted(lines, key=lambda ln: (ln.y0, ln.x0)):
        crosses = any(line.x0 < g0 and line.x1 > g1 for g0, g1 in gutters)
        if crosses:
            if band:
                flush_band()
            wide.append(line)
        else:
            if wide:
                blocks.extend(_paragraphs(wide, line_h))
                wide = []
            band.append(line)
    if band:
        flush_band()
    if wide:
        blocks.extend(_paragraphs(wide, line_h))
    return blocks


def _gutters(lines: list[_Line], line_h: float) -> list[tuple[float, float]]:
    """x ranges few lines cross, with whole lines on both sides: column gutters."""
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    bins = 200
    step = (right - left) / bins
    if step <= 0:
        return []
    cover = [0] * bins
    for ln in lines:
        for i in range(int((ln.x0 - left) / step), min(bins, int((ln.x1 - left) / step) + 1)):
            cover[i] += 1
    # A bin is low when few lines cross it compared with the busiest x on either side of it.
    left_peak, right_peak = cover[:], cover[:]
    for i in range(1, bins):
        left_peak[i] = max(left_peak[i - 1], cover[i])
    for i in range(bins - 2, -1, -1):
        right_peak[i] = max(right_peak[i + 1], cover[i])
    low = [cover[i] <= _GUTTER_CROSSING * min(left_peak[i], right_peak[i]) for i in range(bins)]
    gutters: list[tuple[float, float]] = []
    i = 0
    while i < bins:
        if not low[i]:
            i += 1
            continue
        j = i
        while j < bins and low[j]:
            j += 1
        g0, g1 = left + i * step, left + j * step
        wide_enough = g1 - g0 >= 0.5 * line_h
        sides = (
            sum(1 for ln in lines if ln.x1 <= g0 + step),
            sum(1 for ln in lines if ln.x0 >= g1 - step),
        )
        if wide_enough and min(sides) >= _GUTTER_SIDE_LINES:
            gutters.append((g0, g1))
        i = j
    return gutters


def _paragraphs(lines: list[_Line], line_h: float) -> list[list[_Line]]:
    """Lines top to bottom; a tall gap, or a table starting or ending, starts a new block."""
    blocks: list[list[_Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.y0, ln.x0)):
        if blocks:
            last = blocks[-1][-1]
            gap = line.y0 - last.y1
            if gap <= _BLOCK_GAP * max(line_h, last.height) and line.table == last.table:
                blocks[-1].append(line)
                continue
        blocks.append([line])
    return blocks


def _block(lines: list[_Line], width: int, height: int) -> OcrBlock:
    out = [
        OcrLine(
            text=line.text,
            bbox=_fraction(line.x0, line.y0, line.x1, line.y1, width, height),
            confidence=round(_confidence(line.boxes), 4),
        )
        for line in lines
    ]
    return OcrBlock(
        bbox=_fraction(
            min(ln.x0 for ln in lines),
            min(ln.y0 for ln in lines),
            max(ln.x1 for ln in lines),
            max(ln.y1 for ln in lines),
            width,
            height,
        ),
        lines=out,
        table=any(line.table for line in lines),
    )


def _confidence(boxes: list[Box]) -> float:
    chars = sum(len(b.text) for b in boxes)
    if not chars:
        return 0.0
    return sum(b.confidence * len(b.text) for b in boxes) / chars


def _fraction(x0: float, y0: float, x1: float, y1: float, width: int, height: int) -> BBox:
    w, h = max(1, width), max(1, height)
    return (
        round(min(1.0, max(0.0, x0 / w)), 4),
        round(min(1.0, max(0.0, y0 / h)), 4),
        round(min(1.0, max(0.0, x1 / w)), 4),
        round(min(1.0, max(0.0, y1 / h)), 4),
    )
