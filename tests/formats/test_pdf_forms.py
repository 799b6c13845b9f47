"""Values filled into a PDF form come out with the page, as ``Form fields:`` lines.

The text layer of a form holds its labels only; the values live in the AcroForm fields.
They are listed after the page's text, one ``Name: value`` line each, named by the field's
tooltip (/TU) when it has one; unchecked boxes, empty fields and buttons are left out, and a
value the page already prints is not repeated.
"""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.pdf_builders import HELVETICA, PAGES, lines_op, page_with, raw_pdf, stream

LABELS = ["Membership application", "Full name:", "City:", "Newsletter:", "Offers:", "Plan:"]


def sections(pdf: bytes) -> list[Section]:
    # The text layer as lines (layout off): these tests are about the form values after it.
    with extract_pdf(Blob(data=pdf), layout=False) as doc:
        return list(doc.sections)


def form_pdf(fields: list[str], content: str = lines_op(LABELS)) -> bytes:
    """One page of ``content`` whose widgets are ``fields`` (objects 6, 7, …)."""
    refs = " ".join(f"{6 + i} 0 R" for i in range(len(fields)))
    catalog = (
        f"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [{refs}] /NeedAppearances true"
        " /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >> >>"
    )
    objects = [catalog, PAGES, HELVETICA, stream(content), page_with("", annots=refs), *fields]
    return raw_pdf(objects)


def widget(body: str, y: int) -> str:
    return f"<< /Type /Annot /Subtype /Widget /Rect [200 {y} 450 {y + 20}] /P 5 0 R /F 4 {body} >>"


MEMBERSHIP = [
    widget("/FT /Tx /T (applicant_name) /TU (Full name) /V (Margaret Holloway)", 690),
    widget("/FT /Tx /T (city) /V (Lisbon harbour district)", 660),
    widget("/FT /Btn /T (newsletter) /V /Yes /AS /Yes", 630),
    widget("/FT /Btn /T (offers) /V /Off /AS /Off", 600),
    widget("/FT /Ch /Ff 131072 /T (plan) /Opt [(Basic) (Premium annual)] /V (Premium annual)", 570),
    widget("/FT /Tx /T (notes)", 540),  # left empty
    widget("/FT /Btn /Ff 65536 /T (submit)", 510),  # a push button
]


def test_filled_values_follow_the_page_text_as_form_field_lines() -> None:
    [page] = sections(form_pdf(MEMBERSHIP))
    assert page.text == "\n".join(LABELS) + "\n\n" + "\n".join(
        [
            "Form fields:",
            "Full name: Margaret Holloway",
            "city: Lisbon harbour district",
            "newsletter: Yes",
            "plan: Premium annual",
        ]
    )
    assert page.flags == []


def test_a_value_the_page_already_prints_is_not_repeated() -> None:
    printed = lines_op(["Full name: Margaret Holloway", "Reference: 42"])
    fields = [
        widget("/FT /Tx /T (name) /V (Margaret Holloway)", 690),
        widget("/FT /Tx /T (ref) /V (42)", 660),  # too short to tell: kept
    ]
    [page] = sections(form_pdf(fields, printed))
    assert page.text.endswith("Reference: 42\n\nForm fields:\nref: 42")


def test_a_value_inherited_from_a_parent_field_is_read_with_its_full_name() -> None:
    # A field split into a parent (name, value) and a widget kid, as most form tools write.
    parent = "<< /FT /Tx /T (owner) /V (Jonas Brandt) /Kids [7 0 R] >>"
    kid = widget("/Parent 6 0 R", 690)
    pdf = raw_pdf(
        [
            "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R] >> >>",
            PAGES,
            HELVETICA,
            stream(lines_op(["Owner:"])),
            page_with("", annots="7 0 R"),
            parent,
            kid,
        ]
    )
    [page] = sections(pdf)
    assert page.text == "Owner:\n\nForm fields:\nowner: Jonas Brandt"


def test_a_filled_form_on_a_page_without_text_is_not_blank() -> None:
    [page] = sections(form_pdf(MEMBERSHIP[:1], content=""))
    assert page.text == "Form fields:\nFull name: Margaret Holloway"
    assert page.flags == []


def test_an_empty_form_adds_nothing() -> None:
    [page] = sections(form_pdf([], lines_op(["Just text."])))
    assert page.text == "Just text."
