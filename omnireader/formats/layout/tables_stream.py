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

from statistics import median

from omnireader.formats.layout.model import Table, Word
from omnireader.formats.layout.tables_columns import text_columns
from omnireader.formats.layout.tables_heads import head_column, headers_above
from omnireader.formats.layout.tables_join import join_header, join_wrapped
from omnireader.formats.layout.tables_regions import (
    HEADER_LINES,
    PROSE_WORDS,
    Run,
    column_of,
    column_spans,
    cut_at_gutters,
    data_line,
    line_box,
    regions,
    run_words,
    with_header_regions,
)
from omnireader.formats.layout.tables_signs import fuse_signs
from omnireader.formats.layout.tables_text import (
    CURRENCY,
    cell_text,
    group_lines,
    header_rows,
    is_marker,
    is_numeric,
    is_word,
    runs,
)
from omnireader.formats.layout.tables_textgrid import text_grid

__all__ = ["borderless_tables", "column_of", "column_spans"]

_Run = Run
_FIGURE_UNITS = frozenset({"pts", "bps", "pt", "bp"})


def borderless_tables(words: list[Word]) -> list[Table]:
    lines = [fuse_signs(runs(line)) for line in group_lines(words)]
    # Most pages are running text: without two lines that break into runs there is no
    # borderless table, and the column split below need not be looked for.
    if sum(1 for line in lines if len(line) > 1) < 2:
        return []
    # A two-column page is read column by column: a table row in one column must not take
    # the line of text beside it as a cell.
    groups = text_columns(words)
    if len(groups) == 1:
        return _borderless(lines)  # one column (most pages): its lines are those above
    return [
        t
        for group in groups
        for t in _borderless([fuse_signs(runs(x)) for x in group_lines(group)])
    ]


def _borderless(lines: list[list[_Run]]) -> list[Table]:
    where = {id(line): k for k, line in enumerate(lines)}
    tables: list[Table] = []
    done = 0  # lines up to here belong to a region already
    for region in with_header_regions(regions(lines), lines, where):
        start = where[id(region[0])]
        above = lines[max(done, start - HEADER_LINES) : start]
        done = where[id(region[-1])] + 1
        tables.extend(_tables_in(region, depth=0, above=above))
    return tables


def _text_words(cell: str) -> int:
    return sum(1 for t in cell.split() if is_word(t))


def _tables_in(
    region: list[list[_Run]], depth: int, above: list[list[_Run]] | None = None
) -> list[Table]:
    # Header lines come before the first line of numbers. The columns are where the body's
    # runs pile up (a header spanning two columns would bridge their gutter), and a header
    # run is cut where a gutter runs through it: header cells can sit a space apart.
    first_data = next((n for n, line in enumerate(region) if data_line(line)), 0)
    body = region[first_data:]
    spans = column_spans(body if sum(len(line) > 1 for line in body) >= 2 else region)
    if spans and any(column_of(run, spans)[1] < 0 for line in region[:first_data] for run in line):
        spans = column_spans(region)  # header lines have columns the body lacks: use them all
    if len(spans) < 2:
        return []
    added = 0
    if above and len(body) > 1:
        # Column heads and group labels above the region; labels only right above the
        # figures (a region that starts with its header has its own).
        heads = headers_above(above, region, spans, body, labels_ok=first_data == 0)
        region, first_data, added = heads + region, first_data + len(heads), len(heads)
    placed: list[list[tuple[int, _Run]]] = []
    for n, line in enumerate(region):
        if n < added and len(line) == 1:
            placed.append([(head_column(line, spans), line[0])])  # taken whole
            continue
        cols = [column_of(run, spans) for run in line]
        # Header cells may span columns with a few words ("Year Ended December 31, 2019");
        # a sentence across columns is text, wherever it is.
        most = PROSE_WORDS if n >= first_data else 2 * PROSE_WORDS
        prose = any(crossed and run_words(run) >= most for run, (_, crossed) in zip(line, cols))
        if depth < 3 and (
            prose or (len(line) == 1 and cols[0][1] >= 1 and 0 < n < len(region) - 1)
        ):
            # A run of words across a gutter: a title or a paragraph, so two tables (or none);
            # or a head of the table below (headers_above).
            if n < added:
                return _split(region, n, depth, None)
            return _split(region[added:], n - added, depth, above)  # as found, heads apart
        if n < first_data and any(crossed for _, crossed in cols):
            line = [piece for run in line for piece in cut_at_gutters(run, spans)]
            cols = [column_of(run, spans) for run in line]
        placed.append([(c, run) for (c, _), run in zip(cols, line)])
    return [t for t in [_build(region, placed, spans)] if t is not None]


