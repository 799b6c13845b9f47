"""The compiled line loops (``_loops.c``: ``bands``, ``split_rows``, ``gutter_votes``,
``label_gap``, the table finder's ``group_lines``) give what the Python loops give, to the
type of every number: on seeded pages of one and two columns, labels a tab before their
text, size changes, short symbol boxes and bold runs, shuffled or in order; on words that
are not ``model.Word`` (read by name) and on a word class changed after the loops first
read it.

The loops read a ``Word``'s fields at their slots' offsets and make each ``Line`` without
its ``__init__``; anything they cannot read that way goes the slow way, with the same result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.gutters import find_gutters
from omnireader.formats.layout.lines import _label_gap, make_lines
from omnireader.formats.layout.model import Line, Word
from omnireader.formats.layout.tables_text import group_lines

needs_loops = pytest.mark.skipif(
    pdfium_calls.loops is None, reason="the compiled loops are not built (no C compiler)"
)

_LABELS = ["1.", "(a)", "ITEM", "•", "2.1", "iv)", "*10.2", "Note"]
_TEXTS = ["revenue", "grew", "in", "the", "year", "2023", "$", "1,200", "—", "Über", "ﬁrm"]


def _page(rng: random.Random, columns: int) -> list[Word]:
    """A page of rows: each row ``columns`` runs of words (a gutter of 10–30 pt between
    them), some opening with a label a tab before the text, some with a word in another
    size or bold, a few short symbol boxes and marks above the line."""
    words: list[Word] = []
    width = 540.0 / columns
    for r in range(rng.randint(3, 45)):
        top = 60.0 + 14.0 * r + rng.uniform(-0.4, 0.4)
        for c in range(columns):
            x = 36.0 + c * (width + rng.choice([10.0, 12.0, 30.0]))
            end = x + width * rng.uniform(0.5, 1.0)
            if rng.random() < 0.2:
                label = rng.choice(_LABELS)
                words.append(Word(label, x, top, x + 6.0 * len(label), top + 10.0, 10.0))
                x += rng.choice([20.0, 60.0, 120.0])
            while x < end:
                text = rng.choice(_TEXTS)
                size = rng.choice([10.0] * 10 + [7.0, 14.0])
                height = size if rng.random() > 0.05 else size * 0.5  # a short symbol box
                w = Word(text, x, top, x + 5.0 * len(text), top + height, size, rng.random() < 0.2)
                words.append(w)
                x = w.x1 + rng.choice([2.5, 2.5, 3.0, 18.0])
            if rng.random() < 0.1:  # a footnote mark over the end of the run
                words.append(Word("1", x, top - 2.0, x + 3.0, top + 4.0, 6.0))
    rng.shuffle(words)
    return words


def _shown(lines: list[Line]) -> list[str]:
    """Each line as its repr and the types of its numbers (an int is not a float here)."""
    return [
        repr(line) + repr([type(v) for v in (line.x0, line.y0, line.x1, line.y1, line.size)])
        for line in lines
    ]


@needs_loops
def test_seeded_pages_make_the_same_lines_and_groups_compiled() -> None:
    rng = random.Random(38)
    with_gutters = label_columns = 0
    for k in range(80):
        words = _page(rng, 1 + k % 3)
        if k % 2:  # in order already, as most pages' words come (the sort is skipped)
            words.sort(key=lambda w: (w.y0 + w.y1, w.x0))
        got = make_lines(words, 612.0, compiled=True)
        assert _shown(got) == _shown(make_lines(words, 612.0, compiled=False)), k
        rows = pdfium_calls.loops.bands(words)  # type: ignore[union-attr]
        gutters = find_gutters(rows, 612.0, compiled=True)
        assert gutters == find_gutters(rows, 612.0, compiled=False), k
        with_gutters += bool(gutters)
        gap = _label_gap(rows, compiled=True)
        assert gap == _label_gap(rows, compiled=False), k
        label_columns += gap > 8.0
        assert repr(group_lines(words, compiled=True)) == repr(group_lines(words, compiled=False))
    assert with_gutters > 15  # the gutters' cut was reached, not only the gaps'
    assert label_columns > 5  # and a column of labels widened the label's gap


@dataclass
class _LooseWord:
    """A word that is no ``model.Word`` (no slots): the loops read it by name."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float = 0.0
    bold: bool = False
    font: str = ""


@needs_loops
def test_words_of_another_class_or_with_int_numbers_make_the_same_lines() -> None:
    ints = [Word(t, 12 * i, 10, 12 * i + 8, 20, 10) for i, t in enumerate("abc")]
    ints += [Word("x", 200, 10, 230, 20, 10, True), Word("y", 300.5, 40, 320, 50.5, 9)]
    # int boxes stay ints in the Line, as Python's min/max keep them.
    assert _shown(make_lines(ints, 612.0, compiled=True)) == _shown(
        make_lines(ints, 612.0, compiled=False)
    )
    assert type(make_lines(ints, 612.0, compiled=True)[0].x0) is int
    loose = [_LooseWord(w.text, float(w.x0), w.y0, w.x1, w.y1, w.size, w.bold) for w in ints]
    got = make_lines(loose, 612.0, compiled=True)  # type: ignore[arg-type]
    assert _shown(got) == _shown(make_lines(loose, 612.0, compiled=False))  # type: ignore[arg-type]
    assert repr(group_lines(loose, compiled=True)) == repr(  # type: ignore[arg-type]
        group_lines(loose, compiled=False)  # type: ignore[arg-type]
    )
    # Mixed on one page: Words and loose words in one row.
    mixed = [*ints[:2], loose[2]]
    assert _shown(make_lines(mixed, compiled=True)) == _shown(make_lines(mixed, compiled=False))  # type: ignore[arg-type]


@needs_loops
def test_a_word_class_changed_after_the_loops_read_it_is_read_by_name() -> None:
    @dataclass(slots=True)
    class Probe:
        text: str
        x0: float
        y0: float
        x1: float
        y1: float
        size: float = 0.0
        bold: bool = False
        font: str = ""

    words = [Probe(t, 10.0 * i, 10.0, 10.0 * i + 8.0, 20.0, 10.0) for i, t in enumerate("abcdef")]
    assert [line.text for line in make_lines(words, compiled=True)] == ["a b c d e f"]  # type: ignore[arg-type]
    # Its x0 now a property (mirrored): the slots the loops learnt no longer say it.
    Probe.x0 = property(lambda self: 100.0 - self.x1)  # type: ignore[assignment, method-assign]
    got = make_lines(words, compiled=True)  # type: ignore[arg-type]
    assert _shown(got) == _shown(make_lines(words, compiled=False))  # type: ignore[arg-type]
    assert [line.text for line in got] == ["f e d", "c b", "a"]
    assert repr(group_lines(words, compiled=True)) == repr(  # type: ignore[arg-type]
        group_lines(words, compiled=False)  # type: ignore[arg-type]
    )


def test_the_python_loops_alone_make_lines_and_find_gutters() -> None:
    # With the compiled loops switched off (as a build without a C compiler runs).
    rng = random.Random(7)
    words = _page(rng, 2)
    saved = pdfium_calls.loops
    pdfium_calls.loops = None
    try:
        lines = make_lines(words, 612.0)
        assert sorted(w.text for line in lines for w in line.words) == sorted(w.text for w in words)
        assert all(line.words == sorted(line.words, key=lambda w: w.x0) for line in lines)
    finally:
        pdfium_calls.loops = saved
    if saved is not None:
        assert _shown(lines) == _shown(make_lines(words, 612.0, compiled=True))
