"""The fast token scans agree with the token regexes on every kind of character."""

from __future__ import annotations

import random

import pytest

from omnireader.text import token_scan, tokens

# Every class the regexes tell apart, and the edges between them: ASCII-only spaces and
# \x1c-\x1f (space to Unicode, a symbol to the ASCII classes), Unicode spaces, digits that
# are \w but not decimal, combining marks, CJK / kana / hangul range edges, astral
# characters, a lone surrogate, underscores.
ALPHABET = (
    list("abcXYZ019_")
    + list(" \t\n\r\x0b\x0c")
    + list("\x1c\x1d\x1e\x1f")
    + list(".,;:!?-()\"'%/")
    + list("\x85\xa0\u2028\u3000\u200b")
    + list("éßİ\u0307²½٣")
    + [
        "\u3040",
        "\u30ff",
        "\u3400",
        "\u4dbf",
        "\u4e00",
        "中",
        "\u9fff",
        "\uac00",
        "\ud7af",
        "\uf900",
        "\ufaff",
        "\u30a0",
        "\uff01",
    ]
    + ["😀", "𝔸", "\U00020000", "\ud800", "—"]
)


def _texts(seed: int, count: int, longest: int, alphabet: list[str]) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest))) for _ in range(count)
    ]


def _regex_count(text: str) -> int:
    return len((tokens._ASCII_TOKEN if text.isascii() else tokens._TOKEN).findall(text))


def _regex_cuts(text: str, n: int) -> list[int]:
    ends, at = [], 0
    for k, piece in enumerate(tokens.pieces(text)):
        if k and k % n == 0:
            ends.append(at)
        at += len(piece)
    return ends


@pytest.mark.parametrize(
    "alphabet", [ALPHABET, [c for c in ALPHABET if c.isascii()]], ids=["unicode", "ascii"]
)
def test_counts_cuts_and_words_match_the_regexes(
    alphabet: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tokens, "_SCAN_MIN", 0)  # the scan for short non-ASCII text too
    for text in _texts(1, 400, 60, alphabet) + _texts(2, 20, 3000, alphabet):
        assert tokens.count_tokens(text) == _regex_count(text), repr(text)
        for n in (1, 3, 64):
            assert tokens.piece_cuts(text, n) == _regex_cuts(text, n), (n, repr(text))
        lowered = text.lower()
        assert tokens.words(lowered) == tokens.tokenize(tokens._SYMBOLS.sub(" ", lowered))


def test_long_text_is_scanned_in_blocks_with_the_same_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(token_scan, "_BLOCK", 7)  # word runs and pieces straddle blocks
    for text in _texts(3, 50, 200, ALPHABET) + [" " * 20 + "word " * 20, "x" * 30]:
        assert tokens.count_tokens(text) == _regex_count(text)
        for n in (1, 2, 5):
            assert tokens.piece_cuts(text, n) == _regex_cuts(text, n), (n, repr(text))


def test_the_short_non_ascii_path_counts_like_the_scan() -> None:
    text = "東京の天気は晴れ。Berlin ist schön! " * 3
    assert len(text) < tokens._SCAN_MIN
    assert (
        tokens.count_tokens(text)
        == token_scan.count_marked(token_scan.marks(text, ascii_classes=True))
        == _regex_count(text)
    )


@pytest.mark.parametrize("extra", ["", " 🙂"], ids=["bmp", "past the bmp"])
def test_mid_length_non_ascii_text_counts_like_the_regex(extra: str) -> None:
    # From a few hundred characters the BMP's marks count it (the regex below, and past
    # the BMP, where the marks would first build their large table).
    text = ("Net revenue rose 12% — to €4,512 million; l’effet volume. " * 8) + extra
    assert tokens._BMP_SCAN_MIN <= len(text) < tokens._SCAN_MIN
    assert (token_scan.bmp_marks(text) is None) == bool(extra)
    assert tokens.count_tokens(text) == _regex_count(text)
