"""Offline token counting: words in spaced scripts, one token per CJK character.

chonkie's ``word`` tokenizer counts a whole Chinese sentence as one token, and string
tokenizer names such as "gpt2" download from a hub; this needs neither.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from omnireader.text.token_scan import (
    CJK_RANGES,
    bmp_marks,
    count_marked,
    marks,
    piece_starts_every,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = ["tokenize", "count_tokens", "pieces", "piece_cuts", "words", "CJK_RANGES"]

_CJK = "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in CJK_RANGES)
# One token per CJK / kana / hangul character, per run of other word characters, per symbol.
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")
# The same tokens for ASCII-only text, which most text is, about 1.5× faster.
_ASCII_TOKEN = re.compile(r"\w+|[^\w\s]", re.ASCII)


# Each token with the whitespace after it (and any leading whitespace alone), so that
# "".join(pieces(text)) == text: a chunker that splits on token boundaries loses nothing.
_PIECE = re.compile(rf"(?:{_TOKEN.pattern})\s*|\s+")


def pieces(text: str) -> list[str]:
    """``text`` cut at token boundaries, whitespace kept: joining the pieces gives it back."""
    return _PIECE.findall(text)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into the tokens :func:`count_tokens` counts."""
    return (_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text)


def count_tokens(text: str) -> int:
    """How many tokens ``text`` holds (roughly what an LLM tokenizer would say, offline)."""
    if text.isascii() or len(text) >= _SCAN_MIN:
        # Class marks and bytes.count: the regex's count, many times faster, and without
        # a string per token (a 50 MB line has 14 million).
        return count_marked(marks(text, ascii_classes=True))
    marked = bmp_marks(text) if len(text) >= _BMP_SCAN_MIN else None
    return count_marked(marked) if marked is not None else len(_TOKEN.findall(text))


def piece_cuts(text: str, n: int) -> list[int]:
    """Where every ``n``-th piece of :func:`pieces` starts (the ``n``-th, ``2n``-th...), as
    offsets into ``text``: cutting there gives runs of ``n`` pieces, without the pieces."""
    return piece_starts_every(marks(text, ascii_classes=False), n)


# Word tokens only (no symbols): what the hashing embedder hashes.
_WORD = re.compile(rf"(?=\w)[{_CJK}]|[^\W{_CJK}]+")  # (unassigned CJK points are not \w)
_NOT_SPACE_FOR_ASCII = "\x1c\x1d\x1e\x1f"  # \s in Unicode, a symbol to the ASCII regex
_ASCII_WORDS = str.maketrans(
    {chr(c): " " for c in range(128) if not re.match(r"\w", chr(c), re.ASCII)}
)


def words(text: str) -> list[str]:
    """The word tokens of :func:`tokenize` once symbols (``[^\\w\\s]``) are blanked out."""
    if any(ch in text for ch in _NOT_SPACE_FOR_ASCII):
        # Blanked text that is ASCII keeps these as tokens of their own (tokenize's ASCII
        # classes); rare enough to take the regex path that says so.
        return tokenize(_SYMBOLS.sub(" ", text))
    if text.isascii():
        return text.translate(_ASCII_WORDS).split()
    try:
        # Latin-1 text (most European text): non-word characters blanked by a byte table,
        # ~5x faster than the regex, which tries its two alternatives at every character.
        return text.encode("latin-1").translate(_LATIN1_WORDS).decode("latin-1").split()
    except UnicodeEncodeError:
        pass
    return _wide_words(text)


def _wide_words(text: str) -> list[str]:
    """:func:`words` of non-Latin-1 text: blanked through a BMP table unless the text holds
    CJK (one token a character) or characters beyond the BMP, which the regex reads."""
    import numpy as np

    units = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    blanked = _bmp_words_table()[units]
    if not blanked.all():  # a 0: CJK or a surrogate half
        return _WORD.findall(text)
    return blanked.tobytes().decode("utf-16-le").split()


def _latin1_words() -> bytes:
    word = re.compile(r"\w")
    return bytes(c if word.match(chr(c)) else 0x20 for c in range(256))


_LATIN1_WORDS = _latin1_words()


@lru_cache(maxsize=1)
def _bmp_words_table() -> np.ndarray:
    """Per BMP code unit: itself when a word character, a space when not, 0 for CJK and
    surrogate halves (the texts :func:`_wide_words` leaves to the regex)."""
    import numpy as np

    word = re.compile(r"\w")
    table = np.arange(0x10000, dtype=np.uint16)
    table[[c for c in range(0x10000) if not word.match(chr(c))]] = 0x20
    for lo, hi in (*CJK_RANGES, (0xD800, 0xDFFF)):
        table[lo : hi + 1] = 0
    return table


_SYMBOLS = re.compile(r"[^\w\s]+")
# Non-ASCII text is counted by the regex below these lengths: marking costs ~6 µs a text
# (the regex ~0.06 µs a character), and a character past the BMP has the marks build their
# 1.1 MB table (~0.3 s, once a process), which only long text is worth.
_BMP_SCAN_MIN = 256
_SCAN_MIN = 4096
