"""Token counts and token boundaries of long text at C speed, exactly as the regexes of
:mod:`omnireader.text.tokens` would find them.

The regexes match ~5 MB/s and create one string per token (a 50 MB line makes 14 million);
here every character is first mapped to a one-byte class mark (``bytes.translate`` for ASCII,
a code-point table through numpy otherwise), and tokens are counted or located in the marks:

- ``a``: a word character that is not CJK (``\\w``, i.e. ``str.isalnum()`` or ``_``);
- ``c``: a CJK / kana / hangul character (one token each);
- ``.``: any other non-space character (one token each);
- `` ``: whitespace (``\\s``, i.e. ``str.isspace()``).

A token is a run of ``a``, or one ``c``, or one ``.``. ASCII text is counted with the ASCII
classes (as :data:`omnireader.text.tokens._ASCII_TOKEN` does, where ``\\x1c``-``\\x1f`` are not
space), everything else with the Unicode ones.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "bmp_marks",
    "count_marked",
    "piece_starts_every",
    "marks",
    "token_starts",
    "ones_before",
]

WORD, CJK, SYMBOL, SPACE = b"a", b"c", b".", b" "
_BLOCK = 1 << 22  # characters per numpy block: bounds the scratch arrays (~40 MB)


#: Code points counted one token each: kana, CJK ideographs, hangul (``tokens`` matches the
#: same ranges with its regex).
CJK_RANGES = (
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
)


def _ascii_table(ascii_classes: bool) -> bytes:
    """A ``bytes.translate`` table for ASCII text, built by asking the regex engine."""
    flags = re.ASCII if ascii_classes else 0
    word, space = re.compile(r"\w", flags), re.compile(r"\s", flags)
    table = bytearray(SYMBOL * 256)
    for code in range(128):
        ch = chr(code)
        table[code] = ord(WORD if word.match(ch) else SPACE if space.match(ch) else SYMBOL)
    return bytes(table)


_ASCII_MARKS = _ascii_table(ascii_classes=True)  # for counting (tokens.count_tokens)
_UNICODE_ASCII_MARKS = _ascii_table(ascii_classes=False)  # for pieces (tokens.pieces)


@lru_cache(maxsize=2)
def _unicode_table(astral: bool) -> np.ndarray:
    """Class mark of every code point of the BMP (64 KB, ~20 ms), or of all of Unicode
    (1.1 MB, ~0.3 s: built only for text that holds a character beyond the BMP)."""
    import numpy as np

    size = 0x110000 if astral else 0x10000
    every = "".join(map(chr, range(size)))
    table = np.full(size, ord(SYMBOL), dtype=np.uint8)
    # The same predicates the regex engine uses for \w and \s (str.isalnum / isspace).
    table[[i for i, ch in enumerate(every) if ch.isalnum() or ch == "_"]] = ord(WORD)
    table[[i for i, ch in enumerate(every) if ch.isspace()]] = ord(SPACE)
    for lo, hi in CJK_RANGES:
        table[lo : hi + 1] = ord(CJK)
    return table


def marks(text: str, *, ascii_classes: bool) -> bytes:
    """One class mark per character of ``text``.

    ``ascii_classes``: ASCII text is marked with the ASCII classes (the counting regex's),
    else with the Unicode ones (the piece regex's). Non-ASCII text always uses Unicode.
    """
    if text.isascii():
        table = _ASCII_MARKS if ascii_classes else _UNICODE_ASCII_MARKS
        return text.encode("ascii").translate(table)
    import numpy as np

    out = bytearray(len(text))
    for start in range(0, len(text), _BLOCK):
        part = text[start : start + _BLOCK]
        points = np.frombuffer(part.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        # The small table unless this block holds a character beyond the BMP (``max(text)``
        # over the whole text took longer than the marking itself).
        table = _unicode_table(astral=bool(points.max() > 0xFFFF))
        out[start : start + len(part)] = table[points].tobytes()
    return bytes(out)


def bmp_marks(text: str) -> bytes | None:
    """:func:`marks` of short non-ASCII text from the BMP's table, or None when the text
    holds a character past the BMP (whose table is worth building for long text only)."""
    import numpy as np

    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if len(points) > _BLOCK or points.max() > 0xFFFF:
        return None
    return bytes(_unicode_table(astral=False)[points].tobytes())


def count_marked(marked: bytes) -> int:
    """How many tokens the marks hold: runs of ``a``, plus each ``c`` and ``.``."""
    singles = marked.count(CJK) + marked.count(SYMBOL)
    # A run of word marks starts after anything else; counted without a list of runs.
    runs = marked.replace(CJK, SPACE).replace(SYMBOL, SPACE)
    return singles + runs.count(SPACE + WORD) + runs.startswith(WORD)


def piece_starts_every(marked: bytes, n: int) -> list[int]:
    """Where piece ``n``, ``2n``, ``3n``... starts (pieces as :func:`omnireader.text.tokens.pieces`
    cuts them: each token with the whitespace after it, and leading whitespace alone)."""
    import numpy as np

    cuts: list[int] = []
    seen = 0  # pieces that start before the current block
    prev_word = False
    for start in range(0, len(marked), _BLOCK):
        m = np.frombuffer(
            marked, dtype=np.uint8, count=min(_BLOCK, len(marked) - start), offset=start
        )
        word = m == ord(WORD)
        after_other = np.empty_like(word)
        after_other[0] = not prev_word
        np.logical_not(word[:-1], out=after_other[1:])
        token = (word & after_other) | (m == ord(SYMBOL)) | (m == ord(CJK))
        if start == 0 and len(m) and not token[0]:
            token[0] = True  # leading whitespace is a piece of its own
        starts = np.flatnonzero(token)
        first = (-seen) % n  # the first start in this block whose index is a multiple of n
        if seen == 0:
            first = n
        cuts.extend((starts[first::n] + start).tolist())
        seen += len(starts)
        prev_word = bool(word[-1])
    return cuts


def token_starts(marked: bytes) -> np.ndarray:
    """One byte per mark: 1 where a token starts (a run of ``a``'s first, each ``c`` and
    ``.``), else 0. Counting them over a span counts its tokens, bar one for a span that
    starts inside a word (see :func:`omnireader.text.chunk_split`)."""
    import numpy as np

    m = np.frombuffer(marked, dtype=np.uint8)
    out = np.empty(len(m), dtype=np.uint8)
    for start in range(0, len(m), _BLOCK):
        part = m[start : start + _BLOCK]
        word = part == ord(WORD)
        starts = part != ord(SPACE)
        after_word = np.empty_like(word)
        after_word[0] = start > 0 and m[start - 1] == ord(WORD)
        after_word[1:] = word[:-1]
        starts &= ~(word & after_word)
        out[start : start + len(part)] = starts
    return out


def ones_before(flags: np.ndarray, at: np.ndarray, lo: int) -> np.ndarray:
    """For each of the sorted positions ``at`` (``lo <= p <= len(flags)``), how many of
    ``flags[lo:p]`` are 1: in blocks, so no array of a count per character is ever made."""
    import numpy as np

    out = np.zeros(len(at), dtype=np.int64)
    if not len(at):
        return out
    if len(at) <= 16:  # a few spans (a whole text, one paragraph): no cumulative sums
        for k, p in enumerate(at.tolist()):
            out[k] = np.count_nonzero(flags[lo:p])
        return out
    total = 0
    i = int(np.searchsorted(at, lo, side="right"))  # positions at lo: none before them
    hi = int(at[-1])
    for start in range(lo, hi, _BLOCK):
        end = min(start + _BLOCK, hi)
        j = int(np.searchsorted(at, end, side="right"))  # positions in (start, end]
        running = np.cumsum(flags[start:end], dtype=np.int64)  # ones in [start, start + k]
        out[i:j] = total + running[at[i:j] - start - 1]
        total += int(running[-1])
        i = j
    return out
