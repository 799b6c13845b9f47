"""PDF text nobody sees is not stored when the page shows text: render mode 3 / 7 and text
clipped away. An invisible layer alone is a scan's OCR text: kept when it reads as text,
and when it is garbage the page is treated as a scan (needs OCR). PDFs are written here
object by object."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.formats.pdf.text_objects import probe, scan_text_objects
from omnireader.formats.pdf.text_quality import is_bad_ocr_layer, odd_token_share
from omnireader.payloads import Blob
from tests.formats.pdf_builders import HELVETICA, PAGES, raw_pdf, stream

CATALOG = "<< /Type /Catalog /Pages 2 0 R >>"
needs_loops = pytest.mark.skipif(
    pdfium_calls.loops is None, reason="the compiled loops are not built"
)
# A 2×2 grey image drawn over the whole page: what a scanned page is.
SCAN = "q 612 0 0 792 0 0 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x80\x90\xa0\xb0 EI Q "


def _words(text: str) -> str:
    # The page's words in order: laid out (blocks, reflowed lines) or plain, the same words.
    return " ".join(text.split())


def _page(content: str) -> bytes:
    page = (
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 3 0 R >> >> >>"
    )
    return raw_pdf([CATALOG, PAGES, HELVETICA, stream(content), page])


def _sections(pdf: bytes) -> list:
    with extract_pdf(Blob(data=pdf, filename="page.pdf"), None, "off") as doc:
        return list(doc.sections)


def _line(text: str, y: int, mode: int | None = None) -> str:
    tr = f"{mode} Tr " if mode is not None else ""
    return f"q BT /F1 12 Tf {tr}72 {y} Td ({text}) Tj ET Q "


@pytest.mark.parametrize("mode", [3, 7])
def test_invisible_text_beside_visible_text_is_not_stored(mode: int) -> None:
    pdf = _page(
        _line("Minutes of the meeting", 720)
        + _line("SEO keywords cheap pills", 700, mode)
        + _line("The budget was approved", 680)
    )
    [section] = _sections(pdf)
    assert _words(section.text) == "Minutes of the meeting The budget was approved"


def test_text_outside_its_clip_path_is_not_stored() -> None:
    clipped = "q 0 0 40 40 re W n BT /F1 12 Tf 300 400 Td (Old draft figure 1,000) Tj ET Q "
    pdf = _page(_line("Final figure is 2,000", 720) + clipped)
    [section] = _sections(pdf)
    assert _words(section.text) == "Final figure is 2,000"


def test_text_inside_its_clip_path_is_kept() -> None:
    inside = "q 60 690 400 50 re W n BT /F1 12 Tf 72 700 Td (Inside the clip box) Tj ET Q "
    pdf = _page(_line("Heading line", 750) + inside)
    [section] = _sections(pdf)
    assert "Inside the clip box" in section.text and "Heading line" in section.text


def test_a_readable_ocr_layer_over_a_scan_is_the_page_text() -> None:
    words = "The council approved the new library budget for the coming year in May"
    pdf = _page(SCAN + _line(words, 700, 3))
    [section] = _sections(pdf)
    assert _words(section.text) == _words(words)
    assert "needs_ocr" not in section.flags


def test_a_garbage_ocr_layer_over_a_scan_makes_the_page_a_scan() -> None:
    garbage = "T ~ l1e qu;ck hr0wn f ox jUmps 0ver tl1e ; , i l laz y d0g ~~ | wE wi1l"
    pdf = _page(SCAN + _line(garbage, 700, 3))
    [section] = _sections(pdf)
    assert section.text == ""
    assert {"needs_ocr", "garbled_text"} <= set(section.flags)


def test_a_plain_page_keeps_all_its_text() -> None:
    pdf = _page(_line("One", 720) + _line("Two", 700))
    assert _words(_sections(pdf)[0].text) == "One Two"


@pytest.mark.parametrize(
    "text",
    [
        "Le conseil municipal a voté le budget à l'unanimité, y compris 12 000 € pour la ville.",
        "Die Straße wurde im Mai 2023 erneuert; Kosten: 1.200.000 Euro, sagte der Bürgermeister.",
        "הוועדה אישרה את התקציב לשנת 2024 לאחר דיון ארוך בכנסת ובממשלה ובעירייה ובמועצה",
        "Invoice 2024-05-01: 3 items, total $1,250.00 (VAT 20%), due on 31 May, thank you.",
    ],
)
def test_read_text_in_several_languages_is_no_bad_ocr_layer(text: str) -> None:
    assert not is_bad_ocr_layer(text)


def test_stray_marks_and_lone_letters_are_a_bad_ocr_layer() -> None:
    assert is_bad_ocr_layer("i l t r a n s p o r t e d t h e g o o d s a c r o s s")
    assert odd_token_share("T ~ l1e qu;ck hr0wn f ox jUmps 0ver tl1e ; , laz y d0g") > 0.35
    assert odd_token_share("too short ~ ;") == 0.0  # too few tokens to judge


def test_a_long_layer_is_judged_from_pieces_throughout() -> None:
    good = " ".join(["The river rose in spring and the town moved its market uphill."] * 60)
    bad = " ".join(["T ~ l1e qu;ck hr0wn f ox jUmps 0ver tl1e ; , laz y d0g ~~ |"] * 60)
    assert not is_bad_ocr_layer(good)
    assert is_bad_ocr_layer(bad)
    assert is_bad_ocr_layer(good[:1500] + " " + bad)  # garbage from the middle on


def test_clipped_text_at_the_end_of_a_long_page_is_found() -> None:
    lines = "".join(
        _line(f"Line {n} of the visible report body text", 760 - 14 * n) for n in range(40)
    )
    clipped = "q 0 0 40 40 re W n BT /F1 12 Tf 300 30 Td (Clipped tail draft words) Tj ET Q "
    [section] = _sections(_page(lines + clipped + clipped + clipped))
    assert "Clipped tail" not in section.text and "Line 39 of the visible" in section.text


def _form_page(content: str, form_content: str) -> bytes:
    page = (
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >> >>"
    )
    form = stream(
        form_content,
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>",
    )
    return raw_pdf([CATALOG, PAGES, HELVETICA, stream(content), page, form])


_MIXED = (
    _line("Shown line", 740)
    + _line("Invisible line", 720, 3)
    + _line("Clip-only line", 700, 7)
    + "q 0 0 40 40 re W n BT /F1 12 Tf 300 400 Td (Clipped away) Tj ET Q "
    + "q 60 600 400 50 re W n BT /F1 12 Tf 72 610 Td (Inside its clip) Tj ET Q "
    + "q 700 800 40 40 re W n BT /F1 12 Tf 300 380 Td (Clipped off the page) Tj ET Q "
    # Two clip paths that do not meet: nothing of the text shows.
    + "q 0 0 40 40 re W n 100 100 40 40 re W n BT /F1 12 Tf 10 10 Td (Between) Tj ET Q "
)


@needs_loops
@pytest.mark.parametrize(
    "pdf",
    [
        _page(_MIXED),
        _page(_MIXED + "".join(_line(f"Body line {n}", 580 - 12 * n) for n in range(45))),
        _form_page(_line("Page line", 740) + "q /X1 Do Q ", _line("Form hidden", 500, 3)),
        _page(SCAN + _line("An OCR layer", 700, 3)),
    ],
    ids=["few objects", "many objects", "a form", "a scan"],
)
def test_the_compiled_text_object_loops_sort_and_sample_as_python_does(pdf: bytes) -> None:
    doc = pdfium.PdfDocument(pdf)
    page = doc[0]
    textpage = page.get_textpage()
    compiled = scan_text_objects(page, compiled=True)
    assert compiled == scan_text_objects(page, compiled=False)
    assert compiled.hidden or compiled.invisible  # every page hides something
    assert probe(page, textpage, compiled=True) == probe(page, textpage, compiled=False)
    textpage.close()
    page.close()
    doc.close()


@needs_loops
def test_the_compiled_loops_find_each_kind_of_hidden_text() -> None:
    doc = pdfium.PdfDocument(_page(_MIXED))
    page = doc[0]
    objects = scan_text_objects(page, compiled=True)
    # Invisible (3), clip only (7), clipped away, clipped off the page, between two clips;
    # the rest shown.
    assert (len(objects.hidden), objects.shown, len(objects.invisible)) == (5, 2, 2)
    page.close()
    doc.close()
