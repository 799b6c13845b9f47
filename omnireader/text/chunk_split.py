"""chonkie's recursive chunking, computed on offsets: the same chunks, at array speed.

chonkie's ``RecursiveChunker`` (1.7) splits a text at paragraph, then sentence, then pause,
then space delimiters, then into runs of ``chunk_size`` tokens; at each level it counts the
tokens of every split, merges neighbours up to ``chunk_size`` tokens
(``chonkie_core.merge_splits``) and goes one level down into what is still too long. Run on
strings, that is a Python string, a decode and a token count per split (a 10 MB text of
short lines made 165,000 of each and chunked at ~0.6 MB/s).

Here the same steps run on one text's offsets:

- the splits are ``chonkie_core``'s own byte offsets (the same calls, delimiters and
  ``min_chars`` as ``chonkie.chunker.base.split_text_by_delimiters``);
- a split's token count is a count of token starts (:func:`omnireader.text.token_scan.token_starts`,
  marked once for the whole text) between its offsets, plus one when it starts inside a word
  (a word cut in two is a token in each half, as :func:`omnireader.text.tokens.count_tokens` of the
  split would say);
- merging uses ``chonkie_core.find_merge_indices``, the grouping ``merge_splits`` makes,
  with the counts summed as ``merge_splits`` sums them;
- the last level cuts at every ``chunk_size``-th piece start
  (:func:`omnireader.text.token_scan.piece_starts_every`), as chonkie's encode / decode does.

A level none of whose splits after the first reaches ``min_chars`` comes back from
``chonkie_core`` whole (its splitters merge while either side is under ``min_chars``): the
compiled ``_scan.longest_gap`` finds that in one pass, and the split is not run (a 50 MB line's
pause and space levels; without the compiled module ``chonkie_core`` runs as before).
That rule is ``chonkie_core``'s (0.10): ``tests/test_chunk_split.py`` holds the two together.

Non-ASCII texts that hold ``\\x1c``-``\\x1f`` (a space to the Unicode token classes, a symbol
to the ASCII ones, so an ASCII split would count differently from its text) and splits that
chonkie would not place end to end raise :class:`NotOnOffsets`: chonkie itself chunks those
(:func:`omnireader.text.chunking.chonkie_chunks`). ``tests/test_chunk_split.py`` compares the two
on random texts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from omnireader.text.token_scan import WORD, marks, ones_before, piece_starts_every, token_starts

if TYPE_CHECKING:
    import numpy as np

__all__ = ["scan", "spans", "NotOnOffsets"]

try:  # the compiled test for a level that gives the text back whole (optional)
    from omnireader.text import _scan as _loops
except ImportError:  # pragma: no cover - exercised where no compiler built it
    _loops = None

_ODD = ("\x1c", "\x1d", "\x1e", "\x1f")  # \s to Unicode, a symbol to the ASCII classes
_MIN_CHARS = 24  # chonkie's RecursiveChunker default (min_characters_per_chunk)
_WHOLE_FROM = 1 << 16  # a shorter span is split at once (~µs): testing it first costs as much


class NotOnOffsets(Exception):
    """This text cannot be chunked on offsets exactly: chonkie's own chunker must do it."""


class _Text:
    """One text being chunked: its UTF-8 bytes, its class marks and where tokens start."""

    def __init__(self, text: str) -> None:
        import numpy as np

        self.text = text
        self.data = text.encode("utf-8")  # strict, as chonkie encodes it
        self.ascii = len(self.data) == len(text)
        odd = any(ch in text for ch in _ODD)
        if odd and not self.ascii:
            raise NotOnOffsets("an ASCII split of this text may count differently")
        self.marked = marks(text, ascii_classes=True)
        # Pieces (the token level) use the Unicode classes: only \x1c-\x1f mark differently.
        self.piece_marked = marks(text, ascii_classes=False) if odd else self.marked
        self.starts = token_starts(self.marked)
        self.words = np.frombuffer(self.marked, dtype=np.uint8) == ord(WORD)
        # Non-continuation bytes: counting them up to a byte offset gives the char offset.
        self.lead = (
            None
            if self.ascii
            else ((np.frombuffer(self.data, dtype=np.uint8) & 0xC0) != 0x80).view(np.uint8)
        )

    @property
    def total(self) -> int:
        import numpy as np

        return int(np.count_nonzero(self.starts))

    def chars(self, byte_at: np.ndarray, b0: int, c0: int) -> np.ndarray:
        """Char offsets of byte offsets (all at or after ``b0``, which is char ``c0``)."""
        if self.ascii:
            return byte_at
        return c0 + ones_before(self.lead, byte_at, b0)

    def byte_at(self, c: int) -> int:
        return c if self.ascii else len(self.text[:c].encode("utf-8"))

    def counts(self, bounds: np.ndarray) -> np.ndarray:
        """Tokens of each span ``[bounds[i], bounds[i + 1])``, as ``count_tokens`` counts them."""
        starts = bounds[:-1]
        n = ones_before(self.starts, bounds, int(bounds[0]))
        n = n[1:] - n[:-1]
        # A span that starts inside a word holds the rest of that word as a token of its own.
        inside = starts > 0
        at = starts[inside]
        n[inside] += self.words[at] & self.words[at - 1]
        return n


def scan(text: str) -> _Text:
    """``text`` marked for :func:`spans` (``.total`` is its ``count_tokens``)."""
    return _Text(text)


def spans(t: _Text, chunk_size: int, rules: Any) -> list[tuple[int, int, int]]:
    """``(char_start, char_end, tokens)`` of every chunk chonkie's recursive chunker makes of
    the scanned text with ``rules`` (its levels), whitespace-only ones included, as chonkie
    does."""
    text = t.text
    out: list[tuple[int, int, int]] = []
    _chunk(t, rules.levels, chunk_size, 0, 0, len(text), 0, len(t.data), out)
    return out


