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


def _end(text: str, size: float = 10.0, x: float = 72) -> float:
    """Where ``text`` set at ``x`` in Helvetica ends on the page."""
    page = pypdfium2.PdfDocument(build_pdf([[Text(x, 100, text, size)]]))[0]
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


@pytest.mark.parametrize("compiled", [True, False])
def test_a_notes_label_hanging_in_the_margin_starts_its_indented_text(compiled: bool) -> None:
    # Notes under a filing's table: the label "(a)" in the margin, the note's text indented
    # 1.3 of its em right of it (Lockheed's, Boeing's, Pfizer's). The label stood alone,
    # a paragraph before its note or after it.
    items = [
        Text(49.5, 279, "(a)", 6),
        Text(67.5, 282, "We close our books and records on the last Sunday of each month.", 9),
        Text(49.5, 293, "(b)", 6),
        Text(67.5, 296, "In 2010, our Board approved a share repurchase program.", 9),
    ]
    assert _lines(items, compiled) == [
        "(a) We close our books and records on the last Sunday of each month.",
        "(b) In 2010, our Board approved a share repurchase program.",
    ]


def test_a_small_word_as_far_before_a_line_is_no_label_of_it() -> None:
    # 1.5 em apart: as far as a note's label may hang, but "Net" is no label.
    items = [Text(44, 279, "Net", 6), Text(67.5, 282, "Sales grew in every region.", 9)]
    assert sorted(_lines(items, True)) == ["Net", "Sales grew in every region."]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_mark_raised_over_a_gap_inside_a_whole_line_goes_into_the_gap(compiled: bool) -> None:
    # Activision's "Rise of Shadows™, Saviors of Uldum™": the line's text is one run, the
    # trademark signs stand over it, set small and raised; each goes after its name.
    first = "Expansions: Rise of Shadows"
    second = ", Saviors of Uldum"
    a = _end(first)
    b = _end(second, 10.0, a + 8)
    items = [
        Text(72, 100, first),
        Text(a + 1, 94, "TM", 5),
        Text(a + 8, 100, second),
        Text(b + 1, 94, "TM", 5),
        Text(b + 8, 100, ", and more."),
    ]
    lines = _lines(items, compiled)
    assert len(lines) == 1  # (the spaces around a mark follow the gaps: not asserted)
    assert "".join(lines[0].split()) == "Expansions:RiseofShadowsTM,SaviorsofUldumTM,andmore."
