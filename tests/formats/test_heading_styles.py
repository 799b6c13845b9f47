"""A paragraph styled "Title" or LibreOffice's bare "Heading" is a level-1 heading, in a
Word file and in an OpenDocument text alike; "Subtitle" (whose parent is "Heading") stays
body text."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader


def test_a_legacy_word_file_saved_by_writer_keeps_its_heading_style(corpus: Path) -> None:
    # Tika's testWORD.doc: "Main Heading" is in Writer's "Heading" style, before Heading 1
    items = Reader().read(corpus / "realworld/testWORD.doc")
    # Subtitle stays body text; a heading right before another shares its section: no
    # item is a bare "# Main Heading"
    assert items[0].memory == "# Sample Word Document Title\n\nAnd now for a subtitle"
    assert items[1].memory.startswith("# Main Heading\n\n# Heading Level 1\n\n## Heading")


def test_a_word_style_named_heading_is_a_first_level_heading(tmp_path: Path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    document.styles.add_style("Heading", WD_STYLE_TYPE.PARAGRAPH)
    document.add_paragraph("Harbour expansion plan", style="Heading")
    document.add_paragraph("Two new berths by 2026.")
    path = tmp_path / "plan.docx"
    document.save(path)
    items = Reader().read(path)
    assert items[0].memory.startswith("# Harbour expansion plan\n\nTwo new berths")
    assert items[0].metadata.key == "Harbour expansion plan"


def test_an_opendocument_title_and_heading_paragraph_are_headings(tmp_path: Path) -> None:
    from odfdo import Document, Header, Paragraph, Style

    document = Document("text")
    # Writer's direct formatting wraps the style in an automatic one ("P1", parent Title)
    document.insert_style(Style("paragraph", name="P1", parent_style="Title"), automatic=True)
    document.insert_style(Style("paragraph", name="Subtitle", parent_style="Heading"))
    document.body.append(Paragraph("Harbour expansion plan", style="P1"))
    document.body.append(Paragraph("A proposal to the board", style="Subtitle"))
    document.body.append(Paragraph("Summary of works", style="Heading"))
    document.body.append(Header(2, "Berths"))
    document.body.append(Paragraph("Two new berths by 2026.", style="Text_20_body"))
    path = tmp_path / "plan.odt"
    document.save(path)
    items = Reader().read(path)
    assert items[0].memory == (
        "# Harbour expansion plan\n\nA proposal to the board\n\n# Summary of works\n\n"
        "## Berths\n\nTwo new berths by 2026."
    )
    assert items[0].metadata.key == "Harbour expansion plan"


def test_a_heading_straight_after_another_shares_its_section(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Part One", level=1)
    document.add_heading("Budget", level=1)
    document.add_paragraph("Spending stayed within plan.")
    document.add_heading("Staff", level=1)
    document.add_paragraph("Two hires.")
    path = tmp_path / "report.docx"
    document.save(path)
    assert [i.memory for i in Reader().read(path)] == [
        "# Part One\n\n# Budget\n\nSpending stayed within plan.",
        "# Staff\n\nTwo hires.",
    ]
