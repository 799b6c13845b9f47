"""OpenDocument: a document like a DOCX, a sheet per section, a slide per section, headers
and footers from the master pages; never a ZIP of XML parts."""

from __future__ import annotations

import io

import pytest

from omnireader import Reader
from omnireader.payloads import Blob


def saved(doc) -> bytes:
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def test_each_sheet_is_its_own_section_and_template_fields_are_not_text() -> None:
    from odfdo import Document, Table

    doc = Document("spreadsheet")
    doc.body.clear()
    for n, fruit in enumerate(("plums", "quinces"), 1):
        table = Table(f"Stock {n}")
        table.set_value((0, 0), "fruit")
        table.set_value((1, 0), "kg")
        table.set_value((0, 1), fruit)
        table.set_value((1, 1), "0,5")
        doc.body.append(table)
    items = Reader().read(Blob(data=saved(doc), filename="stock.ods"))
    sheets = [i for i in items if i.source.page]
    assert [i.source.page for i in sheets] == [1, 2]
    assert [i.metadata.extra["heading"] for i in sheets] == ["Stock 1", "Stock 2"]
    assert "| quinces | 0,5 |" in sheets[1].memory
    assert not any("???" in i.memory or "Page 1" in i.memory for i in items)
    assert not any(i.source.member for i in items)  # read as a document, not as a ZIP


def test_each_slide_is_its_own_section() -> None:
    from odfdo import Document, DrawPage, Frame

    doc = Document("presentation")
    doc.body.clear()
    for n in range(1, 4):
        page = DrawPage(f"p{n}", name=f"Slide {n}")
        page.append(
            Frame.text_frame(
                f"Harvest plan part {n}", size=("10cm", "2cm"), position=("1cm", "1cm")
            )
        )
        doc.body.append(page)
    items = Reader().read(Blob(data=saved(doc), filename="plan.odp"))
    assert [(i.source.page, i.memory) for i in items] == [
        (n, f"Harvest plan part {n}") for n in (1, 2, 3)
    ]
    assert items[0].metadata.extra["page_count"] == 3


def test_a_text_document_has_headings_and_comments_apart() -> None:
    from odfdo import Annotation, Document, Header, Paragraph

    doc = Document("text")
    doc.body.clear()
    doc.body.append(Header(1, "Minutes"))
    paragraph = Paragraph("We agreed on plums.")
    paragraph.append(Annotation("Check the price first.", creator="Ann"))
    doc.body.append(paragraph)
    items = Reader().read(Blob(data=saved(doc), filename="minutes.odt"))
    body = next(i for i in items if not i.metadata.extra.get("section"))
    assert body.memory.startswith("# Minutes") and "We agreed on plums." in body.memory
    assert "Check the price" not in body.memory
    comments = next(i for i in items if i.metadata.extra.get("section") == "comments")
    assert "Check the price first." in comments.memory and "Ann" not in comments.memory


def test_an_odt_bomb_is_too_large_before_it_is_unpacked() -> None:
    from tests.faultkit.fault_formats import odt_bomb_bytes

    result = Reader().read_report(Blob(data=odt_bomb_bytes(64 << 20), filename="bomb.odt"))
    [failure] = result.failures
    assert failure.error == "too_large" and not result.items


@pytest.mark.parametrize("kind", ["odt", "ods", "odp"])
def test_a_damaged_package_is_corrupt(kind: str) -> None:
    from omnireader.errors import CorruptError
    from omnireader.formats.office.opendocument import extract_odf

    broken = io.BytesIO()
    import zipfile

    with zipfile.ZipFile(broken, "w") as zf:
        zf.writestr("mimetype", f"application/vnd.oasis.opendocument.{kind}")
        zf.writestr("content.xml", "<office:document-content")
    with pytest.raises(CorruptError):
        extract_odf(Blob(data=broken.getvalue(), filename=f"x.{kind}"), kind)
