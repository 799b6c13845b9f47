"""Reading order and page orientation: plain geometry, no engine, no image."""

from __future__ import annotations

import numpy as np

from omnireader.formats.ocr.layout import Box, arrange
from omnireader.formats.ocr.orientation import page_rotation


def box(x0: float, y0: float, text: str, w: float | None = None, h: float = 20) -> Box:
    return Box(x0, y0, x0 + (w if w is not None else 9 * len(text)), y0 + h, text, 0.99)


def texts(blocks) -> list[str]:
    return [line.text for block in blocks for line in block.lines]


def test_two_columns_are_read_left_column_first_under_a_title_across_both() -> None:
    title = box(100, 50, "Annual report of the harbour trust", w=700)
    left = [
        box(100, 120 + 30 * n, f"left column line number {n} of the text", w=330) for n in range(6)
    ]
    right = [
        box(470, 120 + 30 * n, f"right column line number {n} of the text", w=330) for n in range(6)
    ]
    footer = box(100, 400, "Page one of the report, printed in March", w=700)
    blocks = arrange([footer, *right, title, *left], 1000, 500)
    assert texts(blocks) == [
        title.text,
        *(b.text for b in left),
        *(b.text for b in right),
        footer.text,
    ]


def test_a_table_reads_row_by_row_with_its_cells_joined() -> None:
    rows = [("Item", "Qty", "Price"), ("Coffee", "2", "7.00"), ("Bread", "1", "3.50")]
    boxes = [
        box(100 + 250 * c, 100 + 30 * r, cell)
        for r, row in enumerate(rows)
        for c, cell in enumerate(row)
    ]
    [block] = arrange(boxes, 1000, 400)
    assert block.table
    assert texts([block]) == ["Item | Qty | Price", "Coffee | 2 | 7.00", "Bread | 1 | 3.50"]


def test_a_gap_taller_than_a_line_starts_a_new_block_and_boxes_are_page_fractions() -> None:
    boxes = [
        box(50, 50, "First paragraph, line one", w=400),
        box(50, 75, "first paragraph, line two", w=400),
        box(50, 160, "Second paragraph after a gap", w=400),
    ]
    blocks = arrange(boxes, 1000, 500)
    assert [len(b.lines) for b in blocks] == [2, 1]
    assert blocks[0].lines[0].bbox == (0.05, 0.1, 0.45, 0.14)
    assert blocks[0].bbox == (0.05, 0.1, 0.45, 0.19)


def test_boxes_on_one_line_close_together_are_one_line_in_reading_order() -> None:
    [block] = arrange(
        [box(300, 100, "brown fox", w=100), box(100, 102, "The quick", w=180)], 1000, 400
    )
    assert texts([block]) == ["The quick brown fox"]


def quad(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype="float32")


def test_the_page_rotation_comes_from_the_boxes_direction_and_the_upside_down_votes() -> None:
    across = [quad(50, 50 + 30 * n, 400, 20) for n in range(5)]
    down = [quad(50 + 30 * n, 50, 20, 400) for n in range(5)]
    upright, flipped = [0.01] * 5, [0.98] * 5
    assert page_rotation(across, upright) == 0
    assert page_rotation(across, flipped) == 180
    assert page_rotation(down, upright) == 90
    assert page_rotation(down, flipped) == 270


def test_a_few_unsure_or_short_boxes_do_not_turn_the_page() -> None:
    lines = [quad(50, 50 + 30 * n, 400, 20) for n in range(4)]
    marks = [quad(600, 50, 18, 30), quad(700, 80, 15, 20)]  # a stamp, a page number
    votes = [0.05] * 3 + [0.6] + [0.99] * 2
    assert page_rotation(lines + marks, votes) == 0
