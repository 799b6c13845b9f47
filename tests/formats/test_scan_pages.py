"""What carries on across a scanned page break (``layout/scan_pages.py: carry_scan``), on
OCR readings built here (the engine's own run is in ``test_ocr_page_breaks.py``)."""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.layout.scan_pages import HeldScan, carry_scan
from omnireader.formats.ocr.base import OcrBlock, OcrLine, OcrPage


def _page(lines: list[str], height: float = 0.03, kind: str | None = "paragraph") -> OcrPage:
    read = [
        OcrLine(text=t, bbox=(0.1, 0.1 + 0.04 * n, 0.9, 0.1 + 0.04 * n + height), confidence=0.99)
        for n, t in enumerate(lines)
    ]
    block = OcrBlock(bbox=(0.1, 0.1, 0.9, 0.9), lines=read, kind=kind)
    return OcrPage(engine="test", blocks=[block], width=750, height=600)


def _carry(before: OcrPage, after: OcrPage) -> tuple[HeldScan, OcrPage]:
    held = HeldScan(Section(text=before.text, page=1, ocr=before))
    vocabulary = Vocabulary()
    vocabulary.add_text("the network was built")
    return held, carry_scan(held, after, 2, vocabulary)


def test_the_next_scan_s_first_lines_end_the_paragraph_and_name_their_page() -> None:
    held, rest = _carry(
        _page(["The pier repairs start in April and the net-"]),
        _page(["work of ferries goes on.", "Next."]),
    )
    assert (
        held.section.text
        == "The pier repairs start in April and the network\nof ferries goes on.\nNext."
    )
    assert [line.page for line in held.section.ocr.lines] == [None, 2, 2]
    assert rest.blocks == []


def test_a_finished_sentence_another_size_or_a_failed_layout_carries_nothing() -> None:
    cases = [
        (_page(["The repairs start in April."]), _page(["and take six weeks."])),
        (_page(["The repairs start in April"]), _page(["and take six weeks."], height=0.02)),
        (_page(["The repairs start in April"], kind=None), _page(["and take six weeks."])),
    ]
    for before, after in cases:
        held, rest = _carry(before, after)
        assert held.section.text == before.text and rest is after
