"""A ruled grid's spanning cells (``tables_ruled._anchors``), a chart's value axis
(``tables_charts._value_axis``), a line's size and box and a page's text columns: the
shortcuts taken for speed give what the plain rules give. The axis, size and columns tests
pass on the code before the shortcuts too; ``_anchors`` is compared with that code itself."""

from __future__ import annotations

import random

from omnireader.formats.layout.model import Rule, Table
from omnireader.formats.layout.tables_charts import is_chart
from omnireader.formats.layout.tables_ruled import _anchors
from omnireader.formats.layout.tables_text import SNAP


def _plain_anchors(
    xs: list[float], ys: list[float], vs: list[Rule], hs: list[Rule]
) -> dict[tuple[int, int], tuple[int, int]]:
    """The rule as first written: a wall test a cell, every rule of the line looked at."""
    nr, nc = len(ys) - 1, len(xs) - 1
    at_x = [[v for v in vs if abs(v.x0 - x) <= SNAP] for x in xs]
    at_y = [[h for h in hs if abs(h.y0 - y) <= SNAP] for y in ys]

    def vwall(i: int, j: int) -> bool:
        lo, hi = ys[i] + (ys[i + 1] - ys[i]) * 0.25, ys[i + 1] - (ys[i + 1] - ys[i]) * 0.25
        return any(v.y0 <= lo + SNAP and v.y1 >= hi - SNAP for v in at_x[j])

    def hwall(i: int, j: int) -> bool:
        lo, hi = xs[j] + (xs[j + 1] - xs[j]) * 0.25, xs[j + 1] - (xs[j + 1] - xs[j]) * 0.25
        return any(h.x0 <= lo + SNAP and h.x1 >= hi - SNAP for h in at_y[i])

    anchor: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(nr):
        for j in range(nc):
            if j > 0 and not vwall(i, j):
                anchor[(i, j)] = anchor[(i, j - 1)]
            elif i > 0 and not hwall(i, j):
                anchor[(i, j)] = anchor[(i - 1, j)]
            else:
                anchor[(i, j)] = (i, j)
    return anchor


def test_a_missing_wall_joins_two_cells_into_one_span() -> None:
    xs, ys = [0.0, 50.0, 100.0, 150.0], [0.0, 20.0, 40.0]
    hs = [Rule(0, y, 150, y) for y in ys]
    # The wall between columns 1 and 2 is drawn in the second row only.
    vs = [Rule(0, 0, 0, 40), Rule(50, 0, 50, 40), Rule(100, 20, 100, 40), Rule(150, 0, 150, 40)]
    got = _anchors(xs, ys, vs, hs)
    assert got[(0, 2)] == (0, 1)  # no wall left of it in the first row: the span's
    assert got[(1, 2)] == (1, 2)
    assert got == _plain_anchors(xs, ys, vs, hs)


def test_grids_of_broken_rules_give_the_plain_rules_spans() -> None:
    rng = random.Random(38)
    for _ in range(300):
        nr, nc = rng.randint(1, 7), rng.randint(2, 7)
        xs = sorted(rng.sample(range(0, 600, 7), nc + 1))
        ys = sorted(rng.sample(range(0, 800, 5), nr + 1))
        xs = [x + rng.choice([0.0, 0.25, 0.5]) for x in xs]
        ys = [y + rng.choice([0.0, 0.25, 0.5]) for y in ys]
        vs, hs = [], []
        for x in xs:  # pieces near the line (some past SNAP), each over part of the grid
            for _ in range(rng.randint(0, 4)):
                a, b = sorted(rng.uniform(ys[0] - 5, ys[-1] + 5) for _ in range(2))
                px = x + rng.choice([0.0, 1.5, -2.0, 2.0, 2.5, rng.uniform(-4, 4)])
                vs.append(Rule(px, a, px, b))
        for y in ys:
            for _ in range(rng.randint(0, 4)):
                a, b = sorted(rng.uniform(xs[0] - 5, xs[-1] + 5) for _ in range(2))
                py = y + rng.choice([0.0, 1.0, -2.0, 2.0, 3.0, rng.uniform(-4, 4)])
                hs.append(Rule(a, py, b, py))
        if rng.random() < 0.1:
            vs.append(Rule(float("nan"), ys[0], float("nan"), ys[-1]))
        assert _anchors(xs, ys, vs, hs) == _plain_anchors(xs, ys, vs, hs)


def _grid(column: list[str], beside: str = "") -> Table:
    rows = [[cell, beside] for cell in column]
    return Table(rows, 0, 0, 100, 100, 1)


def test_a_value_axis_needs_four_ticks_down_to_the_foot() -> None:
    axis = ["40", "30", "20", "10", "Q1 Q2 Q3"]
    assert is_chart(_grid(axis))
    assert not is_chart(_grid(["30", "20", "10", "", "Q1 Q2 Q3"]))  # three ticks
    # Four ticks, then more rows under them than a chart's labels and legend.
    assert not is_chart(_grid([*axis[:4], "a", "b", "c", "d"]))
    assert is_chart(_grid([*axis[:4], "a", "b", "c"]))


def test_a_lines_size_is_the_median_of_its_words_sizes() -> None:
    from statistics import median

    from omnireader.formats.layout.model import Word
    from omnireader.formats.layout.tables_regions import line_box, line_size

    for sizes in ([9.0], [9.0, 10.0], [12.0, 8.0, 10.0], [7.5, 9.0, 11.0, 8.25], [0.2, 9.0]):
        words = [Word("w", 10.0 * k, 5.0, 10.0 * k + 8, 5.0 + s, s) for k, s in enumerate(sizes)]
        line = [words[:1], words[1:]] if len(words) > 1 else [words]
        em = [w.size if w.size > 0.5 else max(1.0, w.height / 1.15) for w in words]
        assert line_size(line) == median(em)
        assert line_box(line) == (0.0, 5.0, words[-1].x1, max(w.y1 for w in words))


def test_two_columns_of_prose_split_at_their_gutter() -> None:
    from omnireader.formats.layout.model import Word
    from omnireader.formats.layout.tables_columns import text_columns

    words = []
    for row in range(8):
        y = 100.0 + 14 * row
        for side, x in ((0, 50.0), (1, 320.0)):
            for k in range(6):  # six words a line: running text on both sides
                words.append(Word(f"word{side}{k}", x + 40 * k, y, x + 40 * k + 38, y + 10, 10.0))
    left, right = text_columns(words)
    assert {w.text[4] for w in left} == {"0"} and {w.text[4] for w in right} == {"1"}
    assert [w.x0 for w in left] == [w.x0 for w in words if w.x0 < 300]
