"""A line-end hyphen between one word twice stays (``layout/reflow.py: join_hyphenated``):
a reduplicated compound ("pindaan-pindaan", "so-so"), never a word broken in two, unless
the document writes the joined form."""

from __future__ import annotations

from omnireader.formats.layout.reflow import Vocabulary, join_hyphenated


def test_one_word_twice_keeps_its_hyphen() -> None:
    assert join_hyphenated("pindaan-", "pindaan", Vocabulary()) == "pindaan-pindaan"
    assert join_hyphenated("so-", "so", Vocabulary()) == "so-so"


def test_unless_the_document_writes_it_joined() -> None:
    vocabulary = Vocabulary()
    vocabulary.add_text("a low murmur")
    assert join_hyphenated("mur-", "mur", vocabulary) == "murmur"
    assert join_hyphenated("con-", "firming", vocabulary) == "confirming"
