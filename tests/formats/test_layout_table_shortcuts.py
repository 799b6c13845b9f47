"""The table finder's early exits give what the full rules give: a chart's value axis
(``tables_charts._value_axis``) refused before its pair search when a column beside is
filled on every tick's row, and ``tables_regions.regions`` passing over text lines outside
any region. Each is compared, on seeded random grids and pages, with the rule as written
before the shortcut (copied below); the tests pass on the code before the shortcuts too."""

from __future__ import annotations

import random
from bisect import insort

from omnireader.formats.layout.model import Rule, Table, Word
from omnireader.formats.layout.tables_charts import (
    _AXIS_FILL,
    _BESIDE,
    _FOOT_ROWS,
    _MAX_CELLS,
    _STEP,
    _value_axis,
    is_chart,
    number,
)
from omnireader.formats.layout.tables_regions import (
    _LINE_GAP,
    _MAX_GAP,
    _MAX_SINGLES,
    FIRST_GAP,
    HEADING_SIZE,
    _aligned,
    _median_of_sorted,
    regions,
)
from omnireader.formats.layout.tables_ruled import ruled_tables
from omnireader.formats.layout.tables_signs import amount_line
from omnireader.formats.layout.tables_text import em


def _plain_value_axis(rows: list[list[str]], column: int) -> bool:
    """``_value_axis`` as written before the shortcut: every pair of ticks searched."""
    cells = [(n, number(row[column])) for n, row in enumerate(rows) if row[column]]
    ticks = [(n, v) for n, v in cells[:_MAX_CELLS] if v is not None]
    best: list[int] = []
    count = len(ticks)
    if count < 4 or len(rows) - 1 - ticks[-1][0] > _FOOT_ROWS:
        return False
    for i, (first, top) in enumerate(ticks):
        for k in range(i + 1, count):
            second, below = ticks[k]
            step = top - below
            if step <= 0:
                continue
            run, want = [first, second], below - step
            for n, value in ticks[k + 1 :]:
                if abs(value - want) <= _STEP * step:
                    run.append(n)
                    want -= step
            if len(run) > len(best):
                best = run
    if len(best) < 4 or len(rows) - 1 - best[-1] > _FOOT_ROWS:
        return False
    others = [cell for n in best for k, cell in enumerate(rows[n]) if k != column]
    filled = [cell for cell in others if cell]
    if len(filled) > _AXIS_FILL * max(len(others), 1):
        return False
    if sum(1 for cell in filled if number(cell) is not None) * 2 < len(filled):
        return False
    return all(
        sum(1 for n in best if rows[n][k]) < _BESIDE * len(best)
        for k in range(len(rows[0]))
        if k != column
    )


def _random_grid(rng: random.Random) -> list[list[str]]:
    nr, nc = rng.randint(3, 50), rng.randint(2, 5)
    axis = rng.randrange(nc)
    top, step = rng.choice([100, 250, 1000, 60]), rng.choice([10, 20, 50, 25])
    fill = rng.random()
    rows = []
    for n in range(nr):
        row = []
        for k in range(nc):
            if k == axis and rng.random() < 0.8:
                # Mostly a falling axis, now and then a value off it.
                value = top - step * n if rng.random() < 0.85 else rng.randint(-50, 300)
                row.append(rng.choice(["{}", "${}", "{}%", "({})"]).format(value))
            elif rng.random() < fill:
                row.append(rng.choice(["Net sales", "12", "3.5", "$ 1,200", "", "x"]))
            else:
                row.append("")
        rows.append(row)
    return rows


def test_a_value_axis_is_found_as_the_full_search_finds_it() -> None:
    rows = [["$100", ""], ["$80", "72"], ["$60", ""], ["$40", ""], ["$20", ""], ["", "2023"]]
    assert _value_axis(rows, 0) and is_chart(Table(rows, 0, 0, 1, 1))
    # The same ticks beside a column of labels filled on every row: a table.
    labelled = [[c, "Sales"] for c, _ in rows]
    assert not _value_axis(labelled, 0) and not is_chart(Table(labelled, 0, 0, 1, 1))


def test_random_grids_give_the_full_searchs_answer() -> None:
    rng = random.Random(38)
    charts = 0
    for _ in range(1000):
        rows = _random_grid(rng)
        for column in range(len(rows[0])):
            got = _value_axis(rows, column)
            assert got == _plain_value_axis(rows, column), (rows, column)
            charts += got
    assert charts > 20  # the grids hold axes, not only tables


