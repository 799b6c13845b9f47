"""Chunking on offsets (``omnireader.text.chunk_split``) makes exactly the chunks chonkie's own
recursive chunker makes with the same tokenizer: spans, token counts and texts, at every
level (paragraphs, sentences, pauses, spaces, token runs) and for every kind of character."""

from __future__ import annotations

import random

import pytest
from test_token_scan import ALPHABET

from omnireader.text import chunk_split, token_scan
from omnireader.text.chunking import _rules, chonkie_chunks, chunk_text

_LINE = 'alpha, bravo; charlie (delta) echo-foxtrot 12.5% golf "hotel" india/juliet '
_PARTS = [
    _LINE,
    "東京の天気は晴れ",
    "x" * 300,
    "Sentence one. Sentence two! ",
    "\n\n",
    "  ",
    "中文",
    "\n",
    "word ",
    "a—b... ",
    "\r\n",
    "é",
    "😀",
    "\x1c",
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if k % 3 == 0:  # every character class, in random order
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 3000))))
        else:  # structure: paragraphs, sentences, pauses, long words, CJK runs
            out.append(
                "".join(rng.choice(_PARTS) * rng.randint(1, 30) for _ in range(rng.randint(1, 40)))
            )
    return out


def _on_offsets(text: str, size: int) -> list[tuple[str, int, int, int]] | str:
    try:
        return [
            (text[a:b], a, b, n)
            for a, b, n in chunk_split.spans(chunk_split.scan(text), size, _rules())
        ]
    except Exception as e:  # compared with what chonkie raises
        return type(e).__name__


def _chonkie(text: str, size: int) -> list[tuple[str, int, int, int]] | str:
    try:
        return chonkie_chunks(text, size)
    except Exception as e:
        return type(e).__name__


@pytest.mark.parametrize("seed", range(4))
def test_offsets_give_chonkies_own_chunks(seed: int) -> None:
    on_offsets = 0
    for text in _texts(seed, 60):
        for size in (4, 16, 64, 512):
            got = _on_offsets(text, size)
            if got == "NotOnOffsets":  # chunk_text hands these to chonkie
                continue
            on_offsets += 1
            assert got == _chonkie(text, size), (size, text[:300])
    assert on_offsets > 100  # most texts are chunked on offsets, not handed over


def test_block_edges_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts(7, 30)
    want = [[_on_offsets(t, size) for size in (16, 64)] for t in texts]
    monkeypatch.setattr(token_scan, "_BLOCK", 7)  # word runs and spans straddle blocks
    assert [[_on_offsets(t, size) for size in (16, 64)] for t in texts] == want


def test_chunk_text_matches_chonkie_also_where_it_hands_over() -> None:
    texts = [
        "é " * 3000 + "\x1c" + "word " * 3000,  # non-ASCII with \x1c: chonkie's own
        "word\x1c" * 5000,  # ASCII with \x1c: on offsets, pieces by Unicode classes
        _LINE * 4000,
        "中文。" * 3000 + "\n\n" + "Sentence one. " * 500,
    ]
    for text in texts:
        for size in (64, 512):
            want = [c for c in chonkie_chunks(text, size) if c[0].strip()]
            got = [(c.text, c.char_start, c.char_end, c.tokens) for c in chunk_text(text, size)]
            assert got == want
            assert all(
                c.index == i and c.total == len(want) for i, c in enumerate(chunk_text(text, size))
            )


def test_lone_surrogates_fail_as_chonkie_fails() -> None:
    text = "word " * 20_000 + "\ud800"
    with pytest.raises(UnicodeEncodeError):
        chonkie_chunks(text, 512)
    with pytest.raises(UnicodeEncodeError):
        chunk_text(text, 512)
    assert len(chunk_text("x" * 70_000 + "\ud800", 512)) == 1  # fits: never split


