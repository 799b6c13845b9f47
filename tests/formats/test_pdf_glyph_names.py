"""Glyphs a font names in its encoding but PDFium cannot map to text (no ToUnicode map):
ligatures like /f_i and /T_h came out as control characters ("\\x01eld work"). The reader
reads them back from their AGL names (``layout/glyph_names.py``) and guesses nothing for a
name it cannot read."""

from __future__ import annotations

import pypdfium2

from omnireader.formats.layout.words import page_words
from tests.formats.pdf_builders import PAGES, page_with, raw_pdf, stream


def _typeset(differences: str, shown: str) -> list[str]:
    font = (
        "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Times-Roman /Encoding"
        f" << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [{differences}] >> >>"
    )
    content = f"BT /F1 12 Tf 72 700 Td ({shown}) Tj ET"
    pdf = raw_pdf(
        ["<< /Type /Catalog /Pages 2 0 R >>", PAGES, font, stream(content), page_with("")]
    )
    page = pypdfium2.PdfDocument(pdf)[0]
    return [w.text for w in page_words(page, page.get_textpage())]


def test_ligatures_named_in_the_encoding_read_as_their_letters() -> None:
    words = _typeset("1 /f_i /T_h /f_f_l", r"\001eld work. \002e ba\003e.")
    assert words == ["field", "work.", "The", "baffle."]


def test_a_glyph_name_with_no_reading_is_not_guessed() -> None:
    words = _typeset("1 /g123", r"a\001b")
    assert words[0] != "ab" and words[0].startswith("a") and words[0].endswith("b")
