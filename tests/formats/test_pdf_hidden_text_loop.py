"""The page's text without its hidden text objects, read by the compiled loop
(``_loops.shown_units``) and by the Python one: the same text, character for character.

Pages are written object by object (hidden by render mode, by a clip path, off the page
box); with ``../shared`` beside the checkout, every page of the pdf-structure dev set and
the corpus that hides a text object is compared too.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.formats.pdf.hidden_text import _text_without
from omnireader.formats.pdf.text_objects import scan_text_objects
from omnireader.payloads import Blob
from tests.formats.pdf_builders import HELVETICA, PAGES, raw_pdf, stream

CATALOG = "<< /Type /Catalog /Pages 2 0 R >>"
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
needs_loops = pytest.mark.skipif(
    pdfium_calls.compiled("shown_units") is None, reason="the compiled loops are not built"
)


def _page(content: str, box: str = "0 0 612 792") -> bytes:
    page = (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] /Contents 4 0 R"
        " /Resources << /Font << /F1 3 0 R >> >> >>"
    )
    return raw_pdf([CATALOG, PAGES, HELVETICA, stream(content), page])


def _line(text: str, y: int, mode: int | None = None, x: int = 72) -> str:
    tr = f"{mode} Tr " if mode is not None else ""
    return f"q BT /F1 12 Tf {tr}{x} {y} Td ({text}) Tj ET Q "


PAGES_HIDING = {
    "invisible between shown lines": _page(
        _line("Minutes of the meeting", 720)
        + _line("SEO keywords cheap pills", 700, 3)
        + _line("The budget was approved", 680)
    ),
    "clip only, then a line on the same height": _page(
        _line("Shown first", 720) + _line("Clip only words", 700, 7) + _line("beside", 700, x=400)
    ),
    "clipped away among many lines": _page(
        "".join(_line(f"Line {n} of the visible report body", 760 - 14 * n) for n in range(50))
        + "q 0 0 40 40 re W n BT /F1 12 Tf 300 30 Td (Clipped tail draft) Tj ET Q "
    ),
    "hidden text last": _page(_line("Visible text", 720) + _line("Hidden at the end", 700, 3)),
    "hidden text first": _page(_line("Hidden at the start", 720, 3) + _line("Visible", 700)),
    "a shown line partly off the page box": _page(
        _line("Kept line", 720)
        + _line("Invisible", 700, 3)
        + _line("Runs off the right edge of the page box", 680, x=520),
        box="0 0 612 792",
    ),
    "a cropped page": _page(
        _line("Inside the box", 300) + _line("Hidden", 280, 3) + _line("Below the box", 20),
        box="0 100 612 792",
    ),
}


def _both(pdf: bytes) -> tuple[str, str, frozenset[int]]:
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        textpage = page.get_textpage()
        hidden = scan_text_objects(page).hidden
        fast = _text_without(page, textpage, hidden, compiled=True)
        slow = _text_without(page, textpage, hidden, compiled=False)
        textpage.close()
        page.close()
        return fast, slow, hidden
    finally:
        doc.close()


@needs_loops
@pytest.mark.parametrize("name", sorted(PAGES_HIDING))
def test_the_compiled_loop_leaves_out_what_the_python_loop_does(name: str) -> None:
    fast, slow, hidden = _both(PAGES_HIDING[name])
    assert hidden, "every page here hides a text object"
    assert fast == slow


def test_the_hidden_text_is_left_out_with_the_loops_switched_off_as_on(monkeypatch) -> None:
    # With the loops off (no compiler), extraction goes through the Python loop: the same
    # sections' text either way.
    pdf = PAGES_HIDING["invisible between shown lines"]

    def texts() -> list[str]:
        with extract_pdf(Blob(data=pdf, filename="p.pdf"), None, "off") as doc:
            return [s.text for s in doc.sections]

    on = texts()
    monkeypatch.setattr(pdfium_calls, "loops", None)
    off = texts()
    assert on == off
    assert "SEO keywords" not in " ".join(on) and "budget was approved" in " ".join(on)


def _shared_pdfs() -> list[Path]:
    dev = sorted((SHARED / "bench" / "pdf-structure-dev" / "pdfs").glob("*.pdf"))
    return dev + sorted((SHARED / "corpus").glob("**/*.pdf"))


@needs_loops
@pytest.mark.skipif(not _shared_pdfs(), reason="../shared is not beside the checkout")
def test_every_real_page_hiding_text_reads_the_same_both_ways() -> None:
    compared = 0
    for path in _shared_pdfs():
        try:
            doc = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError:
            continue  # encrypted or broken corpus files
        try:
            for index in range(len(doc)):
                page = doc[index]
                textpage = page.get_textpage()
                hidden = scan_text_objects(page).hidden
                if hidden:
                    fast = _text_without(page, textpage, hidden, compiled=True)
                    assert fast == _text_without(page, textpage, hidden, compiled=False), (
                        f"{path.name} page {index + 1}"
                    )
                    compared += 1
                textpage.close()
                page.close()
        finally:
            doc.close()
    assert compared >= 10  # the dev set alone holds pages with hidden text objects
