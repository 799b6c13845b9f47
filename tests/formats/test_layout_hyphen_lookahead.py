"""A line-end hyphen on an early page is decided knowing the pages after it: the document's
vocabulary learns them before the page leaves the layout stream (late_hyphens.decide_again)."""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.layout.late_hyphens import decide_again
from omnireader.formats.layout.reflow import Vocabulary, reflow
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import build_pdf, paragraph


def _body(pdf: bytes) -> list[Section]:
    with extract_pdf(Blob(data=pdf)) as doc:
        return [s for s in doc.sections if s.part is None]


def test_a_first_page_break_follows_the_compound_a_later_page_writes() -> None:
    first = ["The store sells a stand-", "alone unit and a small one for the kitchen."]
    later = ["Each stand-alone unit ships in one box with its own cable."]
    pdf = build_pdf([paragraph(72, 100, first), paragraph(72, 100, later)])
    pages = _body(pdf)
    assert "a stand-alone unit" in pages[0].text, pages[0].text


def test_a_first_page_break_follows_the_word_a_later_page_writes() -> None:
    # "data" and "base" are words of the first page, so alone it keeps the hyphen.
    first = [
        "The data sit at the base of the stack.",
        "We load them into one data-",
        "base at night and read it in the day.",
    ]
    later = ["The database is copied to a second site each week."]
    pdf = build_pdf([paragraph(72, 100, first), paragraph(72, 100, later)])
    pages = _body(pdf)
    assert "one database at night" in pages[0].text, pages[0].text


def test_a_break_decided_again_takes_a_break_again_with_what_the_vocabulary_knows_now() -> None:
    vocabulary = Vocabulary()
    hyphens: list[tuple[int, str, str, str]] = []
    text = reflow(["a stand-", "alone unit, a stand-", "alone box"], vocabulary, None, hyphens)
    assert text == "a standalone unit, a standalone box"
    assert len(hyphens) == 2
    vocabulary.add_text("one stand-alone unit")
    again, decided = decide_again(text, hyphens, vocabulary)
    assert again == "a stand-alone unit, a stand-alone box"
    assert [word for _, word, _, _ in decided] == ["stand-alone", "stand-alone"]
    # A text changed since (cut, joined) keeps the words no longer where they were.
    assert decide_again("x" + text, hyphens, vocabulary) == ("x" + text, [])
