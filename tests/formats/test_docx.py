"""DOCX extraction: Markdown in document order, document info, fallbacks and broken files."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import docx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml

from omnireader.errors import CorruptError
from omnireader.formats.document import EMPTY, DocInfo, Section
from omnireader.formats.office.docx import extract_docx
from omnireader.payloads import Blob

NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)


def norm(text: str) -> str:
    return " ".join(text.lower().split())


def saved(document: docx.document.Document) -> bytes:
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def full_text(data: bytes, name: str = "doc.docx") -> tuple[DocInfo, list[Section], str]:
    doc = extract_docx(Blob(data=data, filename=name))
    sections = list(doc.sections)
    return doc.info, sections, "\n\n".join(s.text for s in sections)


def body_xml(document: docx.document.Document, xml: str) -> None:
    """Append raw body XML (before the section properties), as Word would write it."""
    document.element.body.insert(len(document.element.body) - 1, parse_xml(xml))


# --- the corpus ----------------------------------------------------------------------------


def test_corpus_test_docx_has_its_fragments_and_no_inlined_image(corpus: Path) -> None:
    expected = json.loads((corpus / "markitdown" / "expected.json").read_text("utf-8"))
    spec = expected["files"]["test.docx"]
    info, sections, text = full_text((corpus / "markitdown" / "test.docx").read_bytes())
    assert [f for f in spec["must_find"] if norm(f) not in norm(text)] == []
    assert [f for f in spec["must_not_find"] if f in text] == []
    assert [s.heading for s in sections] == [
        "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
        "Abstract",
        "Introduction",
    ]
    assert "| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |" in text
    assert info.authors == ["Adam Fourney", "Yuzhong Zhang"]  # "(SSE,123090848)" dropped
    assert info.created == "2024-03-15T05:45:00+00:00" and info.extra["extractor"] == "python-docx"


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("equations.docx", "sin^-1"),  # an equation, linearised
        ("rlink.docx", "Testing Linked Images"),  # an image linked to an outside file
        ("test_with_comment.docx", "AutoGen is an open-source framework"),  # comments
    ],
)
def test_unusual_corpus_docx_files_give_their_body_text(
    corpus: Path, name: str, fragment: str
) -> None:
    _, sections, text = full_text((corpus / "markitdown" / name).read_bytes(), name)
    assert fragment in text
    assert all(EMPTY not in s.flags for s in sections)


# --- structure, from documents written here ------------------------------------------------


def test_headings_paragraphs_lists_and_tables_become_markdown_in_order() -> None:
    document = docx.Document()
    document.add_heading("Trip Plan", 0)
    document.add_paragraph("Intro before the first chapter.")
    document.add_heading("Packing", 1)
    document.add_paragraph("Boots", style="List Bullet")
    document.add_paragraph("Rain jacket", style="List Bullet")
    document.add_heading("Route", 2)
    document.add_paragraph("Walk to the hut", style="List Number")
    document.add_paragraph("Climb the ridge", style="List Number")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Day", "Place | area"
    table.cell(1, 0).text, table.cell(1, 1).text = "1", "Hut"
    document.add_paragraph("After the table.")
    _, _, text = full_text(saved(document))
    assert text == (
        "# Trip Plan\n\nIntro before the first chapter.\n\n# Packing\n\n- Boots\n- Rain jacket"
        "\n\n## Route\n\n1. Walk to the hut\n2. Climb the ridge\n\n"
        "| Day | Place \\| area |\n| --- | --- |\n| 1 | Hut |\n\nAfter the table."
    )


def test_sections_split_at_the_top_heading_level() -> None:
    document = docx.Document()
    document.add_paragraph("Preface words.")
    for chapter in ("One", "Two"):
        document.add_heading(f"Chapter {chapter}", 1)
        document.add_heading(f"Part of {chapter}", 2)
        document.add_paragraph(f"Body of {chapter}.")
    _, sections, _ = full_text(saved(document))
    assert [(s.heading, s.page) for s in sections] == [
        (None, None),
        ("Chapter One", None),
        ("Chapter Two", None),
    ]
    assert sections[2].text == "# Chapter Two\n\n## Part of Two\n\nBody of Two."


def test_merged_cells_keep_their_columns() -> None:
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(0, 2).text = "Name", "Detail", "X"
    table.cell(1, 0).merge(table.cell(1, 1)).text = "Merged across two"
    table.cell(1, 2).text = "x1"
    _, _, text = full_text(saved(document))
    assert text == "| Name | Detail | X |\n| --- | --- | --- |\n| Merged across two |  | x1 |"


def test_a_table_holding_a_table_lays_out_and_its_cells_are_read_as_blocks() -> None:
    document = docx.Document()
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Contact sheet"
    cell = outer.cell(0, 1)
    cell.text = "Inner:"
    inner = cell.add_table(rows=2, cols=2)
    for r, row in enumerate([("Name", "Phone"), ("Ada", "555-0100")]):
        for c, value in enumerate(row):
            inner.cell(r, c).text = value
    _, _, text = full_text(saved(document))
    # The data table inside is judged on its own and stays a table.
    assert text == (
        "Contact sheet\n\nInner:\n\n| Name | Phone |\n| --- | --- |\n| Ada | 555-0100 |"
    )


def test_a_one_column_box_or_a_cell_of_lists_is_read_as_text_not_a_table() -> None:
    document = docx.Document()
    box = document.add_table(rows=1, cols=1)
    box.cell(0, 0).text = "Note: boxed text"
    lists = document.add_table(rows=1, cols=2)
    lists.cell(0, 0).text = "Steps"
    lists.cell(0, 1).paragraphs[0].text = "First step"
    lists.cell(0, 1).paragraphs[0].style = document.styles["List Bullet"]
    _, _, text = full_text(saved(document))
    assert "|" not in text
    assert text == "Note: boxed text\n\nSteps\n\n- First step"


def test_text_boxes_hyperlinks_and_tracked_changes() -> None:
    document = docx.Document()
    rid = document.part.relate_to("https://example.org/trail", RT.HYPERLINK, is_external=True)
    box = "<w:txbxContent><w:p><w:r><w:t>Boxed note</w:t></w:r></w:p></w:txbxContent>"
    body_xml(
        document,
        f"<w:p {NS}><w:r><w:t>Anchor text</w:t></w:r><w:r><mc:AlternateContent>"
        f'<mc:Choice Requires="wps"><w:drawing><wps:wsp><wps:txbx>{box}</wps:txbx></wps:wsp>'
        f"</w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>{box}</v:textbox>"
        "</v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>",
    )
    body_xml(
        document,
        f'<w:p {NS}><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="{rid}">'
        "<w:r><w:t>the trail map</w:t></w:r></w:hyperlink><w:del><w:r><w:delText>old words"
        "</w:delText></w:r></w:del><w:ins><w:r><w:t>, updated</w:t></w:r></w:ins>"
        '<w:r><w:fldChar w:fldCharType="begin"/><w:instrText>PAGE</w:instrText></w:r></w:p>',
    )
    _, _, text = full_text(saved(document))
    assert text == (
        "Anchor text\n\nBoxed note\n\nSee [the trail map](https://example.org/trail), updated"
    )


def test_cited_footnotes_are_listed_after_the_body() -> None:
    document = docx.Document()
    footnotes = (
        f'<w:footnotes {NS}><w:footnote w:id="1"><w:p><w:r><w:t>Measured in 2024.'
        "</w:t></w:r></w:p></w:footnote></w:footnotes>"
    )
    part = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        footnotes.encode(),
        document.part.package,
    )
    document.part.relate_to(part, RT.FOOTNOTES)
    body_xml(
        document,
        f"<w:p {NS}><w:r><w:t>The lake is deep.</w:t></w:r>"
        '<w:r><w:footnoteReference w:id="1"/></w:r></w:p>',
    )
    _, _, text = full_text(saved(document))
    assert text == "The lake is deep.[^1]\n\n[^1]: Measured in 2024."


def test_images_are_not_inlined_only_their_alt_text_is_kept(tmp_path: Path) -> None:
    from PIL import Image

    png = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), "red").save(png)
    document = docx.Document()
    document.add_paragraph("A picture follows.")
    document.add_picture(str(png))
    document.inline_shapes[0]._inline.docPr.set("descr", "A red\n dot")
    _, _, text = full_text(saved(document))
    assert text == "A picture follows.\n\n[image: A red dot]"


def test_words_generated_caption_keeps_its_description_and_drops_its_note(
    tmp_path: Path,
) -> None:
    from PIL import Image

    png = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), "red").save(png)
    document = docx.Document()
    document.add_picture(str(png))
    document.add_picture(str(png))
    shapes = document.inline_shapes
    shapes[0]._inline.docPr.set("descr", "A red dot  Description automatically generated")
    shapes[1]._inline.docPr.set("descr", "dot.png")  # a file name says nothing
    _, _, text = full_text(saved(document))
    assert text == "[image: A red dot]"


def test_core_properties_become_document_info() -> None:
    document = docx.Document()
    props = document.core_properties
    props.title, props.author, props.last_modified_by = "Field Notes", "Ana Ruiz", "Ben Ode"
    props.created = datetime(2024, 5, 1, 8, 30, tzinfo=UTC)
    props.modified = datetime(2024, 5, 2, 9, 0, tzinfo=UTC)
    props.subject = "Birds"
    document.add_paragraph("Saw a heron.")
    info, _, _ = full_text(saved(document))
    assert (info.title, info.authors) == ("Field Notes", ["Ana Ruiz", "Ben Ode"])
    assert info.created == "2024-05-01T08:30:00+00:00"
    assert info.modified == "2024-05-02T09:00:00+00:00"
    assert info.extra["subject"] == "Birds" and info.page_count is None


def test_a_document_without_text_is_one_section_flagged_empty() -> None:
    _, sections, _ = full_text(saved(docx.Document()))
    assert [(s.text, s.flags) for s in sections] == [("", [EMPTY])]


# --- fallbacks and broken files ------------------------------------------------------------


def rewrite_package(data: bytes, change: dict[bytes, bytes], names: tuple[str, ...]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            body = src.read(name)
            if name.endswith(names):
                for old, new in change.items():
                    body = body.replace(old, new)
            dst.writestr(name, body)
    return out.getvalue()


def simple_docx() -> bytes:
    document = docx.Document()
    document.add_heading("Harbour Log", 1)
    document.add_paragraph("The ferry left at noon.")
    return saved(document)


def test_strict_ooxml_is_read_through_markitdown() -> None:
    strict = rewrite_package(
        simple_docx(),
        {
            b"http://schemas.openxmlformats.org/wordprocessingml/2006/main": (
                b"http://purl.oclc.org/ooxml/wordprocessingml/main"
            ),
            b"http://schemas.openxmlformats.org/officeDocument/2006/relationships": (
                b"http://purl.oclc.org/ooxml/officeDocument/relationships"
            ),
        },
        (".xml", ".rels"),
    )
    info, _, text = full_text(strict)
    assert info.extra["extractor"] == "markitdown" and info.extra["fallback_reason"]
    assert "# Harbour Log" in text and "The ferry left at noon." in text


def test_a_package_python_docx_refuses_falls_back_to_markitdown() -> None:
    # A macro-enabled document saved with a .docx name: python-docx rejects its content type.
    main = b"wordprocessingml.document.main+xml"
    macro = rewrite_package(
        simple_docx(), {main: b"ms-word.document.macroEnabled.main+xml"}, ("].xml",)
    )
    with pytest.raises(ValueError):
        docx.Document(io.BytesIO(macro))
    info, _, text = full_text(macro)
    assert info.extra["extractor"] == "markitdown"
    assert "The ferry left at noon." in text


@pytest.mark.parametrize("keep", [0.0, 0.3, 0.8])
def test_a_truncated_docx_is_corrupt_and_names_the_input(keep: float) -> None:
    data = simple_docx()
    with pytest.raises(CorruptError) as caught:
        extract_docx(Blob(data=data[: int(len(data) * keep)], filename="cut.docx"))
    assert caught.value.input_name == "cut.docx" and caught.value.code == "corrupt"


def test_a_zip_that_is_not_a_word_document_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "photos.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "just a zip")
    with pytest.raises(CorruptError, match="not a Word document"):
        extract_docx(Blob(path=str(path)))
