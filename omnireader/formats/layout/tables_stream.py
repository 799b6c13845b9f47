"""Borderless tables: columns of word runs aligned down consecutive lines.

A line is cut into runs at wide gaps (:func:`~.tables_text.runs`). Consecutive lines, close
together, of which most have two runs or more, are a candidate region. Its columns are
where the runs of those lines pile up: an x position covered by runs of many lines is
inside a column, one covered by (almost) none is a gutter, so a header that spans two
columns does not join them. Every run then goes to the column it overlaps most, so a
missing value leaves its cell "" instead of sliding the row left.

What is not a table: a region whose cells read as prose (many words a cell: two-column
text, a bulleted list), or one with fewer than two columns or rows. A line with one run
crossing a gutter (a title, a paragraph between two tables) ends the region.
"""

from __future__ import annotations

from itertools import pairwise
from math import ceil
from statistics import median

from .model import Table, Word
from .tables_columns import text_columns
from .tables_join import join_header, join_wrapped
from .tables_text import (
    cell_text,
    em,
    group_lines,
    header_rows,
    is_marker,
    is_numeric,
    is_value,
    runs,
)

__all__ = ["borderless_tables", "column_of", "column_spans"]

_LINE_GAP = (
    1.6  # em of blank space between two lines that still keeps them in one region
)
_FIRST_GAP = (
    3.0  # em between a region's first two lines, before its row spacing is known
)
_MAX_GAP = 5.0  # em of blank space that ends a region even when the columns go on
_RECENT = 6  # lines above a new line whose runs it is aligned against
_HEADER_LINES = 4  # lines above a table of numbers looked at for its column headers
_MAX_SINGLES = (
    2  # consecutive one-run lines a region carries (section labels, wrapped text)
)
_HEADING_SIZE = (
    1.12  # a one-run line this much larger than any text above it is a heading
)
_PROSE_WORDS = 4  # median words a cell at or over which a region reads as prose
_WIDE_RUN = (
    0.4  # share of the region's width past which a run of words is a note, not a cell
)
_GUTTER_SHARE = (
    0.12  # share of multi-run lines that may cross a gutter (spanning headers)
)

_Run = list[Word]


def borderless_tables(words: list[Word]) -> list[Table]:
    # A two-column page is read column by column: a table row in one column must not take
    # the line of text beside it as a cell.
    return [t for group in text_columns(words) for t in _borderless(group)]


def _borderless(words: list[Word]) -> list[Table]:
    lines = [runs(line) for line in group_lines(words)]
    where = {id(line): k for k, line in enumerate(lines)}
    tables: list[Table] = []
    done = 0  # lines up to here belong to a region already
    for region in _with_header_regions(_regions(lines), lines, where):
        start = where[id(region[0])]
        above = lines[max(done, start - _HEADER_LINES) : start]
        done = where[id(region[-1])] + 1
        tables.extend(_tables_in(region, depth=0, above=above))
    return tables


def _data_line(line: list[_Run]) -> bool:
    """Two runs of numbers or more, not all of them years (a header of years is a header)."""
    values = [run for run in line if all(is_numeric(w.text) for w in run)]
    return len(values) >= 2 and any(is_value(w.text) for run in values for w in run)


def _numbers(region: list[list[_Run]]) -> bool:
    return any(_data_line(line) for line in region)


def _with_header_regions(
    regions: list[list[list[_Run]]], lines: list[list[_Run]], where: dict[int, int]
) -> list[list[list[_Run]]]:
    """A short region without numbers just above a region of numbers is its header (set
    off by a rule or a wider gap): the two are one region."""
    out: list[list[list[_Run]]] = []
    for region in regions:
        prev = out[-1] if out else []
        if (
            prev
            and not _numbers(prev)
            and len(prev) <= _HEADER_LINES
            and _numbers(region)
            and all(_words(run) < _PROSE_WORDS for line in prev for run in line)
        ):
            gap = _box(region[0])[1] - _box(prev[-1])[3]
            if gap <= _FIRST_GAP * _size(region[0]):
                out[-1] = lines[where[id(prev[0])] : where[id(region[-1])] + 1]
                continue
        out.append(region)
    return out


def _headers_above(
    above: list[list[_Run]], region: list[list[_Run]], spans: list[tuple[float, float]]
) -> list[list[_Run]]:
    """Lines just above a table of numbers that head its columns (set off by a wider gap
    or a rule): short runs, none a title across the columns or in a larger font."""
    out: list[list[_Run]] = []
    top, size = _box(region[0])[1], _size(region[0])
    for line in reversed(above):
        _, line_top, _, bottom = _box(line)
        if top - bottom > _FIRST_GAP * size or _size(line) > _HEADING_SIZE * size:
            break
        if any(_words(run) >= _PROSE_WORDS for run in line):
            break
        if len(line) == 1 and column_of(line[0], spans)[1] >= 1:
            break  # one run across the columns: the table's title, not a header
        out.insert(0, line)
        top = line_top
    return out


