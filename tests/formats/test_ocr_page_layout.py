"""Scans laid out like text PDFs, with the real engine: pages drawn here (two columns, a
table with empty and "-" cells, a large title), saved as a scanned PDF or read as images.
Small pages at 150 dpi, so each costs the engine about a second."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rapidocr", reason="the OCR engine is not installed")

from PIL import Image, ImageDraw  # noqa: E402

from omnireader.formats.ocr import ocr_image  # noqa: E402
from omnireader.formats.ocr.to_layout import OcrLayout  # noqa: E402
from omnireader.formats.pdf.extract import extract_pdf  # noqa: E402
from omnireader.payloads import Blob  # noqa: E402
from tests.support import ocr_pages as pages  # noqa: E402

DPI = 150
LEFT = [
    "The harbour board met on Monday to",
    "review the budget for the new pier.",
    "Repairs to the north wall will start",
    "in April and last about six weeks.",
]
RIGHT = [
    "Ferry tickets for the summer season",
    "go on sale at the main office soon.",
    "Residents of the island pay half the",
    "usual fare on every crossing.",
]
TITLE = "Harbour Board News"
FOOTER = "Printed by the harbour office for the residents of the island and its visitors"


def _px(points: float) -> int:
    return round(points * DPI / 72)


def two_columns() -> Image.Image:
    """A large title across the page, two columns of text, a footer across both."""
    body, big = pages.font("aileron", _px(10)), pages.font("aileron", _px(20))
    image = Image.new("L", (round(8 * DPI), round(4.5 * DPI)), 255)
    draw = ImageDraw.Draw(image)
    margin, step = DPI // 2, _px(15)
    right = margin + round(3.8 * DPI)
    draw.text((margin, margin), TITLE, fill=0, font=big)
    top = margin + _px(40)
    for n, (a, b) in enumerate(zip(LEFT, RIGHT)):
        draw.text((margin, top + n * step), a, fill=0, font=body)
        draw.text((right, top + n * step), b, fill=0, font=body)
    draw.text((margin, top + 5 * step + _px(12)), FOOTER, fill=0, font=body)
    return image


ROWS = [
    ["Region", "Units", "Price", "Margin", "Status"],
    ["North", "450", "12.50", "-", "open"],
    ["South", "", "3.10", "4.2%", "closed"],
    ["East", "-", "400.01", "3", ""],
    ["West", "1200", "-", "7.5%", "open"],
]


def table(gap_em: float = 1.0) -> Image.Image:
    """A borderless table whose columns stand ``gap_em`` apart: tight enough that the
    detector runs header cells and numbers of neighbouring cells into one box."""
    body = pages.font("aileron", _px(10))
    widths = [max(body.getlength(row[c]) for row in ROWS) for c in range(len(ROWS[0]))]
    image = Image.new("L", (round(6.5 * DPI), round(2.2 * DPI)), 255)
    draw = ImageDraw.Draw(image)
    x, xs = DPI // 2, []
    for width in widths:
        xs.append(x)
        x += width + gap_em * _px(10)
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            if cell:
                draw.text((xs[c], DPI // 2 + r * _px(16)), cell, fill=0, font=body)
    return image


def _markdown_table(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + " --- |" * len(rows[0]))
    return "\n".join(lines)


def test_a_two_column_scan_reads_column_by_column_under_its_title() -> None:
    read = ocr_image(two_columns())
    assert not read.layout_failed
    # A line twice the body's size is a top heading; its box's height measures it to
    # about a tenth (ascenders and descenders), so level 1 or 2.
    assert read.text.splitlines()[0] in (f"# {TITLE}", f"## {TITLE}")
    flat = " ".join(read.text.split())
    order = [flat.find(line) for line in [*LEFT, *RIGHT, FOOTER]]
    assert -1 not in order, read.text
    assert order == sorted(order), read.text
    heading = read.blocks[0]
    assert heading.kind == "heading" and heading.level in (1, 2)


def test_with_the_layout_off_a_scan_reads_straight_across() -> None:
    read = ocr_image(two_columns(), layout=False)
    assert f"{LEFT[0]} {RIGHT[0]}" in read.text
    assert not read.text.startswith("#")


def test_a_scanned_table_keeps_every_cell_in_its_column_with_empty_and_dash_cells() -> None:
    read = ocr_image(table(gap_em=1.0))
    [block] = [b for b in read.blocks if b.table]
    assert block.kind == "table"
    assert "\n".join(line.text for line in block.lines) == _markdown_table(ROWS)
    assert all(0 <= v <= 1 for line in block.lines for v in line.bbox)


def test_a_noisy_skewed_scanned_table_keeps_its_cells_too() -> None:
    page = pages.noisy(pages.Page("table", table(gap_em=1.0), ""), seed=2)
    [block] = [b for b in ocr_image(page.image).blocks if b.table]
    assert "\n".join(line.text for line in block.lines) == _markdown_table(ROWS)


def test_a_page_whose_layout_fails_keeps_its_plain_reading_and_says_so() -> None:
    read = ocr_image(two_columns(), layout=OcrLayout(budget=0.0))
    assert read.layout_failed
    assert read.text == ocr_image(two_columns(), layout=False).text


def test_a_scanned_pdf_is_laid_out_in_page_points_with_its_heading_path(tmp_path: Path) -> None:
    path = pages.write_pdf([two_columns(), table()], tmp_path / "scan.pdf", dpi=DPI)
    with extract_pdf(Blob(path=str(path)), ocr="auto", layout=True) as doc:
        first, second = [s for s in doc.sections if s.page is not None]
    assert first.text.lstrip("#").startswith(f" {TITLE}\n\n{LEFT[0]}")
    assert first.ocr is not None and "ocr" in first.flags
    assert second.heading_path == [TITLE]  # the scan's heading carries to the next page
    assert _markdown_table(ROWS) in second.text
    with extract_pdf(Blob(path=str(path)), ocr="auto", layout=False) as doc:
        plain = next(s for s in doc.sections if s.page == 1)
    assert f"{LEFT[0]} {RIGHT[0]}" in plain.text and not plain.heading_path


def test_an_image_file_follows_the_layout_switch(tmp_path: Path) -> None:
    from omnireader import Reader
    from omnireader.options import ReadOptions

    path = tmp_path / "scan.png"
    two_columns().save(path)
    texts = {}
    for layout in (True, False):
        items = Reader(options=ReadOptions(layout=layout)).read(path)
        texts[layout] = " ".join(i.memory for i in items if "ocr" in i.metadata.flags)
    assert " ".join(LEFT) in " ".join(texts[True].split())
    assert f"{LEFT[0]} {RIGHT[0]}" in texts[False]


# -- what OCR items say of their blocks


def _file_items(path: Path) -> list:
    from omnireader.parsers.base import ParseContext
    from omnireader.parsers.file import FileParser

    return FileParser().parse_fast(Blob(path=str(path)), ParseContext())


def test_scanned_pdf_items_name_each_block_kind_and_the_heading_level(tmp_path: Path) -> None:
    path = pages.write_pdf([two_columns(), table()], tmp_path / "scan.pdf", dpi=DPI)
    first, second = _file_items(path)
    blocks = first.metadata.extra["ocr_blocks"]
    # Like a text PDF's layout_blocks: the title is a heading with its level, the columns
    # and the footer are paragraphs; each keeps its box as page fractions.
    assert [b["kind"] for b in blocks] == ["heading", "paragraph", "paragraph", "paragraph"]
    assert blocks[0]["level"] in (1, 2) and all("level" not in b for b in blocks[1:])
    assert all(0 <= v <= 1 for b in blocks for v in b["bbox"])
    [table_block] = second.metadata.extra["ocr_blocks"]
    assert table_block["kind"] == "table" and table_block["table"] is True
    assert all("layout_failed" not in i.metadata.flags for i in (first, second))


def test_an_ocr_page_whose_layout_failed_flags_its_items_and_names_no_kinds() -> None:
    from omnireader.parsers.base import ParseContext
    from omnireader.parsers.image import ImageParser
    from omnireader.parsers.ocr_items import ocr_items

    # The same function makes the items of scanned PDF pages and of images.
    failed = ocr_image(two_columns(), layout=OcrLayout(budget=0.0))
    source = ImageParser().create_source(Blob(data=b"two columns", filename="scan.png"))
    [item] = ocr_items(ImageParser(), ParseContext(), failed, source=source, position=("p",))
    assert item.metadata.flags == ["ocr", "layout_failed"]
    assert all("kind" not in b for b in item.metadata.extra["ocr_blocks"])
    assert item.memory == failed.text  # the plain reading, kept whole


def test_an_image_file_item_names_its_block_kinds(tmp_path: Path) -> None:
    from omnireader import Reader

    path = tmp_path / "scan.png"
    two_columns().save(path)
    [item] = [i for i in Reader().read(path) if "ocr" in i.metadata.flags]
    kinds = [b["kind"] for b in item.metadata.extra["ocr_blocks"]]
    assert kinds[0] == "heading" and set(kinds[1:]) == {"paragraph"}
    assert item.metadata.flags == ["ocr"]


# -- running headers and page numbers on scanned pages

RUNNING = "Harbour Board News, spring issue"
BODIES = [
    ["The pier repairs start in April", "and take about six weeks."],
    ["Ferry tickets go on sale soon", "at the main office by the quay."],
    ["Residents pay half the fare", "on every crossing this summer."],
]


def letter(number: int, body: list[str], shift: int = 0) -> Image.Image:
    """A small scanned page: a running header atop, body lines, its number at the foot;
    everything ``shift`` pixels lower, as a page fed a little off on the scanner."""
    font = pages.font("aileron", _px(10))
    image = Image.new("L", (round(5 * DPI), round(4 * DPI)), 255)
    draw = ImageDraw.Draw(image)
    margin = DPI // 2
    draw.text((margin, DPI // 3 + shift), RUNNING, fill=0, font=font)
    for n, line in enumerate(body):
        draw.text((margin, DPI + shift + n * _px(15)), line, fill=0, font=font)
    draw.text((round(2.5 * DPI), round(3.5 * DPI) + shift), str(number), fill=0, font=font)
    return image


def test_scanned_pages_put_their_running_header_and_page_number_apart(tmp_path: Path) -> None:
    # Each page lies 7 px (about 1 mm) lower than the one before: the header is still
    # the same header.
    images = [letter(n, body, shift=7 * (n - 1)) for n, body in enumerate(BODIES, start=1)]
    items = _file_items(pages.write_pdf(images, tmp_path / "letters.pdf", dpi=DPI))
    body = [i for i in items if "ocr" in i.metadata.flags]
    # Each page's body is its own lines only; its printed number is its label.
    assert [i.memory for i in body] == ["\n".join(lines) for lines in BODIES]
    assert [i.metadata.extra.get("page_label") for i in body] == ["1", "2", "3"]
    assert all(RUNNING not in str(i.metadata.extra["ocr_blocks"]) for i in body)
    # The running header is said once, as a header item, not on every page.
    [header] = [i for i in items if i.metadata.extra.get("section") == "header"]
    assert header.memory == RUNNING and header.source.page == 1
    assert len(items) == 4


def test_a_single_image_keeps_its_header_line_and_number(tmp_path: Path) -> None:
    from omnireader import Reader

    path = tmp_path / "letter.png"
    letter(1, BODIES[0]).save(path)
    [item] = [i for i in Reader().read(path) if "ocr" in i.metadata.flags]
    assert item.memory.splitlines()[0] == RUNNING and item.memory.splitlines()[-1] == "1"
    assert "page_label" not in item.metadata.extra