def test_a_level_finds_its_delimiters_as_a_search_for_each_would() -> None:
    # A delimiter with a byte the text lacks is not searched for (a line without breaks
    # has no ".\n" or "\n\n"): the answer is the one searching for each delimiter gives.
    texts = [_LINE * 50, _LINE * 50 + "end. ", "a.\nb", "x\r\ny", "x\ry", "a—b", "a...b", "", "?"]
    for level in _rules().levels:
        delimiters = level.delimiters or " "
        encoded = [
            d.encode() for d in ([delimiters] if isinstance(delimiters, str) else delimiters)
        ]
        for text in texts:
            data = text.encode()
            assert chunk_split._any_in(data, encoded) == any(d in data for d in encoded), (
                level.delimiters,
                text[-20:],
            )


def _gap(data: bytes, cut: set[int]) -> int:
    """``_scan.longest_gap`` in Python: the longest piece but the first, cut after each byte
    in ``cut``."""
    ends = [i + 1 for i, b in enumerate(data) if b in cut]  # where each later piece starts
    return max((b - a for a, b in zip(ends, [*ends[1:], len(data)], strict=False)), default=0)


needs_loops = pytest.mark.skipif(chunk_split._loops is None, reason="_scan is not built")


@needs_loops
def test_longest_gap_is_the_longest_piece_after_the_first() -> None:
    rng = random.Random(3)
    cut = {ord(","), ord(" ")}
    table = bytes(1 if b in cut else 0 for b in range(256))
    texts = [b"", b"abc", b"abc ", b" abc", b"a b c", b",,", b"x" * 40 + b" y"]
    texts += [
        bytes(rng.choice(b"ab ,\xe2") for _ in range(rng.randint(0, 200))) for _ in range(300)
    ]
    for data in texts:
        assert chunk_split._loops.longest_gap(data, table) == _gap(data, cut), data


def _pieces(rng: random.Random, short: bool) -> str:
    """Words and pauses whose pieces (cut after a space or a comma) are mostly under 24 bytes,
    sometimes exactly 23, 24 or 25, with a long first or last piece, an ellipsis or a dash."""
    words = ["ab", "hotel", "x" * 21, "y" * 22, "z" * 23, "w" * 24, "—", "...", "é"]
    if short:
        words = words[:5]
    head = rng.choice(["", "q" * 30])
    body = "".join(
        rng.choice(words) + rng.choice([" ", ", ", ","]) for _ in range(rng.randint(1, 60))
    )
    return head + body + rng.choice(["", "t" * 30, "end"])


def test_a_level_that_cannot_split_gives_what_chonkie_core_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pause and space levels of a text whose pieces are all short come back whole without
    # being split: the same offsets chonkie_core gives, and the same when it does split.
    monkeypatch.setattr(chunk_split, "_WHOLE_FROM", 0)  # short texts are tested too
    rng = random.Random(11)
    texts = [_LINE * 200] + [_pieces(rng, short=k % 2 == 0) for k in range(400)]
    levels = [lv for lv in _rules().levels if lv.delimiters or lv.whitespace]
    got = [[chunk_split._split_bytes(t.encode(), lv) for lv in levels] for t in texts]
    monkeypatch.setattr(chunk_split, "_loops", None)  # chonkie_core splits every level
    want = [[chunk_split._split_bytes(t.encode(), lv) for lv in levels] for t in texts]
    assert got == want
    whole = sum(g == [(0, len(t.encode()))] for gs, t in zip(got, texts, strict=True) for g in gs)
    assert whole > 400  # the shortcut's case is common here, and so are real splits
    assert sum(len(g) > 1 for gs in got for g in gs) > 200


def test_chunks_are_the_same_without_the_compiled_test(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [_LINE * 3000, "word " * 15000, "a, b; " * 12000 + "c" * 30 + " d"]  # > 64 KB
    want = [_on_offsets(t, 64) for t in texts]
    monkeypatch.setattr(chunk_split, "_loops", None)
    assert [_on_offsets(t, 64) for t in texts] == want
    assert want == [_chonkie(t, 64) for t in texts]
