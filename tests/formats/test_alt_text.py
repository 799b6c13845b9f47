"""A picture's alt text in a document's text (omnireader.formats.alt_text): what a person
wrote about the picture, without the notes Office adds to the captions it writes itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.alt_text import clean_alt, picture

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


@pytest.mark.parametrize(
    ("alt", "kept"),
    [
        ("A jellyfish in water Description automatically generated", "A jellyfish in water"),
        ("A chart  Description automatically generated with medium confidence", "A chart"),
        ("A red and blue square AI-generated content may be incorrect.", "A red and blue square"),
        ("图形用户界面, 文本 AI 生成的内容可能不正确。", "图形用户界面, 文本"),
        ("Ein Diagramm. Automatisch generierte Beschreibung", "Ein Diagramm"),
        ("Sales by region [2023]", "Sales by region (2023)"),  # one [image: …] mark stays one
        ("Description automatically generated", ""),
        ("Toyota Yaris WRC.jpg", ""),
        ("image", ""),
        ("  ", ""),
        (None, ""),
    ],
)
def test_alt_text_keeps_what_a_person_wrote(alt: str | None, kept: str) -> None:
    assert clean_alt(alt) == kept
    assert picture(alt) == (f"[image: {kept}]" if kept else "")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_no_generated_note_reaches_the_items_of_real_office_files() -> None:
    files = [
        *CORPUS.glob("markitdown/*.docx"),
        *CORPUS.glob("realworld/*.docx"),
        *CORPUS.glob("markitdown/*.pptx"),
    ]
    items = Reader().read([str(f) for f in files], on_error="skip")
    text = "\n".join(i.memory for i in items)
    assert "[image: " in text  # the pictures' descriptions are still there
    for note in ("automatically generated", "AI-generated content", "AI 生成的内容"):
        assert note not in text


def test_a_web_page_marks_its_pictures_as_office_files_do(tmp_path: Path) -> None:
    # The same picture() for HTML: one [image: …] mark, the generated note and file names
    # gone, brackets inside the alt text made round so the mark stays one.
    page = tmp_path / "pictures.html"
    page.write_text(
        "<html><body><h1>Logos</h1><p>The company changed its logo four times.</p>"
        '<p><img src="a.png" alt="A red square  Description automatically generated"></p>'
        '<p><img src="b.png" alt="Fifth and current logo[275]"></p>'
        '<p><img src="c.jpg" alt="Toyota Yaris WRC.jpg"></p>'
        '<p><img src="d.png" alt="image"></p></body></html>',
        encoding="utf-8",
    )
    text = "\n".join(i.memory for i in Reader().read(str(page)))
    assert "[image: A red square]" in text
    assert "[image: Fifth and current logo(275)]" in text
    assert "automatically generated" not in text
    assert "Toyota" not in text and "[image: image]" not in text
