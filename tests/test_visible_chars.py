"""A text's non-space characters, counted by the compiled loop (``_scan.non_space``) and in
Python: both are ``len("".join(text.split()))``, for every whitespace ``str.split`` knows."""

from __future__ import annotations

import random
import sys

import pytest

from omnireader.text import visible_chars as module
from omnireader.text.visible_chars import visible_chars

needs_scan = pytest.mark.skipif(
    getattr(module.scan, "non_space", None) is None, reason="_scan is not built"
)
# Every character str.split() splits at (29 in Python 3.11), and some it does not.
SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
OTHERS = ["a", "Z", "1", "\u200b", "\ufeff", "\u00ad", "’", "é", "一", "\U0001f600", "\x00"]


def _definition(text: str) -> int:
    return len("".join(text.split()))


@needs_scan
@pytest.mark.parametrize("ch", SPACES + OTHERS)
def test_each_space_and_non_space_counts_as_str_split_has_it(ch: str) -> None:
    for text in (ch, f"a{ch}b", ch * 3, f"{ch}é{ch}\U0001f600"):
        assert visible_chars(text) == visible_chars(text, compiled=False) == _definition(text)


def test_random_texts_count_the_same_compiled_and_not() -> None:
    rng = random.Random(38)
    alphabet = SPACES + OTHERS + list("abc xyz\n\t")
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        assert visible_chars(text, compiled=False) == _definition(text)
        assert visible_chars(text) == _definition(text)


def test_a_page_of_text_in_each_string_width() -> None:
    # One byte a character (ASCII, Latin-1), two (a curly quote) and four (an emoji).
    for text in ("Net sales  2019\n", "Café\xa0Noir\x85", "It’s\u2003done", "Up \U0001f4c8 3%"):
        assert visible_chars(text) == visible_chars(text, compiled=False) == _definition(text)


def test_without_the_compiled_loop_python_counts(monkeypatch) -> None:
    monkeypatch.setattr(module, "scan", None)
    assert visible_chars(" a\u3000b\u2028c ") == 3


@needs_scan
def test_the_compiled_count_refuses_what_is_no_text() -> None:
    with pytest.raises(TypeError):
        module.scan.non_space(b"bytes")
