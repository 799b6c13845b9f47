"""A form's questions end at their check boxes: "… Act. Yes ☒ No ☐" closes a question as a
full stop would, so the next question is a paragraph of its own, not run into this one."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf
from tests.formats.pdf_builders import HELVETICA, PAGES, raw_pdf, stream

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

_QUESTIONS = [
    "Indicate by check mark if the registrant is a well-known seasoned issuer. Yes \u2612 No \u2610",
    "Indicate by check mark if the registrant is not required to file reports. Yes \u2610 No \u2612",
    "Indicate by check mark whether the registrant has filed all reports required to be filed",
    "by Section 13 or 15(d) of the Exchange Act during the preceding 12 months. Yes \u2612 No \u2610",
]


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is not installed")
def test_each_question_of_a_form_is_its_own_paragraph() -> None:
    lines = [Text(40, 100 + 12 * i, text, 9) for i, text in enumerate(_QUESTIONS)]
    pdf = build_pdf([lines], font_file=DEJAVU.read_bytes())
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        (page,) = [s.text for s in doc.sections if s.part is None]

    assert page.split("\n\n") == [_QUESTIONS[0], _QUESTIONS[1], " ".join(_QUESTIONS[2:])]


# A Wingdings font as filings embed it: no ToUnicode map, so its codes are all PDFium reads.
_WINGDINGS = (
    "<< /Type /Font /Subtype /TrueType /BaseFont /Wingdings /FirstChar 32 /LastChar 255"
    " /FontDescriptor 7 0 R >>"
)
_DESCRIPTOR = (
    "<< /Type /FontDescriptor /FontName /Wingdings /Flags 4 /FontBBox [0 -200 1000 900]"
    " /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>"
)


def _wingdings_page(content: str) -> bytes:
    """A page of ``content`` with Helvetica as /F1 and Wingdings as /F2."""
    page = (
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> >>"
    )
    catalog = "<< /Type /Catalog /Pages 2 0 R >>"
    return raw_pdf([catalog, PAGES, HELVETICA, stream(content), page, _WINGDINGS, _DESCRIPTOR])


def _read(pdf: bytes) -> str:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        (page,) = [s.text for s in doc.sections if s.part is None]
    return page


@pytest.mark.parametrize(
    ("marks", "read"),
    [(("\\250", "x"), "Yes \u2610 No \u2612"), (("\\375", "\\376"), "Yes \u2612 No \u2611")],
)
def test_check_boxes_drawn_in_wingdings_read_as_boxes(marks: tuple[str, str], read: str) -> None:
    # The empty box is Wingdings' "¨" (0xA8), the ticked one "x" or "ý"/"þ": read as
    # the letters they are coded as, the cover said "Yes ¨ No x".
    yes, no = marks
    content = (
        "BT /F1 10 Tf 72 700 Td (Is the registrant a shell company?  Yes ) Tj"
        f" /F2 10 Tf ({yes}) Tj /F1 10 Tf (  No ) Tj /F2 10 Tf ({no}) Tj ET"
    )
    assert _read(_wingdings_page(content)) == f"Is the registrant a shell company? {read}"


def test_a_check_box_a_tab_before_its_text_starts_that_line() -> None:
    # A cover's "(Mark One)": each box at the margin, its report's name a tab further on.
    # Read apart, the box stood on a line of its own after the text it ticks.
    content = (
        "BT /F2 10 Tf 72 700 Td (x) Tj ET BT /F1 10 Tf 108 700 Td"
        " (ANNUAL REPORT PURSUANT TO SECTION 13 OR 15\\(d\\) OF THE ACT) Tj ET"
        " BT /F2 10 Tf 72 670 Td (\\250) Tj ET BT /F1 10 Tf 108 670 Td"
        " (TRANSITION REPORT PURSUANT TO SECTION 13 OR 15\\(d\\) OF THE ACT) Tj ET"
    )
    lines = _read(_wingdings_page(content)).split("\n\n")
    assert lines == [
        "\u2612 ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE ACT",
        "\u2610 TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE ACT",
    ]


FILINGS = Path(__file__).resolve().parents[3] / "shared" / "bench" / "financebench-dev" / "pdfs"


def _first_page(path: Path) -> bytes:
    """The first page of the PDF at ``path``, as a PDF of its own."""
    import io

    import pypdfium2

    one = pypdfium2.PdfDocument.new()
    one.import_pages(pypdfium2.PdfDocument(path), [0])
    out = io.BytesIO()
    one.save(out)
    return out.getvalue()


@pytest.mark.skipif(not FILINGS.is_dir(), reason="needs ../shared/bench")
def test_columns_of_yes_and_no_boxes_end_the_questions_beside_them() -> None:
    # Nike's cover: the questions on the left, their boxes in a "YES" and a "NO" column
    # at the right (Wingdings). Read as columns, "☑ ☐ ☑" came after all the questions.
    page = _read(_first_page(FILINGS / "NIKE_2021_10K.pdf"))
    assert "Rule 405 of the Securities Act. \u2611 \u2610" in page
    assert "Section 15(d) of the Act. \u2610 \u2611" in page
    assert "\n\u2611\n\u2610\n" not in page


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is not installed")
def test_check_boxes_and_their_answers_set_large_head_nothing() -> None:
    # 3M's cover sets its boxes large beside "No", on lines of their own: they were read as
    # top-level headings ("# ☒ No ☐"), the heading every later paragraph was filed under.
    # A title that a box ticks ("☒ ANNUAL REPORT …") is still one.
    lines = [
        Text(40, 80, "\u2612 ANNUAL REPORT PURSUANT TO SECTION 13", 16),
        *[Text(40, 120 + 12 * i, text, 9) for i, text in enumerate(_QUESTIONS[2:])],
        Text(40, 160, "\u2612 No \u2610", 16),
        Text(40, 200, "Yes \u2610 No \u2612", 16),
        *[Text(40, 240 + 12 * i, text, 9) for i, text in enumerate(_QUESTIONS[2:])],
    ]
    pdf = build_pdf([lines], font_file=DEJAVU.read_bytes())
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        (page,) = [s.text for s in doc.sections if s.part is None]
    blocks = page.split("\n\n")
    assert blocks[0].startswith("# \u2612 ANNUAL REPORT")
    assert "\u2612 No \u2610" in blocks and "Yes \u2610 No \u2612" in blocks
    assert sum(block.startswith("#") for block in blocks) == 1