def _split_bytes(data: bytes, level: Any) -> list[tuple[int, int]]:
    """``chonkie.chunker.base.split_text_by_delimiters``'s offsets, without the strings."""
    import chonkie_core

    delimiters = level.delimiters or " "
    if isinstance(delimiters, str):
        delimiters = [delimiters]
    encoded = [d.encode("utf-8") for d in delimiters]
    if not _any_in(data, encoded):
        # No delimiter: one split (chonkie_core says so too), found at memchr speed instead
        # of an Aho-Corasick pass (a 50 MB line has no paragraph and no sentence end).
        return [(0, len(data))] if data else []
    include = level.include_delim or "prev"
    if _whole(data, encoded, include):
        return [(0, len(data))]
    if any(len(d) > 1 or not d.isascii() for d in delimiters):
        return chonkie_core.split_pattern_offsets(
            data, patterns=encoded, include_delim=include, min_chars=_MIN_CHARS
        )
    return chonkie_core.split_offsets(
        data,
        delimiters="".join(delimiters).encode("utf-8"),
        include_delim=include,
        min_chars=_MIN_CHARS,
    )


def _whole(data: bytes, delimiters: list[bytes], include: str) -> bool:
    """Whether ``chonkie_core`` gives ``data`` back as one split: cut after each delimiter
    (``prev``), every piece but the first is under ``_MIN_CHARS``, so each one merges into
    the first (its splitters emit only when both sides are long enough). Only single-byte
    delimiters are cut at; a level whose longer ones occur in ``data`` is split as usual."""
    if len(data) < _WHOLE_FROM or _loops is None or include != "prev":
        return False
    if _any_in(data, [d for d in delimiters if len(d) > 1]):
        return False
    table = bytearray(256)
    for d in delimiters:
        if len(d) == 1:
            table[d[0]] = 1
    return bool(_loops.longest_gap(data, bytes(table)) < _MIN_CHARS)


def _any_in(data: bytes, delimiters: list[bytes]) -> bool:
    """Whether any of ``delimiters`` is in ``data``, as ``any(d in data ...)`` says. A
    delimiter holding a byte the data lacks is not searched: looking for a byte is a memchr
    (~6 ms for 50 MB), looking for two is ~50 ms when they are absent (a long line without
    a break has none of ``.\\n``, ``!\\n``, ``\\r\\n``, ``\\n\\n``...)."""
    lacks: dict[int, bool] = {}
    for d in delimiters:
        if len(d) > 1 and any(
            lacks[b] if b in lacks else lacks.setdefault(b, bytes((b,)) not in data) for b in d
        ):
            continue
        if d in data:
            return True
    return False


def _chunk(
    t: _Text,
    levels: list[Any],
    size: int,
    level: int,
    c0: int,
    c1: int,
    b0: int,
    b1: int,
    out: list[tuple[int, int, int]],
) -> None:
    """chonkie's ``_recursive_chunk`` on the span ``[c0, c1)`` (bytes ``[b0, b1)``)."""
    import numpy as np

    if c0 == c1:
        return
    if level >= len(levels):
        out.append((c0, c1, int(t.counts(np.array([c0, c1]))[0])))
        return
    rule = levels[level]
    if rule.delimiters or rule.whitespace:
        offsets = [(s, e) for s, e in _split_bytes(t.data[b0:b1], rule) if e > s]
        if not offsets:
            return
        flat = np.array(offsets, dtype=np.int64).reshape(-1, 2)
        if flat[0, 0] != 0 or flat[-1, 1] != b1 - b0 or (flat[1:, 0] != flat[:-1, 1]).any():
            raise NotOnOffsets(f"splits of bytes {b0}-{b1} leave gaps or overlap")
        byte_bounds = np.append(flat[:, 0], flat[-1, 1]) + b0
        bounds = t.chars(byte_bounds, b0, c0)
        counts = t.counts(bounds)
        if not (counts > size).all():  # chonkie merges unless every split is too long
            import chonkie_core

            ends = np.array(chonkie_core.find_merge_indices(counts.tolist(), size), dtype=np.int64)
            firsts = np.concatenate([[0], ends[:-1]])
            counts = np.add.reduceat(counts, firsts)
            keep = np.append(firsts, len(bounds) - 1)
            bounds, byte_bounds = bounds[keep], byte_bounds[keep]
    else:
        # The token level: runs of ``size`` pieces, never merged.
        cuts = np.array(piece_starts_every(t.piece_marked[c0:c1], size), dtype=np.int64) + c0
        bounds = np.concatenate([[c0], cuts, [c1]])
        byte_bounds = None
        if t.piece_marked is t.marked and len(bounds) > 3:
            # Every piece after the first starts a token, so each run between two cuts holds
            # exactly ``size`` tokens; only the first and last are counted.
            counts = np.full(len(bounds) - 1, size, dtype=np.int64)
            counts[[0, -1]] = t.counts(bounds[[0, 1]])[0], t.counts(bounds[[-2, -1]])[0]
        else:
            counts = t.counts(bounds)
    bl = bounds.tolist()
    bb = byte_bounds.tolist() if byte_bounds is not None else None
    for k, n in enumerate(counts.tolist()):
        if n > size:
            lo = bb[k] if bb is not None else t.byte_at(bl[k])
            hi = bb[k + 1] if bb is not None else t.byte_at(bl[k + 1])
            _chunk(t, levels, size, level + 1, bl[k], bl[k + 1], lo, hi, out)
        else:
            out.append((bl[k], bl[k + 1], n))
