"""A math glyph's box that is not its line's height keeps its line whole and in its place
(``lines._bands``, ``inline_symbols.tall_symbols_fitted``): in TeX's "in which d1 > 0 and
0 ≤ di < β." the ">" comes with a box of its ink (7.8 pt of 10.4 pt type) and the "≤"
with a loose one 1.7 em tall reaching half a line down. The row started from the ">" was
too short to take the "≤", which then started a row of its own and took the next line;
the lines overlapped and the paragraph was cut apart. Boxes as PDFium gives them on a
LaTeX book's page (URW Palladio text, CMMI/CMSY symbols)."""

from __future__ import annotations

import pytest

from omnireader.formats.layout.blocks import make_blocks
from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.model import Word

_TEXT = 10.0  # the text's size; the symbols are 10.4


def _row(y: float, spec: list[tuple[str, float, float]], x: float = 90.0) -> list[Word]:
    """Words left to right from ``x``, each (text, width, gap after): text words full
    height (``y`` to ``y`` + 10.1), at the text's size."""
    out = []
    for text, width, gap in spec:
        out.append(Word(text, x, y, x + width, y + 10.1, _TEXT))
        x += width + gap
    return out


def _words() -> list[Word]:
    first = _row(609.9, [("in", 8.7, 2.3), ("which,", 29.7, 2.2), ("by", 11.2, 2.3)])
    first += [
        Word("definition,", 146.4, 609.9, 191.7, 620.0, _TEXT),
        Word("d1", 194.3, 609.8, 203.2, 621.1, _TEXT),
        Word(">", 206.6, 609.8, 214.7, 617.6, 10.4),  # the glyph's ink
        Word("0", 217.6, 609.9, 222.5, 620.0, _TEXT),
        Word("and", 224.9, 609.9, 241.8, 620.0, _TEXT),
        Word("0", 244.0, 609.9, 248.9, 620.0, _TEXT),
        Word("\u2264", 251.9, 609.4, 259.9, 627.1, 10.4),  # a loose box, half a line down
        Word("di", 262.9, 609.8, 270.3, 621.1, _TEXT),
        Word("<", 273.7, 609.8, 281.8, 617.6, 10.4),
        Word("\u03b2.", 285.1, 609.8, 293.1, 620.0, _TEXT),
        Word("The", 296.2, 609.9, 312.8, 620.0, _TEXT),
        Word("normalization", 315.1, 609.9, 377.2, 620.0, _TEXT),
    ]
    second = _row(621.9, [("waste", 25.5, 2.6), ("of", 8.8, 2.6), ("digits", 24.8, 2.7)])
    second += _row(621.9, [("and", 16.8, 2.6), ("to", 8.7, 2.6), ("make", 24.1, 2.5)], 157.0)
    second += _row(621.9, [("the", 13.8, 2.7), ("representation", 63.6, 2.4)], 214.3)
    second += _row(621.9, [("unambiguous.", 63.5, 3.5), ("We", 13.8, 2.7)], 296.8)
    third = _row(633.7, [("a", 4.9, 2.3), ("floating", 34.0, 2.4), ("point", 22.0, 2.4)])
    third += _row(633.7, [("number", 36.0, 2.4), ("(representation)", 70.0, 2.4)], 170.0)
    third += _row(633.7, [("in", 8.7, 2.3), ("which", 26.0, 2.4)], 280.8)
    return first + second + third


@pytest.mark.parametrize("compiled", [True, False])
def test_a_short_glyph_box_and_a_tall_symbol_box_keep_their_line(compiled: bool) -> None:
    lines = make_lines(_words(), 595.0, compiled=compiled)
    assert [line.text for line in lines] == [
        "in which, by definition, d1 > 0 and 0 \u2264 di < \u03b2. The normalization",
        "waste of digits and to make the representation unambiguous. We",
        "a floating point number (representation) in which",
    ]
    # The "≤"'s box is cut to its line's text: the lines do not overlap.
    assert lines[0].y1 <= lines[1].y0 and lines[1].y1 <= lines[2].y0


def test_the_paragraph_with_such_symbols_is_one_block() -> None:
    blocks = make_blocks(make_lines(_words(), 595.0))
    assert len(blocks) == 1
    assert [line.text.split()[0] for line in blocks[0].lines] == ["in", "waste", "a"]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_display_formulas_tall_symbols_are_left_as_they_are(compiled: bool) -> None:
    # A line of nothing but symbols (an integral sign, a radical) has no text to cut them
    # to: they keep their boxes.
    words = [
        Word("\u222b", 263.0, 354.0, 270.0, 383.0, 10.0),
        Word("\u221a", 271.0, 355.0, 284.0, 380.0, 10.0),
    ]
    (line,) = make_lines(words, 595.0, compiled=compiled)
    assert (line.y0, line.y1) == (354.0, 383.0)
