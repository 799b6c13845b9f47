"""Footnote marks set small and raised stay in their line, where they stand on the page
(``layout/marks.py``): "Short-term borrowings (b)" is one line, a footnote's "1" starts its
text, and a mark inside a sentence does not cut the sentence in two."""

from __future__ import annotations

import pypdfium2
import pytest

from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.words import page_words
from tests.formats.layout_pdfs import Text, build_pdf


def _lines(items: list[Text], compiled: bool) -> list[str]:
    page = pypdfium2.PdfDocument(build_pdf([items]))[0]
    words = page_words(page, page.get_textpage())
    return [line.text for line in make_lines(words, page.get_width(), compiled=compiled)]


def _end(text: str, size: float = 10.0) -> float:
    """Where ``text`` set at x 72 in Helvetica ends on the page."""
    page = pypdfium2.PdfDocument(build_pdf([[Text(72, 100, text, size)]]))[0]
    return page_words(page, page.get_textpage())[-1].x1


@pytest.mark.parametrize("compiled", [True, False])
def test_a_raised_mark_after_a_row_label_stays_on_its_line(compiled: bool) -> None:
    end = _end("Short-term borrowings")
    items = [
        Text(72, 100, "Short-term borrowings"),
        Text(end + 3, 96, "(b)", 6),  # raised 4 points, 6-point type
        Text(72, 114, "Long-term debt"),
    ]
    assert _lines(items, compiled) == ["Short-term borrowings (b)", "Long-term debt"]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_mark_inside_a_sentence_keeps_the_sentence_one_line(compiled: bool) -> None:
    end = _end("Revenue grew in Asia")
    items = [
        Text(72, 100, "Revenue grew in Asia"),
        Text(end + 3, 96, "2", 6),
        Text(end + 9, 100, "and fell in Europe."),
    ]
    assert _lines(items, compiled) == ["Revenue grew in Asia 2 and fell in Europe."]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_footnotes_own_mark_starts_its_text(compiled: bool) -> None:
    items = [Text(72, 96, "1", 6), Text(76, 100, "Includes the effect of the merger.")]
    assert _lines(items, compiled) == ["1 Includes the effect of the merger."]


def test_small_type_far_from_larger_text_stays_apart() -> None:
    items = [Text(72, 100, "Net sales"), Text(200, 96, "(b)", 6)]
    assert sorted(_lines(items, True)) == ["(b)", "Net sales"]
