"""Footnotes and endnotes of Word and OpenDocument files sit beside the text citing them.

Before, a DOCX listed every footnote after its body (in the last chunk, under the last
heading), cited endnotes with no mark and kept them in an "Endnotes" item of their own, and
an ODT wrote "rather[1]" and its notes as a numbered list at the document's end.
"""

from __future__ import annotations

import io
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from odfdo import Document, Header, Note, Paragraph

from omnireader import Reader
from omnireader.formats.office.docx import extract_docx
from omnireader.formats.office.note_places import place_notes
from omnireader.payloads import Blob

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _item_with(items: list, text: str):  # noqa: ANN202 - a MemoryItem
    return next(i for i in items if text in i.memory)


def test_example_docx_notes_are_in_the_item_that_cites_them(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "example.docx")
    cites = _item_with(items, "Reference footnote 1")
    assert "Reference footnote 1[^1]\n\n[^1]: First footnote\n\n" in cites.memory
    assert "[^2]: Second footnote" in cites.memory
    # An endnote reference is marked, and its text follows it.
    assert "Reference endnote 1[^e1]\n\n[^e1]: First endnote" in cites.memory
    assert "Reference endnote 2[^e2]\n\n[^e2]: Second endnote" in cites.memory
    # Not in the last body item (the "Heading 1" part), nor an "Endnotes" item of their own.
    headed = _item_with(items, "# Heading 2")
    assert "footnote" not in headed.memory
    assert "endnotes" not in {i.metadata.extra.get("section") for i in items}


def _docx_with_footnotes(notes: dict[str, str], body: str) -> bytes:
    document = docx.Document()
    xml = "".join(
        f'<w:footnote w:id="{n}"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:footnote>'
        for n, text in notes.items()
    )
    part = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        f"<w:footnotes {W}>{xml}</w:footnotes>".encode(),
        document.part.package,
    )
    document.part.relate_to(part, RT.FOOTNOTES)
    for element in parse_xml(f"<w:body {W}>{body}</w:body>"):  # before the section's settings
        document.element.body.insert(len(document.element.body) - 1, element)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _p(text: str, note: str | None = None, style: str | None = None) -> str:
    ref = f'<w:r><w:footnoteReference w:id="{note}"/></w:r>' if note else ""
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r>{ref}</w:p>"


def test_a_footnote_stays_in_the_section_citing_it_numbered_as_word_shows_it() -> None:
    # Word numbers footnotes 1, 2 in the order they are cited, whatever their ids.
    data = _docx_with_footnotes(
        {"7": "Measured at the pier in 2024.", "3": "Source: harbour office."},
        _p("Depths", style="Heading1")
        + _p("The lake is 40 m deep.", note="7")
        + _p("It is cold all year.")
        + _p("Berths", style="Heading1")
        + _p("Two berths were added.", note="3"),
    )
    sections = list(extract_docx(Blob(data=data, filename="harbour.docx")).sections)
    depths, berths = (s for s in sections if s.heading in ("Depths", "Berths"))
    assert depths.text == (
        "# Depths\n\nThe lake is 40 m deep.[^1]\n\n[^1]: Measured at the pier in 2024."
        "\n\nIt is cold all year."
    )
    assert berths.text == "# Berths\n\nTwo berths were added.[^2]\n\n[^2]: Source: harbour office."


def test_a_note_cited_in_a_list_or_a_heading_follows_the_list_or_the_paragraph() -> None:
    text = "# Plan[^1]\n\nTwo phases.\n\n- dredge[^2]\n- build\n\nDone."
    notes = {"1": "Draft.", "2": "In 2025."}
    assert place_notes([text], notes) == [
        "# Plan[^1]\n\nTwo phases.\n\n[^1]: Draft.\n\n- dredge[^2]\n- build\n\n[^2]: In 2025."
        "\n\nDone."
    ]
    # RTF's paragraphs are lines: a note follows its line, or the table whose row cites it.
    rtf = "Berths:\n| Pier | Fee[^1] |\n| --- | --- |\n| North | 4 |\nPaid yearly."
    assert place_notes([rtf], {"1": "Before tax."}, by_line=True) == [
        "Berths:\n| Pier | Fee[^1] |\n| --- | --- |\n| North | 4 |\n[^1]: Before tax.\nPaid yearly."
    ]
    # A note no text cites (its mark was where nothing was read) still ends the document.
    assert place_notes(["One.", "Two."], {"9": "Lost mark."}) == [
        "One.",
        "Two.\n\n[^9]: Lost mark.",
    ]


def test_odt_footnote_follows_its_paragraph_as_a_markdown_note(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "testODFwithOOo3.odt")
    body = items[0].memory
    assert "This is a rather[^1] difficult test document, with interesting features." in body
    assert "interesting features.\n\n[^1]: This is of course a simple footnote\n\n" in body
    assert "1. This is of course" not in body and "rather[1]" not in body


def test_odt_footnotes_and_endnotes_each_beside_their_paragraph(tmp_path: Path) -> None:
    document = Document("text")
    body = document.body
    body.clear()
    body.append(Header(1, "Harbour"))
    first = Paragraph("The lake is deep.")
    first.append(Note(note_class="footnote", note_id="ftn1", citation="1", body="Measured."))
    body.append(first)
    body.append(Paragraph("It is cold."))
    second = Paragraph("Two berths were added.")
    second.append(Note(note_class="endnote", note_id="edn1", citation="i", body="In 2025."))
    body.append(second)
    path = tmp_path / "harbour.odt"
    document.save(path)
    [item] = Reader().read(path)
    assert item.memory == (
        "# Harbour\n\nThe lake is deep.[^1]\n\n[^1]: Measured.\n\nIt is cold.\n\n"
        "Two berths were added.[^ei]\n\n[^ei]: In 2025."
    )
