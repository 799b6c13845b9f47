"""The test for line breaks PDFium generated inside a word (``word_joins.py``) runs compiled
(``_loops.join_spans``) where the loops are built: it finds the same breaks as the Python
loop, on pages printed glyph by glyph, on every page of the shared corpus, and on texts
whose breaks stand beside every kind of character the rule tells apart. And the compiled
words loop, which fills a word's slots itself, calls a word class that does more."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.font_style import FontStyle
from omnireader.formats.layout.pdfium_calls import calls, handle
from omnireader.formats.layout.transform import page_transform
from omnireader.formats.layout.word_chars import expand as _expand
from omnireader.formats.layout.word_joins import JOINED, join_split_words
from omnireader.formats.layout.words import _BACK_EM, _GAP_EM, _WORD_CALLS, page_words
from tests.formats.layout_pdfs import Text, build_pdf

FILINGS = Path(__file__).resolve().parents[3] / "shared" / "bench" / "financebench-dev" / "pdfs"
needs_filings = pytest.mark.skipif(not FILINGS.is_dir(), reason="needs ../shared/bench")
needs_loops = pytest.mark.skipif(
    pdfium_calls.loops is None, reason="the compiled loops are not built (no C compiler)"
)


def _joined(textpage: pdfium.PdfTextPage, text: str, compiled: bool) -> str:
    rect = pdfium_c.FS_RECTF()
    return join_split_words(
        text, handle(textpage.raw), calls(), rect, ctypes.byref(rect), compiled=compiled
    )


def _page_text(textpage: pdfium.PdfTextPage) -> str:
    return textpage.get_text_range(0, textpage.count_chars(), errors="replace")


@needs_loops
@needs_filings
@pytest.mark.parametrize(
    ("name", "index"), [("MICROSOFT_2023_10K.pdf", 107), ("JOHNSON_JOHNSON_2022_10K.pdf", 81)]
)
def test_a_page_printed_glyph_by_glyph_is_joined_the_same_compiled(name: str, index: int) -> None:
    doc = pdfium.PdfDocument(FILINGS / name)
    textpage = doc[index].get_textpage()
    text = _page_text(textpage)
    compiled = _joined(textpage, text, True)
    assert compiled == _joined(textpage, text, False)
    assert compiled.count(JOINED) > 20  # the page's glyphs are joined into words
    assert len(compiled) == len(text)  # index for index


@needs_loops
@needs_filings
def test_breaks_beside_spaces_and_odd_characters_are_told_the_same_compiled() -> None:
    # The real page's boxes, under texts whose breaks stand beside what the rule tells
    # apart: another break, a space, NUL, a zero-width space, Unicode spaces, a lone CR.
    doc = pdfium.PdfDocument(FILINGS / "MICROSOFT_2023_10K.pdf")
    textpage = doc[107].get_textpage()
    text = _page_text(textpage)
    variants = [
        text,
        text.replace("\r\n", "\n\n"),
        text.replace("\r\n", "\r\r"),
        text.replace("\r\n", "\n\r"),
        text.replace("\r\n", "x\r"),
        text.replace("\r\n", "\r "),
        "\n" + text[1:],
        text[:-1] + "\r",
    ]
    for odd in (" ", "\x00", "\u200b", "\u3000", "\u00a0", "\x1c", "\t"):
        variants.append(text.replace("A\r\n", odd + "\r\n"))
        variants.append(text.replace("\r\nR", "\r\n" + odd))
    for variant in variants:
        assert _joined(textpage, variant, True) == _joined(textpage, variant, False)


@needs_loops
def test_every_page_of_the_shared_corpus_is_joined_the_same_compiled(corpus: Path) -> None:
    pages = 0
    for path in sorted(corpus.glob("**/*.pdf")):
        try:
            doc = pdfium.PdfDocument(path)
        except pdfium.PdfiumError:
            continue  # needs a password
        for page in doc:
            textpage = page.get_textpage()
            text = _page_text(textpage)
            assert _joined(textpage, text, True) == _joined(textpage, text, False), path.name
            pages += 1
    assert pages > 50


@needs_loops
def test_a_word_class_with_more_to_do_than_set_its_fields_is_called_by_the_compiled_loop() -> None:
    # The compiled loop fills a Word's slots itself (no __init__ a word); a class whose
    # making does more (a __post_init__) is called instead, once a word, as before.
    made: list[str] = []

    @dataclass(slots=True)
    class Counted:
        text: str
        x0: float
        y0: float
        x1: float
        y1: float
        size: float = 0.0
        bold: bool = False
        font: str = ""

        def __post_init__(self) -> None:
            made.append(self.text)

    doc = pdfium.PdfDocument(build_pdf([[Text(72, 100, "Net sales rose 12%")]]))
    page = doc[0]
    textpage = page.get_textpage()
    _, (left, top) = page_transform(page)
    c = calls()
    raw = textpage.raw
    out: list[Counted] = []
    pdfium_calls.loops.upright_words(  # type: ignore[union-attr]
        _page_text(textpage),
        handle(raw),
        c.addresses(_WORD_CALLS),
        left,
        top,
        FontStyle(raw, handle(raw), c),
        Counted,
        _expand,
        (_GAP_EM, _BACK_EM),
        out,
    )
    assert made == ["Net", "sales", "rose", "12%"]
    assert [w.text for w in page_words(page, textpage)] == made
