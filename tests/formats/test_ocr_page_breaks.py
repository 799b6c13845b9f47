"""A paragraph a page break cuts on scanned pages is made whole on the page where it began,
as on text pages (``layout/scan_pages.py``), with the real engine: small pages drawn here,
saved as a scanned PDF (about a second a page)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rapidocr", reason="the OCR engine is not installed")

from PIL import Image, ImageDraw  # noqa: E402

from omnireader.payloads import Blob  # noqa: E402
from tests.support import ocr_pages as pages  # noqa: E402

DPI = 150
FIRST = [
    "The harbour board met on Monday to",
    "review the budget for the new pier and",
    "agreed that the repairs of the north wall",
    "will start in April, after the con-",
]
SECOND = ["firming vote of the residents, and last", "about six weeks in all."]
THIRD = ["Ferry tickets go on sale at the office", "by the quay from the first of May."]


def _px(points: float) -> int:
    return round(points * DPI / 72)


def _page(lines: list[str], number: int) -> Image.Image:
    font = pages.font("aileron", _px(10))
    image = Image.new("L", (round(5 * DPI), round(4 * DPI)), 255)
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        draw.text((DPI // 2, DPI // 2 + n * _px(15)), line, fill=0, font=font)
    draw.text((round(2.5 * DPI), round(3.5 * DPI)), str(number), fill=0, font=font)
    return image


def _items(path: Path) -> list:
    from omnireader.parsers.base import ParseContext
    from omnireader.parsers.file import FileParser

    return FileParser().parse_fast(Blob(path=str(path)), ParseContext())


def test_a_paragraph_cut_by_a_scanned_page_break_is_one_item(tmp_path: Path) -> None:
    images = [_page(lines, n) for n, lines in enumerate([FIRST, SECOND, THIRD], start=1)]
    items = _items(pages.write_pdf(images, tmp_path / "scan.pdf", dpi=DPI))
    body = [i for i in items if "ocr" in i.metadata.flags]
    # The first page's paragraph ends on the second; the word broken at the page's last
    # hyphen is whole ("con-" + "firming": neither half a word of the document).
    first = body[0]
    assert first.memory == "\n".join(
        [
            *FIRST[:-1],
            "will start in April, after the confirming",
            "vote of the residents, and last",
            "about six weeks in all.",
        ]
    )
    assert (first.source.page, first.source.page_end) == (1, 2)
    lines = [line for b in first.metadata.extra["ocr_blocks"] for line in b["lines"]]
    assert [line.get("page") for line in lines] == [None] * 4 + [2, 2]
    # A finished sentence ends the second page: the third stands alone.
    assert [(i.source.page, i.source.page_end, i.memory) for i in body[1:]] == [
        (3, None, "\n".join(THIRD))
    ]
