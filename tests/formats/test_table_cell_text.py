"""A table cell's words as its text (omnireader.formats.layout.tables_text.cell_text): its
lines top to bottom, each in reading order, a compound a narrow column broke joined."""

from __future__ import annotations

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.tables_text import cell_text


def line(y: float, *texts: str, x: float = 100.0) -> list[Word]:
    out = []
    for text in texts:
        out.append(Word(text, x, y, x + 6 * len(text), y + 10, 10.0))
        x += 6 * len(text) + 4
    return out


def test_a_compound_broken_at_a_cells_line_end_is_one_word() -> None:
    words = [*line(100, "Net", "after-"), *line(112, "tax", "earnings")]
    assert cell_text(words) == "Net after-tax earnings"
    # A line that does not end in a hyphen after a letter is joined with a space.
    assert cell_text([*line(100, "Total", "-"), *line(112, "net")]) == "Total - net"


def test_right_to_left_words_in_a_cell_read_in_their_order() -> None:
    # PDFium gives the glyphs where they stand: "سلطان" left of "اسمي" for "اسمي سلطان".
    words = line(100, "سلطان", "اسمي")
    assert cell_text(words) == "اسمي سلطان"
