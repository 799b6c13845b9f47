"""OCR'd boxes through the page layout, and the plain reading: geometry on boxes, no engine,
no image (the same on real scans: ``test_ocr_page_layout.py``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from omnireader.formats.ocr.boxes import Box, box_words, plain_blocks
from omnireader.formats.ocr.orientation import page_rotation
from omnireader.formats.ocr.rapid import word_spans
from omnireader.formats.ocr.to_layout import OcrLayout, lay_out, ocr_words


def box(x0: float, y0: float, text: str, w: float | None = None, h: float = 20) -> Box:
    w = w if w is not None else 9 * len(text)
    corners = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
    return Box(x0, y0, x0 + w, y0 + h, text, 0.99, quad=corners)


def texts(blocks) -> list[str]:
    return [line.text for block in blocks for line in block.lines]


def test_two_columns_are_read_left_column_first_under_a_title_across_both() -> None:
    title = box(100, 50, "Annual report of the harbour trust and its yearly accounts", w=700)
    left = [
        box(100, 120 + 30 * n, f"left column line number {n} of the text", w=330) for n in range(6)
    ]
    right = [
        box(470, 120 + 30 * n, f"right column line number {n} of the text", w=330) for n in range(6)
    ]
    footer = box(100, 400, "Page one of the report, printed in March", w=700)
    blocks = lay_out([footer, *right, title, *left], 1000, 500, OcrLayout())
    assert texts(blocks) == [
        title.text,
        *(b.text for b in left),
        *(b.text for b in right),
        footer.text,
    ]


def test_a_table_keeps_its_cells_in_columns_with_the_empty_ones() -> None:
    rows = [("Item", "Qty", "Price"), ("Coffee", "2", "7.00"), ("Bread", "", "3.50")]
    boxes = [
        box(100 + 250 * c, 100 + 30 * r, cell)
        for r, row in enumerate(rows)
        for c, cell in enumerate(row)
        if cell
    ]
    [block] = lay_out(boxes, 1000, 400, OcrLayout())
    assert block.table and block.kind == "table"
    assert texts([block]) == [
        "| Item | Qty | Price |",
        "| --- | --- | --- |",
        "| Coffee | 2 | 7.00 |",
        "| Bread |  | 3.50 |",
    ]
    assert block.lines[2].bbox[1] > block.lines[0].bbox[1]  # each row keeps its own box


def test_a_larger_line_is_a_heading_and_a_gap_starts_a_new_block() -> None:
    boxes = [
        box(50, 20, "Harbour accounts", w=400, h=40),
        box(50, 90, "First paragraph, line one of the report", w=400),
        box(50, 115, "first paragraph, line two of the report", w=400),
        box(50, 200, "Second paragraph after a gap in the text", w=400),
    ]
    blocks = lay_out(boxes, 1000, 500, OcrLayout())
    assert [b.kind for b in blocks] == ["heading", "paragraph", "paragraph"]
    assert blocks[0].lines[0].text.startswith("# Harbour accounts")
    assert [len(b.lines) for b in blocks] == [1, 2, 1]
    assert blocks[1].lines[0].bbox == (0.05, 0.18, 0.45, 0.22)


def test_boxes_on_one_line_close_together_are_one_line_in_reading_order() -> None:
    [block] = lay_out(
        [box(300, 100, "brown fox", w=100), box(100, 102, "The quick", w=180)],
        1000,
        400,
        OcrLayout(),
    )
    assert texts([block]) == ["The quick brown fox"]


def test_the_plain_reading_goes_straight_across_row_by_row() -> None:
    boxes = [
        box(470, 100, "right one", w=300),
        box(100, 100, "left one", w=300),
        box(100, 125, "left two", w=300),
        box(100, 220, "after a gap", w=300),
    ]
    blocks = plain_blocks(boxes, 1000, 500)
    assert [texts([b]) for b in blocks] == [["left one right one", "left two"], ["after a gap"]]
    assert blocks[0].lines[0].bbox == (0.1, 0.2, 0.77, 0.24)


def test_words_lie_along_their_box_and_take_its_height_as_their_size() -> None:
    b = box(100, 100, "alpha beta", w=200, h=25)
    b.spans = [("alpha", 0.0, 0.5), ("beta", 0.6, 1.0)]
    assert [w[:2] for w in box_words(b)] == [("alpha", 100.0), ("beta", 220.0)]
    skewed = Box(0, 0, 200, 30, "a b", 0.9, quad=((0, 10), (200, 0), (200, 20), (0, 30)))
    (_, _, ay0, _, ay1), (_, _, by0, _, by1) = box_words(skewed)
    assert ay0 > by0 and ay1 > by1  # each word keeps its own stretch of a skewed line
    words, _, scale = ocr_words([b], scale=0.5)
    assert scale == 0.5 and words[0].size == 10.0  # 0.8 of a 25 px box, at 0.5 pt a pixel


def test_word_spans_come_from_the_recognisers_columns_and_split_fused_numbers() -> None:
    info = SimpleNamespace(word_cols=[[2, 4, 6], [12, 14], [30]], line_txt_len=40.0)
    spans = word_spans("abc de 3", info)
    assert [w for w, _, _ in spans] == ["abc", "de", "3"]
    assert spans[0][1] == (2 - 1) / 40 and spans[1][2] == (14 + 1.5) / 40
    fused = SimpleNamespace(word_cols=[[2, 4, 6, 8], [16]], line_txt_len=20.0)
    assert [w for w, _, _ in word_spans("1.50" + "3", fused)] == ["1.50", "3"]
    letters = SimpleNamespace(word_cols=[[2, 4], [12]], line_txt_len=20.0)
    assert [w for w, _, _ in word_spans("Wow", letters)] == ["Wow"]
    mixed = SimpleNamespace(word_cols=[[2, 4], [12, 14]], line_txt_len=20.0)
    assert [w for w, _, _ in word_spans("No45", mixed)] == ["No", "45"]
    assert word_spans("abc", SimpleNamespace(word_cols=[[1]], line_txt_len=9.0)) is None


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
