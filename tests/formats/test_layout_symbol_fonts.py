"""Words set in Wingdings read as the marks they draw; words in any other font, Wingdings 2
and 3 included, stay as they are. The fonts of a page are matched once each, not a word at
a time: the same words either way (this pins it; it passes on the code before that too)."""

from __future__ import annotations

import random

from omnireader.formats.layout.model import Word
from omnireader.formats.layout.symbol_fonts import _WINGDINGS, _mark, read_symbols

FONTS = [
    "ABCDEF+Wingdings-Regular",
    "Wingdings,Bold",
    "wingdings",
    "Wingdings2",
    "Wingdings 3",
    "Wingdings-3",
    "Helvetica",
    "ABCDEF+Arial",
    "",
]


def _word(text: str, font: str) -> Word:
    return Word(text, 0.0, 0.0, 10.0, 10.0, 10.0, False, font)


def test_only_words_in_wingdings_become_marks() -> None:
    words = [_word("\xa8x", font) for font in FONTS]
    out = read_symbols(words)
    assert out is words  # the same list, changed in place
    assert [w.text for w in out] == ["\u2610\u2612"] * 3 + ["\xa8x"] * 6


def test_a_page_of_many_words_in_a_few_fonts_reads_as_word_by_word() -> None:
    rng = random.Random(38)
    texts = ["Yes", "\xa8", "x", "\uf0fe", "\u00fdNo", "l", "Ø12"]
    words = [_word(rng.choice(texts), rng.choice(FONTS)) for _ in range(500)]
    want = [
        "".join(_mark(ch) for ch in w.text) if w.font and _WINGDINGS.search(w.font) else w.text
        for w in words
    ]
    assert [w.text for w in read_symbols(words)] == want


def test_a_page_without_wingdings_is_left_alone() -> None:
    words = [_word("\xa8 x", "Helvetica"), _word("Ø", "")]
    assert [w.text for w in read_symbols(words)] == ["\xa8 x", "Ø"]
