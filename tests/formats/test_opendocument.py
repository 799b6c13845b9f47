"""OpenDocument: a document like a DOCX, a sheet per section, a slide per section, headers
and footers from the master pages; never a ZIP of XML parts."""

from __future__ import annotations

import io
from pathlib import Path

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
    # Its author names it, as a DOCX comment's does; its date and author are not its text.
    assert comments.memory == '- Ann on "We agreed on plums.": Check the price first.'


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


def test_text_keeps_its_hyphens_underscores_and_hashes_without_escapes() -> None:
    # odfdo's Markdown escapes "-", "_", "#", "*" everywhere; a memory must hold the text
    # as written ("01-01-1960", "draft_v1"), escaped only where a line would change shape.
    from odfdo import Document, Header, Paragraph, Table

    doc = Document("text")
    doc.body.clear()
    doc.body.append(Header(1, "Plan #2 - draft_v1"))
    doc.body.append(Paragraph("Due 01-01-1960, see *notes* and x_y."))
    doc.body.append(Paragraph("- not a list item"))
    table = Table("T", width=2, height=2)
    table.set_value((0, 0), "date")
    table.set_value((1, 0), "code")
    table.set_value((0, 1), "18-12-1977")
    table.set_value((1, 1), "a|b")
    doc.body.append(table)
    (item,) = Reader().read(Blob(data=saved(doc), filename="plan.odt"))
    assert item.memory.startswith("# Plan #2 - draft_v1")
    assert "Due 01-01-1960, see *notes* and x_y." in item.memory
    assert "\\- not a list item" in item.memory  # unescaped, it would read as a list
    assert "| 18-12-1977 | a\\|b |" in item.memory  # the pipe stays escaped in a cell


def test_a_footer_of_page_fields_leaves_no_label_behind() -> None:
    from odfdo import Document, Element, Paragraph

    doc = Document("text")
    doc.body.clear()
    doc.body.append(Paragraph("Body text."))
    master = doc.styles.get_elements("//style:master-page")[0]
    master.append(
        Element.from_tag(
            "<style:footer><text:p>Page <text:page-number>1</text:page-number> / "
            "<text:page-count>99</text:page-count></text:p></style:footer>"
        )
    )
    master.append(
        Element.from_tag(
            "<style:header><text:p>Acme Ltd - Seite <text:page-number>1</text:page-number> "
            "von <text:page-count>9</text:page-count></text:p></style:header>"
        )
    )
    items = Reader().read(Blob(data=saved(doc), filename="paged.odt"))
    parts = {i.metadata.extra.get("section"): i.memory for i in items}
    assert parts.get("header") == "Acme Ltd"
    assert "footer" not in parts  # "Page /" is no footer


def _with_parts(data: bytes, parts: dict[str, bytes]) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            out.writestr(info, src.read(info.filename))
        for name, part in parts.items():
            out.writestr(name, part)
    return buf.getvalue()


def test_text_boxes_shapes_and_embedded_objects_are_read_apart_where_they_stand() -> None:
    from odfdo import Document, Element, Paragraph

    doc = Document("text")
    doc.body.clear()
    doc.body.append(
        Element.from_tag(
            '<text:p><draw:frame svg:width="4cm"><draw:text-box><text:p>Box one</text:p>'
            "<text:p>Box two</text:p></draw:text-box></draw:frame>Tail words</text:p>"
        )
    )
    doc.body.append(
        Element.from_tag(
            '<text:p><draw:rect svg:width="1cm"><svg:title>Shape title</svg:title>'
            "<svg:desc>A blue box</svg:desc><text:p>Inside</text:p></draw:rect></text:p>"
        )
    )
    doc.body.append(
        Element.from_tag(
            '<text:p>See: <draw:frame svg:width="4cm"><draw:object xlink:href="./Object 1"/>'
            '</draw:frame> and <draw:frame><draw:object xlink:href="./Object 2"/></draw:frame>'
            " end.</text:p>"
        )
    )
    doc.body.append(Paragraph("After."))
    sheet = (
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        '<office:spreadsheet><table:table table:name="S">'
        + "".join(
            "<table:table-row>"
            + "".join(f"<table:table-cell><text:p>{v}</text:p></table:table-cell>" for v in row)
            + "</table:table-row>"
            for row in (("Fruit", "Kg"), ("plums", "12"))
        )
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    formula = (
        '<math:math xmlns:math="http://www.w3.org/1998/Math/MathML"><math:semantics>'
        "<math:mi>E</math:mi><math:annotation>E = m c^2</math:annotation>"
        "</math:semantics></math:math>"
    )
    data = _with_parts(
        saved(doc),
        {"Object 1/content.xml": sheet.encode(), "Object 2/content.xml": formula.encode()},
    )
    (item,) = Reader().read(Blob(data=data, filename="boxes.odt"))
    text = item.memory
    assert "Box one\nBox two\nTail words" in text
    assert "Shape title\nA blue box\nInside" in text
    assert "See:\n\n| Fruit | Kg |\n| --- | --- |\n| plums | 12 |" in text
    assert "E = m c^2" in text and text.index("plums") < text.index("E = m c^2")
    assert text.rstrip().endswith("end.\n\nAfter.")


def test_a_slide_has_its_title_as_heading_its_outline_as_lists_and_notes_apart() -> None:
    from odfdo import Document, DrawPage, Element

    doc = Document("presentation")
    doc.body.clear()
    page = DrawPage("p1", name="page1")
    page.append(
        Element.from_tag(
            '<draw:frame presentation:class="title"><draw:text-box><text:p>Harvest plan'
            "</text:p></draw:text-box></draw:frame>"
        )
    )
    page.append(
        Element.from_tag(
            '<draw:frame presentation:class="outline"><draw:text-box><text:list>'
            "<text:list-item><text:p>Plums</text:p><text:list><text:list-item>"
            "<text:p>Early ones</text:p></text:list-item></text:list></text:list-item>"
            "<text:list-item><text:p>Quinces</text:p></text:list-item>"
            "</text:list></draw:text-box></draw:frame>"
        )
    )
    page.append(
        Element.from_tag(
            '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
            "<text:p>Say the price last.</text:p></draw:text-box></draw:frame>"
            "</presentation:notes>"
        )
    )
    doc.body.append(page)
    items = Reader().read(Blob(data=saved(doc), filename="plan.odp"))
    slide = next(i for i in items if not i.metadata.extra.get("section"))
    notes = next(i for i in items if i.metadata.extra.get("section") == "notes")
    assert slide.memory == "# Harvest plan\n\n- Plums\n  - Early ones\n- Quinces"
    assert notes.memory == "Say the price last." and notes.source.page == 1
    assert slide.metadata.extra["page_count"] == 1


def test_a_cells_runs_of_spaces_are_one_space_as_in_other_tables(corpus: Path) -> None:
    # Tika's test-columnar.ods, a fixed-width export: "This is row            0 of  …"
    items = Reader().read(corpus / "realworld/test-columnar.ods")
    assert "| This is row 0 of 10 | 0% |" in items[0].memory
    from odfdo import Document, Table

    doc = Document("spreadsheet")
    doc.body.clear()
    table = Table("Berths")
    table.set_value((0, 0), "berth")
    table.set_value((1, 0), "ship")
    table.set_value((0, 1), "North   2")
    table.set_value((1, 1), "MS   Aurora")
    doc.body.append(table)
    [sheet] = Reader().read(Blob(data=saved(doc), filename="berths.ods"))
    assert "| North 2 | MS Aurora |" in sheet.memory
