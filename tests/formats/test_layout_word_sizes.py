"""Each word's size is its font's size rounded to two digits (``round(x, 2)``), as the
Python words loop gives it; the compiled loop keeps the rounded sizes it met on the page
(a filing sets one text object a word in a handful of sizes) and must give the same words,
whatever the sizes: many alike, more distinct ones than it keeps, sizes from a scaled
text matrix (``1 Tf`` scaled ten times), boxes far taller than the size."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.words import page_words
from tests.formats.pdf_builders import HELVETICA, PAGES, raw_pdf, stream

CATALOG = "<< /Type /Catalog /Pages 2 0 R >>"
needs_loops = pytest.mark.skipif(pdfium_calls.loops is None, reason="the loops are not built")


def _page(content: str) -> bytes:
    page = (
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 3 0 R >> >> >>"
    )
    return raw_pdf([CATALOG, PAGES, HELVETICA, stream(content), page])


def _word(text: str, x: float, y: float, size: float, scale: float = 1.0) -> str:
    # One text object a word, as filings made from HTML are written.
    return f"BT /F1 {size:g} Tf {scale:g} 0 0 {scale:g} {x:g} {y:g} Tm ({text}) Tj ET "


def _words(content: str, compiled: bool) -> list:
    doc = pdfium.PdfDocument(_page(content))
    try:
        page = doc[0]
        textpage = page.get_textpage()
        words = page_words(page, textpage, compiled=compiled)
        textpage.close()
        page.close()
        return words
    finally:
        doc.close()


PAGES_OF_SIZES = {
    # 300 words in three sizes: the kept sizes hit again and again.
    "few sizes": "".join(
        _word(f"w{k}", 40 + 60 * (k % 9), 760 - 14 * (k // 9) % 700, (9, 10.5, 12)[k % 3])
        for k in range(300)
    ),
    # 200 distinct sizes, more than are kept: older ones make way and come back.
    "many sizes": "".join(
        _word(f"s{k}", 40 + 110 * (k % 5), 770 - 18 * (k // 5) % 720, 6 + 0.0371 * (k % 200))
        for k in range(400)
    ),
    # "1 Tf" scaled by the text matrix: the char size and the box disagree with Tf.
    "scaled matrix": "".join(
        _word(f"m{k}", 40 + 90 * (k % 6), 760 - 16 * (k // 6), 1, 8 + 0.25 * (k % 7))
        for k in range(120)
    ),
    # Sizes that round alike from either side, and halves that round to even.
    "rounding edges": "".join(
        _word(f"r{k}", 40 + 100 * (k % 5), 760 - 16 * (k // 5), size)
        for k, size in enumerate([10.005, 10.015, 10.025, 9.995, 10.0049, 10.0051, 12.125, 12.135])
    ),
}


@needs_loops
@pytest.mark.parametrize("name", sorted(PAGES_OF_SIZES))
def test_the_compiled_words_loop_sizes_words_as_python_does(name: str) -> None:
    fast = _words(PAGES_OF_SIZES[name], compiled=True)
    slow = _words(PAGES_OF_SIZES[name], compiled=False)
    assert len(fast) >= 8
    assert [(w.text, w.x0, w.y0, w.x1, w.y1, w.size, w.bold, w.font) for w in fast] == [
        (w.text, w.x0, w.y0, w.x1, w.y1, w.size, w.bold, w.font) for w in slow
    ]


@needs_loops
def test_sizes_are_rounded_to_two_digits() -> None:
    words = _words(PAGES_OF_SIZES["many sizes"], compiled=True)
    assert all(w.size == round(w.size, 2) for w in words)
    assert len({w.size for w in words}) > 64  # more distinct sizes than the loop keeps
