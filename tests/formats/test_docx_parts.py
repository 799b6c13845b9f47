"""DOCX parts around the body: headers, footers and comments, each its own marked section."""

from __future__ import annotations

import io

from omnireader import Reader
from omnireader.payloads import Blob


def test_headers_footers_and_comments_are_read_and_marked() -> None:
    import docx

    document = docx.Document()
    paragraph = document.add_paragraph("The plum harvest starts in May.")
    document.add_comment(paragraph.runs, text="Check the date with Bo.", author="Ann Lee")
    section = document.sections[0]
    section.header.paragraphs[0].text = "Orchard report 2025"
    section.footer.paragraphs[0].text = "Confidential: orchard staff only"
    document.add_section()  # linked to the first: its header is not read twice
    buf = io.BytesIO()
    document.save(buf)
    items = Reader().read(Blob(data=buf.getvalue(), filename="report.docx"))
    by_part = {i.metadata.extra.get("section"): i for i in items}
    assert set(by_part) == {None, "header", "footer", "comments"}
    assert by_part["header"].memory == "Orchard report 2025"
    assert by_part["footer"].memory == "Confidential: orchard staff only"
    assert by_part["comments"].memory == (
        '- Ann Lee on "The plum harvest starts in May.": Check the date with Bo.'
    )
    assert "Orchard report" not in by_part[None].memory
    assert by_part["header"].metadata.tags == ["docx", "header"]
