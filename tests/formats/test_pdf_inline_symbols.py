"""A math symbol set in another size inside a line of text stays in that line
(``layout/inline_symbols.py``): "of time t − 1 and at the next one t + 1" is one line, and
the paragraph it is in reads in order, not as columns of its pieces."""

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


def _line(y: float, pieces: list[str]) -> list[Text]:
    """A line of text whose pieces are parted by a "+" set in 15 points, 3 points low, as
    a symbol font's operator comes in a book's inline math."""
    items: list[Text] = []
    x = 72.0
    for i, piece in enumerate(pieces):
        if i:
            items.append(Text(x + 2, y + 3, "+", 15))
            x = _end("+", x + 2, 15) + 3
        if piece:  # an empty last piece: the line ends with the symbol
            items.append(Text(x, y, piece))
            x = _end(piece, x) + 0.5
    return items


_PARAGRAPH = [
    ["Principle 1. At every moment of time t and for every state with entropy S, there"],
    ["are very many accessible states with higher entropy, both at the previous moment"],
    ["of time t", "1 and at the next one t", "1. On the other hand, the chance for"],
    ["finding such accessible states with lower entropy, both at times t", "1 and t", ""],
    ["1, is extremely small. This principle also implies a shift of perspective in the"],
]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_larger_symbol_inside_a_line_keeps_the_line_whole(compiled: bool) -> None:
    page = pypdfium2.PdfDocument(build_pdf([_line(100, _PARAGRAPH[2])]))[0]
    words = page_words(page, page.get_textpage())
    lines = make_lines(words, page.get_width(), compiled=compiled)
    assert [line.text for line in lines] == [
        "of time t + 1 and at the next one t + 1. On the other hand, the chance for"
    ]
    # The symbol's box is cut to its line's: the line is no taller than its text.
    assert lines[0].y1 - lines[0].y0 < 13


def test_a_paragraph_with_inline_symbols_reads_in_order() -> None:
    items = [t for i, pieces in enumerate(_PARAGRAPH) for t in _line(100 + 12 * i, pieces)]
    with extract_pdf(Blob(data=build_pdf([items])), layout=True) as doc:
        (text,) = [s.text for s in doc.sections if s.part is None]
    assert " ".join(text.split()) == (
        "Principle 1. At every moment of time t and for every state with entropy S, there are "
        "very many accessible states with higher entropy, both at the previous moment of time "
        "t + 1 and at the next one t + 1. On the other hand, the chance for finding such "
        "accessible states with lower entropy, both at times t + 1 and t + 1, is extremely "
        "small. This principle also implies a shift of perspective in the"
    )


def test_a_larger_word_a_column_gap_away_stays_apart() -> None:
    # A figure's big "+" label across a gutter from the text is no part of its line.
    items = [
        Text(72, 100, "The left column ends here"),
        Text(_end("The left column ends here") + 30, 103, "+", 15),
    ]
    page = pypdfium2.PdfDocument(build_pdf([items]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width())
    assert [line.text for line in lines] == ["The left column ends here", "+"]
