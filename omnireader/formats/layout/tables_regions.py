"""Where a page's lines of word runs may hold a borderless table: regions of close lines,
most with two runs or more, their header lines, and the column spans their runs make.

Every distance is in em of the lines' own font size.
"""

from __future__ import annotations

from bisect import insort
from itertools import pairwise
from math import ceil, inf
from statistics import median

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.tables_signs import amount_line
from omnireader.formats.layout.tables_text import em, is_numeric, is_value, is_word

__all__ = [
    "FIRST_GAP",
    "HEADER_LINES",
    "HEADING_SIZE",
    "PROSE_WORDS",
    "Run",
    "column_of",
    "column_spans",
    "cut_at_gutters",
    "data_line",
    "has_numbers",
    "line_box",
    "line_size",
    "regions",
    "run_words",
    "with_header_regions",
]

# Em of blank space between two lines that still keeps them in one region.
_LINE_GAP = 1.6
# Em between a region's first two lines, before its row spacing is known.
FIRST_GAP = 3.0
_MAX_GAP = 5.0  # em of blank space that ends a region even when the columns go on
_RECENT = 6  # lines above a new line whose runs it is aligned against
HEADER_LINES = 4  # lines above a table of numbers looked at for its column headers
# Consecutive one-run lines a region carries (section labels, wrapped text).
_MAX_SINGLES = 2
# A one-run line this much larger than any text above it is a heading.
HEADING_SIZE = 1.12
PROSE_WORDS = 4  # median words a cell at or over which a region reads as prose
# Share of the region's width past which a run of words is a note, not a cell.
_WIDE_RUN = 0.4
# Share of multi-run lines that may cross a gutter (spanning headers).
_GUTTER_SHARE = 0.12

Run = list[Word]
_Run = Run


def data_line(line: list[_Run]) -> bool:
    """Two runs of numbers or more, not all of them years (a header of years is a header)."""
    values = [run for run in line if all(is_numeric(w.text) for w in run)]
    return len(values) >= 2 and any(is_value(w.text) for run in values for w in run)


def has_numbers(region: list[list[_Run]]) -> bool:
    return any(data_line(line) for line in region)


def with_header_regions(
    regions: list[list[list[_Run]]], lines: list[list[_Run]], where: dict[int, int]
) -> list[list[list[_Run]]]:
    """A short region without numbers just above a region of numbers is its header (set
    off by a rule or a wider gap): the two are one region."""
    out: list[list[list[_Run]]] = []
    for region in regions:
        prev = out[-1] if out else []
        if (
            prev
            and not has_numbers(prev)
            and len(prev) <= HEADER_LINES
            and has_numbers(region)
            and all(run_words(run) < PROSE_WORDS for line in prev for run in line)
        ):
            gap = line_box(region[0])[1] - line_box(prev[-1])[3]
            if gap <= FIRST_GAP * line_size(region[0]):
                out[-1] = lines[where[id(prev[0])] : where[id(region[-1])] + 1]
                continue
        out.append(region)
    return out


def cut_at_gutters(run: _Run, spans: list[tuple[float, float]], aligned: float = 0.0) -> list[_Run]:
    """The run cut at each space between two words that a gutter runs through, when that
    gives one piece to each column it crosses; a header spanning columns ("Modern method"
    over six) has fewer spaces than columns and stays whole.

    With ``aligned`` (points), the cuts are where a word starts at a column's left edge or
    ends at its right edge (to that much): header cells wider than the body's column, a
    space apart, as a left- or right-aligned table prints them."""
    gutters = [(a[1], b[0]) for a, b in pairwise(spans)]
    pieces = [[run[0]]]
    for prev, word in pairwise(run):
        if aligned:
            cut = any(
                prev.x1 < b0
                and abs(word.x0 - b0) <= aligned
                or word.x0 > a1
                and abs(prev.x1 - a1) <= aligned
                for (_, a1), (b0, _) in pairwise(spans)
            )
        else:
            cut = any(prev.x1 <= g1 and word.x0 >= g0 for g0, g1 in gutters)
        if cut:
            pieces.append([word])
        else:
            pieces[-1].append(word)
    if aligned:
        cols = [column_of(p, spans)[0] for p in pieces]
        return pieces if len(set(cols)) == len(cols) else [run]
    crossed = column_of(run, spans)[1] + 1
    if len(pieces) != crossed or any(column_of(p, spans)[1] for p in pieces):
        return [run]
    return pieces


def line_box(line: list[_Run]) -> tuple[float, float, float, float]:
    ws = [w for run in line for w in run]
    # Lists, not generators: the same values in the same order, at C speed.
    return (
        min([w.x0 for w in ws]),
        min([w.y0 for w in ws]),
        max([w.x1 for w in ws]),
        max([w.y1 for w in ws]),
    )


def line_size(line: list[_Run]) -> float:
    return _median_of_sorted(sorted([em(w) for run in line for w in run]))  # median()


