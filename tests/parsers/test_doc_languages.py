"""A document's chunks are guessed their language together, after its pages are read
(``doc_languages.guess_languages``): each chunk still gets its own text's guess."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.models import Source
from omnireader.parsers.base import ParseContext, chunk_source
from omnireader.parsers.doc_languages import guess_languages
from omnireader.parsers.file import FileParser
from omnireader.text.chunking import chunk_text
from omnireader.text.language import guess_language

FRENCH = "La réunion du conseil est reportée à jeudi après-midi, dans la grande salle."
ENGLISH = "The board meeting has been moved to Thursday afternoon, in the large room."


def test_a_chunk_made_without_a_guess_has_no_language_until_the_document_guesses_it() -> None:
    [chunk] = chunk_text(FRENCH, 512)
    source = chunk_source(Source(kind="file"), chunk, guess=False)
    assert source.lang is None
    items = FileParser().make_chunk_items(
        chunk_text(FRENCH, 512) + chunk_text(ENGLISH, 512),
        ParseContext(),
        source=Source(kind="file"),
        where=("", 1),
        source_update={"page": 1, "lang": None},
        guess=False,
    )
    assert [i.metadata.sources[0].lang for i in items] == [None, None]
    guess_languages(items)
    assert [i.metadata.sources[0].lang for i in items] == ["fr", "en"]


def test_a_declared_language_is_not_replaced_by_the_guess() -> None:
    items = FileParser().make_chunk_items(
        chunk_text(ENGLISH, 512),
        ParseContext(),
        source=Source(kind="file"),
        where=("", 1),
        source_update={"page": 1, "lang": "de"},
        guess=False,
    )
    guess_languages(items)
    assert items[0].metadata.sources[0].lang == "de"


def test_every_sure_chunk_of_a_pdf_carries_its_own_guess(corpus: Path) -> None:
    # Guessed at the end of the document, not page by page: the same answer each chunk's
    # own text gives (an unsure one may take its neighbours', doc_languages.py).
    items = Reader(ocr="off").read(corpus / "markitdown" / "REPAIR-2022-INV-001_multipage.pdf")
    assert len(items) > 1
    for item in items:
        guess = guess_language(item.memory)
        if guess.sure:
            assert item.metadata.sources[0].lang == guess.lang
    assert all(i.metadata.sources[0].lang is not None for i in items)
