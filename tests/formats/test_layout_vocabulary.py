"""A document's vocabulary (what decides whether a line-end hyphen is a break): its words of
two letters or more, lower-cased, whatever their script; ASCII text is split at C speed and
must give the words the regular expression gives."""

from __future__ import annotations

import random
import re
import string

from omnireader.formats.layout.reflow import Vocabulary, join_hyphenated

WORD = re.compile(r"[^\W\d_]{2,}")  # the definition
# Mostly ASCII, with the marks outside it a page sets (quotes, dashes, bullets, spaces),
# digits and letters of other scripts, and characters whose lower case grows (İ → i̇).
_MARKS = "\u2019\u201c\u201d\u2014\u2013\u2022\u00a0\u2003\u00a7\u00ae\u0307\u0660\u00b2"
_LETTERS = "\u00e9\u00df\u0130\u1e9e\u3042\u4e00\ufb01\u2160\u00bd"


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


def test_text_with_marks_outside_ascii_gives_the_words_of_the_definition() -> None:
    rng = random.Random(38)
    ascii_part = "abcdefghij KLMNOP qrs-tu 0123 _.,;:'\"()"
    for n in range(4000):
        alphabet = ascii_part * 4 + _MARKS + (_LETTERS if n % 3 == 0 else "")
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(80)))
        assert _words(text) == {w.lower() for w in WORD.findall(text)}, repr(text)


def test_a_quote_or_a_dash_parts_words_and_a_letter_outside_ascii_joins_them() -> None:
    assert _words("Company\u2019s\u2014results \u201cgrew\u201d \u2022 x\u00b2y caf\u00e9s") == {
        "company",
        "results",
        "grew",
        "x\u00b2y",
        "cafés",
    }
    assert _words("\u0130stanbul \u00a7 12") == {"\u0130stanbul".lower()}