def regions(lines: list[list[_Run]]) -> list[list[list[_Run]]]:
    """Runs of close lines, most with two runs or more, trimmed to start and end on one.

    A line of one amount with its currency sign ("$ 4,021", a total without a label) is a
    row too: its sign, a column of its own once, made it two runs."""
    regions: list[list[list[_Run]]] = []
    current: list[list[_Run]] = []
    gaps: list[float] = []
    singles = 0
    biggest = 0.0  # the largest font size in the region so far
    prev_bottom = None
    for line in lines:
        row = len(line) >= 2 or amount_line(line)
        words = [w for run in line for w in run]
        if not row and not current:
            # Text outside any region (most of a page's lines): nothing below can start or
            # end a region on it; only its bottom is needed, for the next line's gap.
            prev_bottom = max([w.y1 for w in words])
            continue
        top, bottom = min([w.y0 for w in words]), max([w.y1 for w in words])
        gap = top - prev_bottom if prev_bottom is not None else 0.0
        # Rows may be spaced wider than text lines; what ends a table is a gap wider than
        # its own row spacing so far (or, before there is any, a blank line or two).
        ems = [em(w) for w in words]
        size = _median_of_sorted(sorted(ems))  # line_size: statistics.median's arithmetic
        allowed = max(_LINE_GAP * size, 1.8 * _median_of_sorted(gaps)) if gaps else FIRST_GAP * size
        # A one-run line in a larger font than the region's is a heading: the table ends.
        heading = not row and bool(current) and size > HEADING_SIZE * biggest
        far = bool(current) and gap > allowed
        if far and gap <= _MAX_GAP * size and _aligned(line, current, size):
            far = False  # rows spaced wider below a tight header, still in the same columns
        if far or heading or (not row and singles >= _MAX_SINGLES):
            regions.append(current)
            current, singles, gaps, biggest = [], 0, [], 0.0
        if row or current:
            if current:
                insort(gaps, max(0.0, gap))  # kept sorted: its median at every line
            current.append(line)
            biggest = max(biggest, max(ems))
            singles = 0 if row else singles + 1
        prev_bottom = bottom
    regions.append(current)
    out = []
    for region in regions:
        while region and not (len(region[-1]) >= 2 or amount_line(region[-1])):
            region.pop()
        if sum(len(line) >= 2 for line in region) >= 2:
            out.append(region)
    return out


def _median_of_sorted(values: list[float]) -> float:
    """``statistics.median`` of a list already sorted (the same arithmetic)."""
    n = len(values)
    if not n:
        return median(values)  # raises as median() does
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def _aligned(line: list[_Run], region: list[list[_Run]], size: float) -> bool:
    """Whether most of the line's runs (two at least) start or end where runs of the
    region's recent multi-run lines do: the same columns, whatever the spacing."""
    if len(line) < 2:
        return False
    edges = [
        (run[0].x0, run[-1].x1) for other in region[-_RECENT:] if len(other) >= 2 for run in other
    ]
    tol = 0.5 * size
    hits = sum(
        1
        for run in line
        if any(abs(run[0].x0 - a) <= tol or abs(run[-1].x1 - b) <= tol for a, b in edges)
    )
    return hits >= max(2, 0.6 * len(line))


def run_words(run: _Run) -> int:
    """Words that hold a letter or digit (a dot leader's dots are not words)."""
    return sum(1 for w in run if is_word(w.text))


def column_spans(region: list[list[_Run]]) -> list[tuple[float, float]]:
    """Column spans: where the runs of the region's multi-run lines pile up."""
    multi = [line for line in region if len(line) >= 2]
    limit = max(1, ceil(_GUTTER_SHARE * len(multi)))
    left = min(run[0].x0 for line in multi for run in line)
    right = max(run[-1].x1 for line in multi for run in line)
    events: list[tuple[float, int]] = []
    for line in multi:
        for run in line:
            if (
                run[-1].x1 - run[0].x0 > _WIDE_RUN * (right - left)
                and run_words(run) >= PROSE_WORDS
            ):
                continue  # a note or title across the table says nothing of its columns
            events.append((run[0].x0, 1))
            events.append((run[-1].x1, -1))
    events.sort(key=lambda e: (e[0], -e[1]))
    spans: list[tuple[float, float]] = []
    depth, start = 0, None
    for x, step in events:
        depth += step
        if depth >= limit and start is None:
            start = x
        elif depth < limit and start is not None:
            spans.append((start, x))
            start = None
    return spans


def column_of(run: _Run, spans: list[tuple[float, float]]) -> tuple[int, int]:
    """The column the run overlaps most, and how many gutters it crosses."""
    x0, x1 = run[0].x0, run[-1].x1
    best, most, crossed = 0, -inf, -1
    for k, (a, b) in enumerate(spans):  # a plain loop: this runs for every run of a region
        overlap = (b if b < x1 else x1) - (a if a > x0 else x0)
        if overlap > most:
            best, most = k, overlap
        if overlap > 0:
            crossed += 1
    if most <= 0:  # in a gutter: the nearest column
        best = min(
            range(len(spans)),
            key=lambda k: min(abs(x0 - spans[k][1]), abs(x1 - spans[k][0])),
        )
    return best, crossed
