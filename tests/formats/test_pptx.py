"""PPTX read with python-pptx directly: one section per slide, the title a heading, bullet
levels and numbered items kept, tables as Markdown tables, speaker notes apart. Decks are
built with python-pptx here; the MarkItDown corpus deck is read when it is present."""

from __future__ import annotations

import io
import re
from datetime import datetime
from pathlib import Path

import pytest
from pptx import Presentation
from pptx.util import Inches, Pt

from omnireader.errors import CorruptError
from omnireader.formats.office.pptx import extract_pptx
from omnireader.payloads import Blob

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "markitdown"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def _saved(deck: Presentation) -> Blob:
    buf = io.BytesIO()
    deck.save(buf)
    return Blob(data=buf.getvalue(), filename="deck.pptx")


def _numbered(paragraph, start: int | None = None) -> None:
    ppr = paragraph._p.get_or_add_pPr()
    auto = ppr.makeelement(f"{{{_A}}}buAutoNum", {"type": "arabicPeriod"})
    if start is not None:
        auto.set("startAt", str(start))
    ppr.append(auto)


def _deck() -> Blob:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])  # title and content
    slide.shapes.title.text = "Quarterly plan"
    body = slide.placeholders[1].text_frame
    body.text = "Hire"
    for text, level in (
        ("two engineers", 1),
        ("one designer", 1),
        ("Ship", 0),
        ("the reader", 1),
        ("its tests", 2),
    ):
        p = body.add_paragraph()
        p.text, p.level = text, level
    slide.notes_slide.notes_text_frame.text = "Say the budget is fixed."

    second = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    second.shapes.title.text = "Steps and numbers"
    box = second.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(2)).text_frame
    box.text = "Plain caption in a text box"
    for text in ("Open the file", "Read it", "Store it"):
        p = box.add_paragraph()
        p.text = text
        _numbered(p)
    table = second.shapes.add_table(3, 2, Inches(1), Inches(4.5), Inches(6), Inches(1)).table
    for r, row in enumerate([("City", "Visits"), ("Lyon", "3"), ("Porto | Braga", "5")]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    deck.core_properties.author = "Ana Lima"
    deck.core_properties.last_modified_by = "Ana Lima"  # the template names its own author
    deck.core_properties.created = datetime(2023, 9, 1, 8, 0)
    return _saved(deck)


def test_one_section_per_slide_title_heading_and_notes_apart() -> None:
    doc = extract_pptx(_deck())
    sections = list(doc.sections)
    assert [(s.page, s.part) for s in sections] == [(1, None), (1, "notes"), (2, None)]
    assert sections[0].heading == "Quarterly plan"
    assert sections[0].text.startswith("# Quarterly plan\n")
    assert sections[1].text == "Say the budget is fixed."
    assert doc.info.page_count == 2
    assert doc.info.authors == ["Ana Lima"]
    assert doc.info.created == "2023-09-01T08:00:00+00:00"


def test_bullet_levels_are_nested_markdown_lists() -> None:
    body = next(iter(extract_pptx(_deck()).sections)).text
    assert (
        "- Hire\n  - two engineers\n  - one designer\n- Ship\n  - the reader\n"
        "    - its tests" in body
    )


def test_numbered_items_count_and_a_plain_text_box_is_no_list() -> None:
    text = list(extract_pptx(_deck()).sections)[2].text
    assert "Plain caption in a text box\n\n1. Open the file\n2. Read it\n3. Store it" in text
    assert "- Plain caption" not in text


def test_a_table_is_a_markdown_table_with_pipes_escaped() -> None:
    text = list(extract_pptx(_deck()).sections)[2].text
    assert "| City | Visits |\n| --- | --- |\n| Lyon | 3 |\n| Porto \\| Braga | 5 |" in text


def test_a_deck_drawn_in_text_boxes_takes_its_largest_line_as_title() -> None:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank
    for text, size, top in (("Harbour survey", 40, 1), ("Done in May by the port team", 20, 3)):
        frame = slide.shapes.add_textbox(Inches(1), Inches(top), Inches(6), Inches(1)).text_frame
        frame.text = text
        frame.paragraphs[0].runs[0].font.size = Pt(size)
    [section] = extract_pptx(_saved(deck)).sections
    assert section.heading == "Harbour survey"
    assert section.text == "# Harbour survey\n\nDone in May by the port team"


def test_same_size_text_boxes_give_no_invented_title() -> None:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for top in (1, 3):
        frame = slide.shapes.add_textbox(Inches(1), Inches(top), Inches(6), Inches(1)).text_frame
        frame.text = f"Line at {top}"
        frame.paragraphs[0].runs[0].font.size = Pt(28)
    [section] = extract_pptx(_saved(deck)).sections
    assert section.heading is None and not section.text.startswith("#")


def test_a_damaged_package_is_corrupt() -> None:
    with pytest.raises(CorruptError):
        extract_pptx(Blob(data=b"PK\x03\x04 not really a deck", filename="bad.pptx"))


def test_everything_markitdown_found_in_the_corpus_deck_is_found() -> None:
    path = CORPUS / "test.pptx"
    if not path.is_file():
        pytest.skip("the shared MarkItDown corpus is absent")
    import json

    expected = json.loads((CORPUS / "expected.json").read_text())
    fragments = expected.get("files", expected)["test.pptx"]
    text = "\n".join(s.text for s in extract_pptx(Blob(path=str(path))).sections)
    for fragment in fragments["must_find"]:
        assert fragment in text
    for fragment in fragments.get("must_not_find", []):
        assert fragment not in text
    assert not re.search(r"\[image: Picture \d+\]", text)  # generated names are no alt text