def _split(
    region: list[list[_Run]], n: int, depth: int, above: list[list[_Run]] | None
) -> list[Table]:
    """The tables above and below the region's line ``n``; the one below may be headed by
    the lines over it that no table above took (``n`` itself among them)."""
    tables = [
        t
        for part in regions(region[:n])
        # The first part above, if it starts the region, has the region's lines above it.
        for t in _tables_in(part, depth + 1, above=above if part[0] is region[0] else None)
    ]
    lower = regions(region[n + 1 :])
    for k, part in enumerate(lower):
        context = None
        if k == 0:
            start = next(i for i, line in enumerate(region) if line is part[0])
            context = region[:start] if tables else (above or []) + region[:start]
            if tables:
                bottom = tables[-1].y1
                context = [line for line in context if line_box(line)[1] > bottom]
        tables.extend(_tables_in(part, depth + 1, above=context))
    return tables


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
        boxes.append(line_box(line))
    rows = [[cell_text(ws) for ws in row] for row in cells]
    if _looks_tabular(rows):
        bold = [all(w.bold for ws in row for w in ws) for row in cells]
        head = header_rows(rows, bold)
        rows, boxes, head = join_header(rows, boxes, head)
        label_ends = [max((w.x1 for w in row[0]), default=None) for row in cells]
        rows, boxes = join_wrapped(rows, boxes, head, label_ends, spans[0])
    else:
        grid = text_grid(placed, nc)  # cells of sentences, rows set apart by white space
        if grid is None:
            return None
        (rows, boxes), head = grid, 1
    keep = [j for j in range(nc) if any(r[j] for r in rows)]
    rows = [[r[j] for j in keep] for r in rows]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    edges = [spans[j][0] for j in keep] + [spans[keep[-1]][1]]
    return Table(rows, x0, boxes[0][1], x1, boxes[-1][3], head, ruled=False, columns=edges)


def _contents(rows: list[list[str]]) -> bool:
    """A table of contents: titles, and in the last filled column page numbers that only
    grow down the page. Three columns at most (a section number, a title, a page)."""
    filled = [[c for c in r if c] for r in rows]
    lines = [r for r in filled if len(r) >= 2]
    if len(lines) < 3 or max(len(r) for r in filled) > 3:
        return False
    pages = [r[-1] for r in lines]
    if not all(p.isdigit() and len(p) <= 4 for p in pages):
        return False
    numbers = [int(p) for p in pages]
    titles = [r[-2] for r in lines]
    return numbers == sorted(numbers) and sum(not is_numeric(t) for t in titles) >= 0.8 * len(
        titles
    )


def _amounts(column: list[str]) -> bool:
    """Every cell below the column's heading a figure, two or more with a currency sign
    or a "%" (which, apart, once made a column of their own and the table pass)."""
    cells = [_figure(c) for c in column if c]
    while cells and not is_numeric(cells[0]):
        cells.pop(0)  # the heading ("Fiscal 2022")
    signed = sum(1 for c in cells if c[:1] in CURRENCY or c[1:2] in CURRENCY or "%" in c)
    return signed >= 2 and all(is_numeric(c) for c in cells)


def _figure(cell: str) -> str:
    # "$ —" (nothing, in a row of amounts) and "3 pts" are figures of the column too.
    number, _, unit = cell.partition(" ")
    if number in CURRENCY:
        return unit
    return number if unit in _FIGURE_UNITS else cell


def _looks_tabular(rows: list[list[str]]) -> bool:
    """Enough rows and columns filled, and cells short enough not to be running text."""
    full = [r for r in rows if sum(1 for c in r if c) >= 2]
    nc = len(rows[0])
    if len(full) < (3 if nc == 2 else 2):
        return False
    first = [r[0] for r in rows if r[0]]
    if nc == 2 and first and all(is_marker(c) for c in first):
        return False  # a bulleted or numbered list, its markers in a column of their own
    if _contents(rows):
        return False
    if any(_amounts([r[j] for r in rows]) for j in range(1, nc)):
        return True  # a column of money: long row labels beside it are still a table's
    words_per_cell = [_text_words(c) for r in rows for c in r if c]
    if median(words_per_cell) >= PROSE_WORDS:
        return False
    for j in range(nc):
        col = [_text_words(r[j]) for r in rows if r[j]]
        # Two columns of which one is prose: a list with markers, or text beside labels.
        if nc == 2 and col and median(col) >= PROSE_WORDS + 1:
            return False
    return True
