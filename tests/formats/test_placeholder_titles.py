"""A title field that names nothing ("PowerPoint Presentation", "Untitled document",
"Slide 1", the file's own name) is not the document's title: its items are titled by the
first heading, or the first line, of the document instead. The list is a data file a user
can replace."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import ConfigError
from omnireader.formats.titles import is_placeholder_title, title_from_text


def _titles(items: list) -> set[tuple[str | None, str | None, str | None]]:
    return {(i.metadata.key, i.metadata.topic, i.metadata.extra.get("title")) for i in items}


def test_a_deck_titled_by_its_template_takes_its_first_slide_title(tmp_path: Path) -> None:
    from pptx import Presentation

    deck = Presentation()
    deck.core_properties.title = "PowerPoint Presentation"
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Harbour expansion plan"
    slide.placeholders[1].text = "Two new berths by 2026"
    path = tmp_path / "deck.pptx"
    deck.save(path)
    items = Reader().read(path)
    title = "Harbour expansion plan"
    assert _titles(items) == {(title, title, title)}


def test_an_untitled_docx_takes_its_first_heading(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "Untitled document"
    document.add_paragraph("Prepared by the finance team")
    document.add_heading("Budget review 2024", level=1)
    document.add_paragraph("Spending stayed within plan.")
    path = tmp_path / "notes.docx"
    document.save(path)
    items = Reader().read(path)
    assert _titles(items) == {("Budget review 2024",) * 3}


def test_a_page_titled_by_its_file_name_takes_its_first_line_without_a_heading(
    tmp_path: Path,
) -> None:
    html = (
        "<html><head><title>glxz-10k_20211231.htm</title></head><body>"
        "<p>ANNUAL REPORT PURSUANT TO SECTION 13</p><p>For the fiscal year ended 2021.</p>"
        "</body></html>"
    )
    path = tmp_path / "filing.htm"
    path.write_text(html, encoding="utf-8")
    items = Reader().read(path)
    assert _titles(items) == {("ANNUAL REPORT PURSUANT TO SECTION 13",) * 3}


def test_an_untitled_pdf_takes_its_first_heading_as_other_formats_do(tmp_path: Path) -> None:
    # The PDF reader used to drop "Untitled" from the Info dict itself, so the parser never
    # saw a placeholder to replace: the items kept the file name as their title.
    from pypdf import PdfReader, PdfWriter

    from tests.formats.test_pdf import make_pdf

    page = (
        b"BT /F1 24 Tf 72 700 Td (Budget review 2024) Tj ET "
        b"BT /F1 11 Tf 72 660 Td (Spending stayed within plan for the whole year.) Tj ET"
    )
    bare = tmp_path / "bare.pdf"
    bare.write_bytes(make_pdf([page]))
    writer = PdfWriter(clone_from=PdfReader(bare))
    writer.add_metadata({"/Title": "Untitled"})
    path = tmp_path / "minutes.pdf"
    with path.open("wb") as f:
        writer.write(f)
    items = Reader().read(path)
    assert _titles(items) == {("Budget review 2024",) * 3}


def test_a_real_title_is_kept(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "Presentation of the harbour plan"
    document.add_heading("Background", level=1)
    document.add_paragraph("The harbour is full.")
    path = tmp_path / "plan.docx"
    document.save(path)
    items = Reader().read(path)
    assert _titles(items) == {("Presentation of the harbour plan",) * 3}


def test_the_list_is_a_file_a_user_replaces(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "ACME standard form"
    document.add_heading("Leave request", level=1)
    path = tmp_path / "form.docx"
    document.save(path)
    assert _titles(Reader().read(path)) == {("ACME standard form",) * 3}
    mine = tmp_path / "placeholders.txt"
    mine.write_text("# our templates\nre:acme standard \\w+\n", encoding="utf-8")
    assert _titles(Reader(placeholder_titles=str(mine)).read(path)) == {("Leave request",) * 3}
    # the user's list replaces the bundled one: "Untitled document" is a title again
    assert not is_placeholder_title("Untitled document", "x.docx", str(mine))


def test_a_bad_pattern_in_the_list_is_a_config_error_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Untitled\nre:([unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 2"):
        is_placeholder_title("Anything", "x.docx", str(bad))


@pytest.mark.parametrize(
    "title",
    [
        "Slide 1",
        "slide 12",
        "PowerPoint Presentation",
        "Presentation",
        "Untitled spreadsheet",
        "Document1",
        "Microsoft Word - report.doc",
        "glxz-10k_20211231.htm",
        "minutes.docx",
    ],
)
def test_placeholders_are_told(title: str) -> None:
    assert is_placeholder_title(title, "minutes.docx")


@pytest.mark.parametrize(
    "title",
    ["Slide rules of thumb", "Quarterly presentation to the board", "Untitled (1957)", "deck"],
)
def test_titles_that_only_look_alike_are_kept(title: str) -> None:
    assert not is_placeholder_title(title, "deck.pptx")


def test_a_first_line_skips_tables_and_images_and_loses_its_marks() -> None:
    assert title_from_text("![logo](a.png)\n| a | b |\n\n- **Board** [minutes](x)") == (
        "Board minutes"
    )


def test_a_note_mark_after_a_word_is_no_part_of_the_title(corpus: Path) -> None:
    # Tika's testPPT_various.ppt: a template title, its first line "Footnote appears here[1]"
    items = Reader().read(corpus / "realworld/testPPT_various.ppt")
    assert {i.metadata.key for i in items} == {"Footnote appears here"}
    # the readers' own marks anywhere; a bare "[1]" only at the end, after a letter
    assert title_from_text("# Harbour fees[^1] for 2025[^e2]") == "Harbour fees for 2025"
    assert title_from_text("# Reading x[0] in loops") == "Reading x[0] in loops"
    assert title_from_text("# [1] Harbour fees") == "[1] Harbour fees"
