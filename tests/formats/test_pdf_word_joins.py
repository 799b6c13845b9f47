"""Words PDFium cuts into letters: it generates a line break between every two glyphs of
some browser-printed filings, though the glyphs touch on one baseline. The reader keeps
them one word (``layout/word_joins.py``); real line breaks and word gaps stay breaks."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from omnireader.formats.layout.words import page_words
from tests.formats.layout_pdfs import Text, build_pdf

FILINGS = Path(__file__).resolve().parents[3] / "shared" / "bench" / "financebench-dev" / "pdfs"
needs_filings = pytest.mark.skipif(not FILINGS.is_dir(), reason="needs ../shared/bench")


def _words(pdf: Path | bytes, index: int) -> list[str]:
    doc = pypdfium2.PdfDocument(pdf)
    page = doc[index]
    return [w.text for w in page_words(page, page.get_textpage())]


@needs_filings
def test_a_heading_printed_glyph_by_glyph_reads_as_words() -> None:
    # PDFium's text for this page is "P\r\nA\r\nR\r\nT IV ..." (a browser's print).
    words = _words(FILINGS / "MICROSOFT_2023_10K.pdf", 107)
    assert words[:2] == ["PART", "IV"]
    assert "SUMMARY" in words and "None." in words
    assert "S" not in words


@needs_filings
def test_a_table_printed_glyph_by_glyph_keeps_its_numbers_whole() -> None:
    words = _words(FILINGS / "JOHNSON_JOHNSON_2022_10K.pdf", 81)
    assert words[:2] == ["PHARMACEUTICAL", "Immunology"]
    assert "11,036" in words and "Worldwide" in words
    assert sum(len(w) == 1 for w in words) < 0.05 * len(words)


def test_lines_and_word_gaps_stay_breaks() -> None:
    pdf = build_pdf([[Text(72, 100, "Net sales"), Text(72, 114, "Operating income")]])
    assert _words(pdf, 0) == ["Net", "sales", "Operating", "income"]
