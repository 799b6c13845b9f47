"""DOCX page headers and footers when a document has several: first-page, even and default
ones, several paragraphs and runs each, several sections, tracked changes. Each is read
whole and apart, never spliced into another (issue 27: "This is a headern bold")."""

from __future__ import annotations

import io

import docx
from docx.oxml import parse_xml

from omnireader.formats.office.docx import extract_docx
from omnireader.payloads import Blob

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _parts(document) -> list[tuple[str | None, str]]:
    buf = io.BytesIO()
    document.save(buf)
    doc = extract_docx(Blob(data=buf.getvalue(), filename="headers.docx"))
    return [(s.part, s.text) for s in doc.sections if s.part in ("header", "footer")]


def test_first_even_and_default_headers_with_several_paragraphs_and_runs() -> None:
    document = docx.Document()
    document.add_paragraph("Body text.")
    section = document.sections[0]
    section.different_first_page_header_footer = True
    document.settings.odd_and_even_pages_header_footer = True
    section.header.paragraphs[0].text = "This is a header"
    p = section.header.add_paragraph()
    p.add_run("Another header ")
    p.add_run("in bold").bold = True
    section.first_page_header.paragraphs[0].text = "First page header"
    section.even_page_header.paragraphs[0].text = "Even page header"
    section.footer.paragraphs[0].text = "This is a footer"
    section.footer.add_paragraph("Another footer")
    section.footer.add_paragraph("With 3 paragraphs")
    parts = _parts(document)
    assert ("header", "This is a header\nAnother header in bold") in parts
    assert ("header", "First page header") in parts and ("header", "Even page header") in parts
    assert ("footer", "This is a footer\nAnother footer\nWith 3 paragraphs") in parts


def test_each_section_header_is_read_and_tracked_deletions_are_not() -> None:
    document = docx.Document()
    document.add_paragraph("Body.")
    p = document.sections[0].header.paragraphs[0]._p
    p.append(
        parse_xml(
            f'<w:del {W} w:id="1" w:author="a"><w:r><w:delText>This is a header'
            "</w:delText></w:r></w:del>"
        )
    )
    p.append(
        parse_xml(
            f'<w:ins {W} w:id="2" w:author="a"><w:r><w:t>Another header i</w:t></w:r></w:ins>'
        )
    )
    p.append(parse_xml(f"<w:r {W}><w:t>n bold</w:t></w:r>"))
    second = document.add_section()
    second.header.is_linked_to_previous = False
    second.header.paragraphs[0].text = "Second section header"
    assert _parts(document) == [
        ("header", "Another header in bold"),
        ("header", "Second section header"),
    ]