def _plain_regions(lines: list[list[list[Word]]]) -> list[list[list[list[Word]]]]:
    """``regions`` as written before the shortcut: every line measured."""
    found: list[list[list[list[Word]]]] = []
    current: list[list[list[Word]]] = []
    gaps: list[float] = []
    singles = 0
    biggest = 0.0
    prev_bottom = None
    for line in lines:
        row = len(line) >= 2 or amount_line(line)
        words = [w for run in line for w in run]
        top, bottom = min([w.y0 for w in words]), max([w.y1 for w in words])
        gap = top - prev_bottom if prev_bottom is not None else 0.0
        ems = [em(w) for w in words]
        size = _median_of_sorted(sorted(ems))
        allowed = max(_LINE_GAP * size, 1.8 * _median_of_sorted(gaps)) if gaps else FIRST_GAP * size
        heading = not row and bool(current) and size > HEADING_SIZE * biggest
        far = bool(current) and gap > allowed
        if far and gap <= _MAX_GAP * size and _aligned(line, current, size):
            far = False
        if far or heading or (not row and singles >= _MAX_SINGLES):
            found.append(current)
            current, singles, gaps, biggest = [], 0, [], 0.0
        if row or current:
            if current:
                insort(gaps, max(0.0, gap))
            current.append(line)
            biggest = max(biggest, max(ems))
            singles = 0 if row else singles + 1
        prev_bottom = bottom
    found.append(current)
    out = []
    for region in found:
        while region and not (len(region[-1]) >= 2 or amount_line(region[-1])):
            region.pop()
        if sum(len(line) >= 2 for line in region) >= 2:
            out.append(region)
    return out


def _random_page(rng: random.Random) -> list[list[list[Word]]]:
    lines = []
    y = 50.0
    for _ in range(rng.randint(1, 60)):
        size = rng.choice([8.0, 9.0, 10.0, 12.0, 14.0, 0.0])
        height = rng.choice([size or 9.0, 1.2 * (size or 9.0)])
        y += rng.choice([0.0, 1.0, 2.0, 4.0, 12.0, 30.0, 60.0]) * rng.random()
        line, x = [], 40.0
        for _ in range(rng.choice([1, 1, 1, 2, 3, 4])):
            run = []
            for _ in range(rng.randint(1, 4)):
                text = rng.choice(["Revenue", "$", "$4,021", "12.5", "%", "total", "(3)"])
                run.append(Word(text, x, y, x + 30.0, y + height, size))
                x += 33.0
            line.append(run)
            x += rng.choice([20.0, 60.0, 150.0])
        lines.append(line)
        y += height
    return lines


def test_random_pages_give_the_same_regions() -> None:
    rng = random.Random(38)
    made = 0
    for _ in range(1500):
        lines = _random_page(rng)
        got = [[id(line) for line in region] for region in regions(lines)]
        want = [[id(line) for line in region] for region in _plain_regions(lines)]
        assert got == want
        made += len(got)
    assert made > 300  # the pages hold regions, not only text


def _boxed(lines: list[list[str]], row_lines: bool = True) -> tuple[list[Word], list[Rule]]:
    """Words set in a drawn grid of three columns, 100 pt wide, a row 20 pt high a line; the
    row lines drawn between the lines (or only round the whole box)."""
    words = [
        Word(text, 100.0 * j + 10, 20.0 * i + 5, 100.0 * j + 40, 20.0 * i + 15, 10.0)
        for i, line in enumerate(lines)
        for j, text in enumerate(line)
        if text
    ]
    bottom = 20.0 * len(lines)
    ys = [20.0 * i for i in range(len(lines) + 1)] if row_lines else [0.0, bottom]
    rules = [Rule(0.0, y, 300.0, y) for y in ys] + [
        Rule(x, 0.0, x, bottom) for x in (0.0, 100.0, 200.0, 300.0)
    ]
    return words, rules


def test_a_grid_with_text_in_one_row_is_no_table() -> None:
    words, rules = _boxed([["Total", "1,234", "5,678"]])
    assert ruled_tables(words, rules) == []
    words, rules = _boxed([["Total", "1,234", "5,678"], ["", "", ""]])
    assert ruled_tables(words, rules) == []  # an empty row drawn under it


def test_a_grid_with_two_rows_of_text_is_a_table() -> None:
    words, rules = _boxed([["Item", "2023", "2022"], ["Sales", "1,234", "5,678"]])
    (table, taken), *more = ruled_tables(words, rules)
    assert not more and taken == set(range(6))
    assert table.rows == [["Item", "2023", "2022"], ["Sales", "1,234", "5,678"]]


def test_records_in_one_drawn_row_are_rows_of_a_table() -> None:
    # One tall drawn row, its cells holding short lines one per record: a row each.
    lines = [["Alpha", "10.5", "North"], ["Beta", "20.5", "South"], ["Gamma", "30.5", "East"]]
    words, rules = _boxed(lines, row_lines=False)
    (table, _), *more = ruled_tables(words, rules)
    assert not more and table.rows == lines