def _box(line: list[_Run]) -> tuple[float, float, float, float]:
    ws = [w for run in line for w in run]
    return (
        min(w.x0 for w in ws),
        min(w.y0 for w in ws),
        max(w.x1 for w in ws),
        max(w.y1 for w in ws),
    )


def _size(line: list[_Run]) -> float:
    return median(em(w) for run in line for w in run)


def _regions(lines: list[list[_Run]]) -> list[list[list[_Run]]]:
    """Runs of close lines, most with two runs or more, trimmed to start and end on one."""
    regions: list[list[list[_Run]]] = []
    current: list[list[_Run]] = []
    gaps: list[float] = []
    singles = 0
    biggest = 0.0  # the largest font size in the region so far
    prev_bottom = None
    for line in lines:
        _, top, _, bottom = _box(line)
        gap = top - prev_bottom if prev_bottom is not None else 0.0
        # Rows may be spaced wider than text lines; what ends a table is a gap wider than
        # its own row spacing so far (or, before there is any, a blank line or two).
        size = _size(line)
        allowed = (
            max(_LINE_GAP * size, 1.8 * median(gaps)) if gaps else _FIRST_GAP * size
        )
        # A one-run line in a larger font than the region's is a heading: the table ends.
        heading = len(line) < 2 and bool(current) and size > _HEADING_SIZE * biggest
        far = bool(current) and gap > allowed
        if far and gap <= _MAX_GAP * size and _aligned(line, current, size):
            far = False  # rows spaced wider below a tight header, still in the same columns
        if far or heading or (len(line) < 2 and singles >= _MAX_SINGLES):
            regions.append(current)
            current, singles, gaps, biggest = [], 0, [], 0.0
        if len(line) >= 2 or current:
            if current:
                gaps.append(max(0.0, gap))
            current.append(line)
            biggest = max(biggest, max(em(w) for run in line for w in run))
            singles = 0 if len(line) >= 2 else singles + 1
        prev_bottom = bottom
    regions.append(current)
    out = []
    for region in regions:
        while region and len(region[-1]) < 2:
            region.pop()
        if sum(len(line) >= 2 for line in region) >= 2:
            out.append(region)
    return out


def _aligned(line: list[_Run], region: list[list[_Run]], size: float) -> bool:
    """Whether most of the line's runs (two at least) start or end where runs of the
    region's recent multi-run lines do: the same columns, whatever the spacing."""
    if len(line) < 2:
        return False
    edges = [
        (run[0].x0, run[-1].x1)
        for other in region[-_RECENT:]
        if len(other) >= 2
        for run in other
    ]
    tol = 0.5 * size
    hits = sum(
        1
        for run in line
        if any(
            abs(run[0].x0 - a) <= tol or abs(run[-1].x1 - b) <= tol for a, b in edges
        )
    )
    return hits >= max(2, 0.6 * len(line))


def _words(run: _Run) -> int:
    """Words that hold a letter or digit (a dot leader's dots are not words)."""
    return sum(1 for w in run if any(ch.isalnum() for ch in w.text))


def _text_words(cell: str) -> int:
    return sum(1 for t in cell.split() if any(ch.isalnum() for ch in t))


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
                and _words(run) >= _PROSE_WORDS
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
    overlaps = [min(x1, b) - max(x0, a) for a, b in spans]
    best = max(range(len(spans)), key=lambda k: overlaps[k])
    if overlaps[best] <= 0:  # in a gutter: the nearest column
        best = min(
            range(len(spans)),
            key=lambda k: min(abs(x0 - spans[k][1]), abs(x1 - spans[k][0])),
        )
    return best, sum(1 for k in range(len(spans)) if overlaps[k] > 0) - 1


