"""A line-end hyphen on an early page follows what a page far after it writes: a page
leaves the layout stream ``late_hyphens.HOLD`` pages after its furniture window, its
hyphens decided again then (``layout/late_hyphens.py``)."""

from __future__ import annotations

from omnireader.formats.layout.late_hyphens import decide_again
from omnireader.formats.layout.reflow import Vocabulary, reflow
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import build_pdf, paragraph

_FILLER = ["Each page of the report says a little more about the stores."]


def _body(pdf: bytes) -> list[str]:
    with extract_pdf(Blob(data=pdf)) as doc:
        return [s.text for s in doc.sections if s.part is None]


def test_a_first_page_break_follows_a_compound_written_ten_pages_later() -> None:
    first = ["The store sells a stand-", "alone unit and a small one for the kitchen."]
    later = ["Each stand-alone unit ships in one box with its own cable."]
    pages = [paragraph(72, 100, first)]
    pages += [paragraph(72, 100, [f"{_FILLER[0]} Page {n}."]) for n in range(2, 11)]
    pages.append(paragraph(72, 100, later))
    texts = _body(build_pdf(pages))
    assert "a stand-alone unit and a small one" in texts[0], texts[0]


def test_decide_again_keeps_each_decision_where_it_now_stands() -> None:
    vocabulary = Vocabulary()
    hyphens: list[tuple[int, str, str, str]] = []
    text = reflow(["a stand-", "alone unit, a stand-", "alone box"], vocabulary, None, hyphens)
    vocabulary.add_text("one stand-alone unit")
    again, moved = decide_again(text, hyphens, vocabulary)
    assert again == "a stand-alone unit, a stand-alone box"
    # Each decision names the word as it now stands, where it now stands: a third look
    # finds them all and changes nothing.
    assert [again[s : s + len(w)] for s, w, _, _ in moved] == ["stand-alone"] * 2
    assert decide_again(again, moved, vocabulary) == (again, moved)
    # A text changed since (cut, joined) keeps the words no longer where they were.
    assert decide_again("x" + text, hyphens, vocabulary) == ("x" + text, [])
