"""A justified line whose spaces were stretched past the line-cutting gap stays one line
(``layout/stretched_lines.py``), and its paragraph reads in order; two columns whose gutter
is as wide as a row's spaces stay apart."""

from __future__ import annotations

import pypdfium2
import pytest

from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.words import page_words
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf


def _end(text: str, x: float = 72, size: float = 10.0) -> float:
    """Where ``text`` set at ``x`` in Helvetica ends on the page."""
    page = pypdfium2.PdfDocument(build_pdf([[Text(x, 100, text, size)]]))[0]
    return page_words(page, page.get_textpage())[-1].x1


def _spaced(x: float, y: float, words: list[str], space: float) -> list[Text]:
    """``words`` set one by one from ``x``, ``space`` points apart."""
    items = []
    for word in words:
        items.append(Text(x, y, word))
        x = _end(word, x) + space
    return items


_PARAGRAPH = [
    "the states, the union and the cities.",
    "These changes in compliance",  # stretched: every space 20 pt (2 em)
    "requirements occur constantly and",
    "add to the uncertainty of business.",
]


def _paragraph() -> list[Text]:
    items = [Text(72, 100, _PARAGRAPH[0])]
    items += _spaced(72, 112, _PARAGRAPH[1].split(), 20)
    items += [Text(72, 124 + 12 * i, text) for i, text in enumerate(_PARAGRAPH[2:])]
    return items


@pytest.mark.parametrize("compiled", [True, False])
def test_a_line_with_stretched_spaces_stays_one_line(compiled: bool) -> None:
    page = pypdfium2.PdfDocument(build_pdf([_paragraph()]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width(), compiled=compiled)
    assert [line.text for line in lines] == _PARAGRAPH


def test_a_paragraph_with_a_stretched_line_reads_in_order() -> None:
    with extract_pdf(Blob(data=build_pdf([_paragraph()])), layout=True) as doc:
        (text,) = [s.text for s in doc.sections if s.part is None]
    assert " ".join(text.split()) == " ".join(_PARAGRAPH)


@pytest.mark.parametrize("compiled", [True, False])
def test_two_columns_as_far_apart_as_a_rows_spaces_stay_apart(compiled: bool) -> None:
    # The middle row's words are 20 pt apart and so is the right column from the left one
    # there, every space alike; no line of the rows around crosses that gutter.
    beta_end = _end("beta", _end("alpha") + 20)
    right = beta_end + 20
    items = _spaced(72, 112, ["alpha", "beta"], 20) + _spaced(right, 112, ["gamma", "delta"], 20)
    for y in (100, 124):
        items += [Text(72, y, "the left"), Text(right, y, "the right column")]
    assert _end("the left") < beta_end
    page = pypdfium2.PdfDocument(build_pdf([items]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width(), compiled=compiled)
    texts = [line.text for line in lines]
    assert "the right column" in texts
    assert not any("beta" in text and "gamma" in text for text in texts)


@pytest.mark.parametrize("compiled", [True, False])
def test_evenly_spaced_years_under_a_title_stay_a_tables_column_heads(compiled: bool) -> None:
    # "2021  2020  2019" 50 pt apart under "Year Ended December 31, …": figures, not prose.
    items = [Text(300, 100, "Year Ended December 31, in millions of dollars")]
    items += [Text(300 + 50 * i, 112, year) for i, year in enumerate(("2021", "2020", "2019"))]
    page = pypdfium2.PdfDocument(build_pdf([items]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width(), compiled=compiled)
    assert [line.text for line in lines][1:] == ["2021", "2020", "2019"]
