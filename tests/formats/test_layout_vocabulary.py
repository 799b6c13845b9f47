"""A document's vocabulary (what decides whether a line-end hyphen is a break): its words of
two letters or more, lower-cased, whatever their script; ASCII text is split at C speed and
must give the words the regular expression gives."""

from __future__ import annotations

import random
import re
import string

from omnireader.formats.layout.reflow import Vocabulary, join_hyphenated

WORD = re.compile(r"[^\W\d_]{2,}")  # the definition


def _words(text: str) -> set[str]:
    vocabulary = Vocabulary()
    vocabulary.add_text(text)
    return vocabulary.words


def test_ascii_text_gives_the_words_of_the_definition() -> None:
    rng = random.Random(1)
    alphabet = string.printable + "".join(map(chr, range(128)))
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
        assert _words(text) == set(WORD.findall(text.lower())), text


def test_words_are_two_letters_or_more_lower_cased_in_any_script() -> None:
    assert _words("A Co-op, 2nd floor: x_y the Déjà-vu Straße") == {
        "co",
        "op",
        "nd",
        "floor",
        "the",
        "déjà",
        "vu",
        "straße",
    }


def test_a_hyphen_goes_when_the_joined_word_is_one_of_the_documents() -> None:
    vocabulary = Vocabulary()
    vocabulary.add_text("The confirming letter arrived.")
    assert join_hyphenated("con-", "firming", vocabulary) == "confirming"
