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