def _tables_in(
    region: list[list[_Run]], depth: int, above: list[list[_Run]] | None = None
) -> list[Table]:
    # Header lines come before the first line of numbers. The columns are where the body's
    # runs pile up (a header spanning two columns would bridge their gutter), and a header
    # run is cut where a gutter runs through it: header cells can sit a space apart.
    first_data = next((n for n, line in enumerate(region) if _data_line(line)), 0)
    body = region[first_data:]
    spans = column_spans(body if sum(len(line) > 1 for line in body) >= 2 else region)
    if spans and any(
        column_of(run, spans)[1] < 0 for line in region[:first_data] for run in line
    ):
        spans = column_spans(
            region
        )  # header lines have columns the body lacks: use them all
    if len(spans) < 2:
        return []
    if above and first_data == 0 and len(body) > 1:
        heads = _headers_above(above, region, spans)
        region, first_data = heads + region, len(heads)
    placed: list[list[tuple[int, _Run]]] = []
    for n, line in enumerate(region):
        cols = [column_of(run, spans) for run in line]
        # Header cells may span columns with a few words ("Year Ended December 31, 2019");
        # a sentence across columns is text, wherever it is.
        most = _PROSE_WORDS if n >= first_data else 2 * _PROSE_WORDS
        prose = any(
            crossed and _words(run) >= most for run, (_, crossed) in zip(line, cols)
        )
        if depth < 3 and (
            prose or (len(line) == 1 and cols[0][1] >= 1 and 0 < n < len(region) - 1)
        ):
            # A run of words across a gutter: a title or a paragraph, so two tables (or none).
            return [
                t
                for part in _regions(region[:n]) + _regions(region[n + 1 :])
                for t in _tables_in(part, depth + 1)
            ]
        if n < first_data and any(crossed for _, crossed in cols):
            line = [piece for run in line for piece in _cut_at_gutters(run, spans)]
            cols = [column_of(run, spans) for run in line]
        placed.append([(c, run) for (c, _), run in zip(cols, line)])
    return [t for t in [_build(region, placed, spans)] if t is not None]


def _cut_at_gutters(run: _Run, spans: list[tuple[float, float]]) -> list[_Run]:
    """The run cut at each space between two words that a gutter runs through, when that
    gives one piece to each column it crosses; a header spanning columns ("Modern method"
    over six) has fewer spaces than columns and stays whole."""
    gutters = [(a[1], b[0]) for a, b in pairwise(spans)]
    pieces = [[run[0]]]
    for prev, word in pairwise(run):
        if any(prev.x1 <= g1 and word.x0 >= g0 for g0, g1 in gutters):
            pieces.append([word])
        else:
            pieces[-1].append(word)
    crossed = column_of(run, spans)[1] + 1
    if len(pieces) != crossed or any(column_of(p, spans)[1] for p in pieces):
        return [run]
    return pieces


def _build(
    region: list[list[_Run]],
    placed: list[list[tuple[int, _Run]]],
    spans: list[tuple[float, float]],
) -> Table | None:
    nc = len(spans)
    cells: list[list[list[Word]]] = []
    boxes: list[tuple[float, float, float, float]] = []
    for line, items in zip(region, placed):
        row: list[list[Word]] = [[] for _ in range(nc)]
        for col, run in items:
            row[col].extend(run)
        cells.append(row)
        boxes.append(_box(line))
    rows = [[cell_text(ws) for ws in row] for row in cells]
    if not _looks_tabular(rows):
        return None
    bold = [all(w.bold for ws in row for w in ws) for row in cells]
    head = header_rows(rows, bold)
    rows, boxes, head = join_header(rows, boxes, head)
    label_ends = [max((w.x1 for w in row[0]), default=None) for row in cells]
    rows, boxes = join_wrapped(rows, boxes, head, label_ends, spans[0])
    keep = [j for j in range(nc) if any(r[j] for r in rows)]
    rows = [[r[j] for j in keep] for r in rows]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    edges = [spans[j][0] for j in keep] + [spans[keep[-1]][1]]
    return Table(
        rows, x0, boxes[0][1], x1, boxes[-1][3], head, ruled=False, columns=edges
    )


def _looks_tabular(rows: list[list[str]]) -> bool:
    """Enough rows and columns filled, and cells short enough not to be running text."""
    full = [r for r in rows if sum(1 for c in r if c) >= 2]
    nc = len(rows[0])
    if len(full) < (3 if nc == 2 else 2):
        return False
    first = [r[0] for r in rows if r[0]]
    if nc == 2 and first and all(is_marker(c) for c in first):
        return (
            False  # a bulleted or numbered list, its markers in a column of their own
        )
    words_per_cell = [_text_words(c) for r in rows for c in r if c]
    if median(words_per_cell) >= _PROSE_WORDS:
        return False
    for j in range(nc):
        col = [_text_words(r[j]) for r in rows if r[j]]
        # Two columns of which one is prose: a list with markers, or text beside labels.
        if nc == 2 and col and median(col) >= _PROSE_WORDS + 1:
            return False
    return True
