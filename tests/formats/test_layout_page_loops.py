"""A page's two counts before its blocks, compiled (``_loops.c``: ``char_sizes``,
``in_boxes``) and in Python, give the same result: the characters by size that decide the
body size, and which words stand in a table. Sizes that are no float or no number, texts
that are no str and more sizes than the compiled loop holds go to Python, so both ways are
run on the same words and compared."""

from __future__ import annotations

import math
import random

import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Table, Word
from omnireader.formats.layout.page import _in_tables, _sizes

needs_loops = pytest.mark.skipif(
    pdfium_calls.loops is None, reason="the compiled loops are not built (no C compiler)"
)


def _words(rng: random.Random, n: int, sizes: list[float]) -> list[Word]:
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, 600), rng.uniform(0, 800)
        text = "".join(rng.choice("ab1.\u00e9\u4e00") for _ in range(rng.randrange(0, 9)))
        out.append(
            Word(text, x, y, x + rng.uniform(0, 60), y + rng.uniform(0, 12), rng.choice(sizes))
        )
    return out


def test_characters_by_size_to_the_half_point() -> None:
    words = [
        Word("Results", 0, 0, 1, 1, 10.2),
        Word("of", 0, 0, 1, 1, 10.0),
        Word("x", 0, 0, 1, 1, 14.0),
    ]
    for compiled in (True, False):
        assert _sizes(words, compiled) == {10.0: 9, 14.0: 1}
        assert _sizes([], compiled) == {}


@needs_loops
@pytest.mark.parametrize("kind", ["few", "many", "nan", "int", "over_64"])
def test_sizes_are_counted_the_same_compiled(kind: str) -> None:
    rng = random.Random(sum(map(ord, kind)))
    sizes = {
        "few": [9.96, 10.0, 12.0, 7.5, 7.7],
        "many": [rng.uniform(5, 30) for _ in range(20)],
        "nan": [10.0, math.nan, 12.0],
        "int": [10, 10.0, 12],
        "over_64": [5 + i * 0.25 for i in range(80)],
    }[kind]
    for n in (0, 1, 40, 700):
        words = _words(rng, n, sizes)
        if any(w.size != w.size for w in words):  # no half point: both ways refuse it
            assert pdfium_calls.loops.char_sizes(words) is None
            with pytest.raises(ValueError):
                _sizes(words, True)
            continue
        got, want = _sizes(words, True), _sizes(words, False)
        assert repr(got) == repr(want)  # the same keys in the same order


@needs_loops
def test_a_word_that_is_not_plain_goes_to_python() -> None:
    words = [Word("ab", 0, 0, 1, 1, 10.0), Word("cde", 0, 0, 1, 1, 10.0)]
    assert pdfium_calls.loops.char_sizes(words) == {10.0: 5}
    words[1].text = ["c", "d"]  # type: ignore[assignment]  # no str: len() decides
    assert pdfium_calls.loops.char_sizes(words) is None
    assert _sizes(words, True) == _sizes(words, False) == {10.0: 4}


@needs_loops
def test_words_in_tables_are_found_the_same_compiled() -> None:
    rng = random.Random(38)
    for round_ in range(60):
        words = _words(rng, rng.randrange(0, 300), [10.0])
        if round_ % 7 == 0 and words:
            words[0].x0 = math.nan  # a centre that is no number is in no table
        tables = []
        for _ in range(rng.randrange(0, 4)):
            x, y = rng.uniform(0, 500), rng.uniform(0, 700)
            tables.append(Table([["a"]], x, y, x + rng.uniform(0, 200), y + rng.uniform(0, 200)))
        want = _in_tables(words, tables, False)
        assert _in_tables(words, tables, True) == want
    edge = Word("x", 10.0, 10.0, 20.0, 20.0)  # its centre on the table's corner: inside
    corner = Table([["x"]], 15.0, 15.0, 30.0, 30.0)
    assert _in_tables([edge], [corner], True) == _in_tables([edge], [corner], False) == [True]


@needs_loops
def test_a_box_not_in_floats_goes_to_python() -> None:
    words = [Word("x", 10.0, 10.0, 20.0, 20.0)]
    table = Table([["x"]], 0, 0, 100, 100)  # ints (a table built by hand)
    assert pdfium_calls.loops.in_boxes(words, [table]) is None
    assert _in_tables(words, [table], True) == [True]
