"""The header lines above a borderless table of figures, and the row-group labels between
them and its first row.

A financial statement prints, above its grid of amounts, a heading across the figure
columns ("Year Ended December 31,"), a line of column heads ("2018  2019"), a unit note
("(in millions)") and a label alone in the label column ("Net sales:") heading the first
group of rows. Each is one run or a line set a little apart, so the finder's regions start
below them and they were left above the table as text, the columns without headings.
Walking up from the table's first row, they are taken in while they keep to the table's
columns: a label only below the column heads, a one-run line only over the figure
columns (a title or a sentence starts at the left margin and runs across them).
"""

from __future__ import annotations

from collections.abc import Callable

from omnireader.formats.layout.tables_regions import (
    FIRST_GAP,
    HEADING_SIZE,
    PROSE_WORDS,
    Run,
    column_of,
    cut_at_gutters,
    line_box,
    line_size,
    run_words,
)
from omnireader.formats.layout.tables_text import is_numeric

__all__ = ["figure_columns", "head_column", "headers_above", "spanning_head"]

# Columns a table needs before a header line read as one run is cut at them.
_CUT_COLUMNS = 3
_MAX_LABELS = 2  # label lines between the column heads and the first row
_MAX_HEADS = 4  # header lines over the figure columns
# Em a spanning head may reach past the last figure column (centred over a narrow one).
_SLACK = 1.0
_CENTRED = 0.1  # share of the figures' width a centred heading's middle may be off theirs
_FIGURES = 0.5  # share of a column's runs that are numbers for it to be a figure column


def headers_above(
    above: list[list[Run]],
    region: list[list[Run]],
    spans: list[tuple[float, float]],
    body: list[list[Run]],
    labels_ok: bool = True,
) -> list[list[Run]]:
    """The lines of ``above`` (top to bottom, ending right above ``region``) that head the
    table's columns, with the label lines under them; none when no column head is found
    (a short line alone above a table may as well end the paragraph before it)."""
    heads: list[list[Run]] = []
    labels: list[list[Run]] = []
    known: list[set[int]] = []  # the figure columns, found when first asked for

    def figures_of() -> set[int]:
        if not known:
            known.append(figure_columns(body, spans))
        return known[0]

    top, size = line_box(region[0])[1], line_size(region[0])
    figures = spans[1][0] if len(spans) > 1 else spans[0][1]
    for line in reversed(above):
        x0, line_top, x1, bottom = line_box(line)
        if top - bottom > FIRST_GAP * size or line_size(line) > HEADING_SIZE * size:
            break
        # Header cells set a space apart read as one run; cut where a word starts (or
        # ends) at a column's edge. Not over two columns: a line of text above a list or
        # two columns of text would be cut as readily.
        whole = spanning_head(line, spans, size, figures_of)
        if len(spans) >= _CUT_COLUMNS and not whole:
            line = [piece for run in line for piece in cut_at_gutters(run, spans, 0.25 * size)]
        if len(line) == 1:
            if x1 < figures and not heads:
                if (
                    not labels_ok
                    or len(labels) == _MAX_LABELS
                    or run_words(line[0]) >= 2 * PROSE_WORDS
                ):
                    break
                labels.insert(0, line)  # "Net sales:", in the label column only
            elif whole and len(heads) < _MAX_HEADS:
                heads.insert(0, line)  # "Year Ended December 31,", "(in millions)"
            else:
                break  # a title, the end of a sentence or a paragraph across the page
        else:
            if any(_outside(run, spans, _SLACK * size) for run in line):
                break  # a cell beside the table: a running head, a line of another block
            # Short cells; the label column's head may be longer ("Year Ended December 31,"
            # beside the years).
            most = [2 * PROSE_WORDS if run[-1].x1 < figures else PROSE_WORDS for run in line]
            if any(run_words(r) >= m for r, m in zip(line, most)) or len(heads) == _MAX_HEADS:
                break
            heads.insert(0, line)
        top = line_top
    return heads + labels if heads else []


def _outside(run: Run, spans: list[tuple[float, float]], slack: float) -> bool:
    """Whether the run lies wholly left or right of the table's columns (a head wider
    than its column still overlaps it)."""
    return run[-1].x1 < spans[0][0] - slack or run[0].x0 > spans[-1][1] + slack


def head_column(line: list[Run], spans: list[tuple[float, float]]) -> int:
    """Where a one-run line taken above a table goes: a unit note ("(in millions)") to the
    label column, as tables set it in their top left cell; a heading over figure columns to
    the first of them (a Markdown table has no spanning cell); a group label to its own."""
    run = line[0]
    text = " ".join(w.text for w in run)
    if text.startswith("(") and text.endswith(")"):
        return 0
    x0, x1 = run[0].x0, run[-1].x1
    if len(spans) > 2:
        # Centred over all the figure columns ("Fiscal Year" over five years): it heads
        # them from the first.
        left, right = spans[1][0], spans[-1][1]
        if abs((x0 + x1) / 2 - (left + right) / 2) <= _CENTRED * (right - left):
            return 1
    for k, (a, b) in enumerate(spans):
        if min(b, x1) > max(a, x0):
            return k
    return column_of(run, spans)[0]


def spanning_head(
    line: list[Run],
    spans: list[tuple[float, float]],
    size: float,
    figures_of: Callable[[], set[int]],
) -> bool:
    """A one-run line over figure columns only (a title over a table of text is no head):
    right of the label column, within the table's right edge, and short (a heading, not a
    sentence)."""
    if len(line) != 1 or len(spans) < 2:
        return False
    x0, _, x1, _ = line_box(line)
    # Past the middle of the gap between the label column and the first figures: centred
    # over amounts whose "$" stands further left than the amounts' own column.
    if not (
        x0 > (spans[0][1] + spans[1][0]) / 2
        and x1 <= spans[-1][1] + _SLACK * size
        and run_words(line[0]) < 2 * PROSE_WORDS
    ):
        return False
    over = {k for k, (a, b) in enumerate(spans) if min(b, x1) > max(a, x0)}
    return bool(over) and over <= figures_of()


def figure_columns(body: list[list[Run]], spans: list[tuple[float, float]]) -> set[int]:
    """The columns most of whose runs in ``body`` are numbers."""
    numbers = [0] * len(spans)
    filled = [0] * len(spans)
    for line in body:
        for run in line:
            k = column_of(run, spans)[0]
            filled[k] += 1
            numbers[k] += all(is_numeric(w.text) for w in run)
    return {k for k in range(len(spans)) if filled[k] and numbers[k] >= _FIGURES * filled[k]}
