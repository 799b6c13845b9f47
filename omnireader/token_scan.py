"""Token counts and token boundaries of long text at C speed, exactly as the regexes of
:mod:`omnireader.tokens` would find them.

The regexes match ~5 MB/s and create one string per token (a 50 MB line makes 14 million);
here every character is first mapped to a one-byte class mark (``bytes.translate`` for ASCII,
a code-point table through numpy otherwise), and tokens are counted or located in the marks:

- ``a``: a word character that is not CJK (``\\w``, i.e. ``str.isalnum()`` or ``_``);
- ``c``: a CJK / kana / hangul character (one token each);
- ``.``: any other non-space character (one token each);
- `` ``: whitespace (``\\s``, i.e. ``str.isspace()``).

A token is a run of ``a``, or one ``c``, or one ``.``. ASCII text is counted with the ASCII
classes (as :data:`omnireader.tokens._ASCII_TOKEN` does, where ``\\x1c``-``\\x1f`` are not
space), everything else with the Unicode ones.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["count_marked", "piece_starts_every", "marks"]

WORD, CJK, SYMBOL, SPACE = b"a", b"c", b".", b" "
_BLOCK = 1 << 22  # characters per numpy block: bounds the scratch arrays (~40 MB)


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

    from .tokens import CJK_RANGES

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

    table = _unicode_table(astral=max(text) > "\uffff")
    out = bytearray(len(text))
    for start in range(0, len(text), _BLOCK):
        part = text[start : start + _BLOCK]
        points = np.frombuffer(part.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        out[start : start + len(part)] = table[points].tobytes()
    return bytes(out)


def count_marked(marked: bytes) -> int:
    """How many tokens the marks hold: runs of ``a``, plus each ``c`` and ``.``."""
    singles = marked.count(CJK) + marked.count(SYMBOL)
    # A run of word marks starts after anything else; counted without a list of runs.
    runs = marked.replace(CJK, SPACE).replace(SYMBOL, SPACE)
    return singles + runs.count(SPACE + WORD) + runs.startswith(WORD)


def piece_starts_every(marked: bytes, n: int) -> list[int]:
    """Where piece ``n``, ``2n``, ``3n``... starts (pieces as :func:`omnireader.tokens.pieces`
    cuts them: each token with the whitespace after it, and leading whitespace alone)."""
    import numpy as np

    cuts: list[int] = []
    seen = 0  # pieces that start before the current block
    prev_word = False
    for start in range(0, len(marked), _BLOCK):
        m = np.frombuffer(marked, dtype=np.uint8, count=min(_BLOCK, len(marked) - start),
                          offset=start)
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
