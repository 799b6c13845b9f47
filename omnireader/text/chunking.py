"""Split long text into chunks the way chonkie's recursive chunker does, offline, keeping each
chunk's character span (computed on offsets by :mod:`omnireader.text.chunk_split`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from omnireader.text.tokens import count_tokens, pieces

__all__ = ["Chunk", "chunk_text", "SCRAP"]


class Chunk(NamedTuple):
    """One chunk of a text; ``text == source[char_start:char_end]``. A tuple, not a model: a
    long text makes tens of thousands, and they are built from checked offsets."""

    text: str
    index: int
    total: int
    char_start: int
    char_end: int
    tokens: int


@lru_cache(maxsize=1)
def _tokenizer_class() -> type:
    # chonkie is imported lazily: it costs ~0.8 s, and short inputs never need it.
    from omnireader.text.chonkie_import import chonkie

    Tokenizer = chonkie.Tokenizer

    class MixedTokenizer(Tokenizer):
        """chonkie tokenizer over :func:`omnireader.text.tokens.pieces`: decoding gives the exact
        text back, so chunks split at token level keep their characters and spans."""

        def __repr__(self) -> str:
            return f"MixedTokenizer(vocab_size={len(self.vocab)})"

        def tokenize(self, text: str) -> Sequence[str]:
            return pieces(text)

        def encode(self, text: str) -> Sequence[int]:
            ids = []
            for tok in pieces(text):
                idx = self.token2id[tok]
                if idx >= len(self.vocab):
                    self.vocab.append(tok)
                ids.append(idx)
            return ids

        def decode(self, tokens: Sequence[int]) -> str:
            return "".join(self.vocab[t] for t in tokens)

        def count_tokens(self, text: str) -> int:
            return count_tokens(text)

    return MixedTokenizer


@lru_cache(maxsize=1)
def _rules() -> Any:
    """chonkie's recursive levels (paragraphs, sentences, pauses, spaces, tokens), with its
    first level split in two: blank lines, then sentences, and only then single line breaks.
    chonkie splits at every line break first, so a hard-wrapped text (a mail body, a plain
    text file wrapped at 72 columns) was cut at a line's end in mid-sentence; a sentence
    that ends at a line's end ends there too ("…and left.\\n")."""
    from omnireader.text.chonkie_import import chonkie

    default = chonkie.RecursiveRules().levels
    # (Each delimiter is a pass over the text: ~6% of the chunking's speed apiece, so none
    # for old Mac line ends; a CRLF text's sentence ends at line ends fall to the lines.)
    paragraphs = chonkie.RecursiveLevel(delimiters=["\n\n", "\r\n\r\n"])
    sentences = chonkie.RecursiveLevel(delimiters=[". ", "! ", "? ", ".\n", "!\n", "?\n"])
    lines = chonkie.RecursiveLevel(delimiters=["\r\n", "\n", "\r"])
    return chonkie.RecursiveRules(levels=[paragraphs, sentences, lines, *default[2:]])


@lru_cache(maxsize=8)
def _chonkie_chunker(chunk_size: int) -> Any:
    from omnireader.text.chonkie_import import chonkie

    return chonkie.RecursiveChunker(
        tokenizer=_tokenizer_class()(), chunk_size=chunk_size, rules=_rules()
    )


def chonkie_chunks(text: str, chunk_size: int) -> list[tuple[str, int, int, int]]:
    """What chonkie's own recursive chunker makes of ``text``, as ``(text, start, end,
    tokens)``: the definition :func:`omnireader.text.chunk_split.spans` computes on offsets (and
    its fallback; its token level encodes piece by piece, ~1 MB/s)."""
    return [
        (c.text, c.start_index, c.end_index, c.token_count)
        for c in _chonkie_chunker(chunk_size).chunk(text)
    ]


_SCAN_FIRST = 1 << 16  # longer texts almost always need chunks: scanned before counting


def chunk_text(text: str, chunk_size: int = 512) -> list[Chunk]:
    """Chunks of at most about ``chunk_size`` tokens, split at paragraphs, then sentences,
    then lines (:func:`_rules`); a scrap under an eighth of the budget joins a neighbour,
    which may then hold up to an eighth more (:func:`_without_scraps`).

    Text that already fits is returned as one chunk without loading chonkie. Each chunk's
    ``char_start`` / ``char_end`` index into ``text`` so provenance survives.
    """
    if not text.strip():
        return []
    from omnireader.text.chunk_split import NotOnOffsets, scan, spans

    scanned = None
    try:
        if len(text) < _SCAN_FIRST:
            n = count_tokens(text)
        else:  # marked once, for the count and the chunks
            scanned = scan(text)
            n = scanned.total
    except (NotOnOffsets, UnicodeEncodeError):  # chunked by chonkie, if at all
        n = count_tokens(text)
    if n <= chunk_size:
        return [Chunk(text=text, index=0, total=1, char_start=0, char_end=len(text), tokens=n)]
    try:
        found = spans(scanned or scan(text), chunk_size, _rules())
        raw = [(piece, a, b, k) for a, b, k in found if (piece := text[a:b]).strip()]
    except NotOnOffsets:
        raw = [c for c in chonkie_chunks(text, chunk_size) if c[0].strip()]
    raw = _without_scraps(text, raw, chunk_size)
    total = len(raw)
    return [Chunk(piece, i, total, a, b, n) for i, (piece, a, b, n) in enumerate(raw)]


#: A chunk under 1/SCRAP of the budget is a scrap: a neighbour takes it, 1/SCRAP over at most
#: (here and where a document's sections are grouped, :mod:`.section_groups`).
SCRAP = 8


def _without_scraps(
    text: str, raw: list[tuple[str, int, int, int]], size: int
) -> list[tuple[str, int, int, int]]:
    """``raw`` with its scraps joined to a neighbour: a mail's header block alone before a
    long body, a paragraph's last line after its sentences filled the chunks before. A
    scrap joins the chunk before (the rest of its paragraph) when that can take it, else
    the next (the first chunk always the next); a scrap neither can take stays. One pass:
    a long text has tens of thousands of chunks."""
    small, limit = size // SCRAP, size + size // SCRAP

    def joined(
        a: tuple[str, int, int, int], b: tuple[str, int, int, int]
    ) -> tuple[str, int, int, int] | None:
        piece = text[a[1] : b[2]]
        n = count_tokens(piece)
        return (piece, a[1], b[2], n) if n <= limit else None

    out: list[tuple[str, int, int, int]] = []
    carry: tuple[str, int, int, int] | None = None  # a scrap waiting for the next chunk
    for chunk in raw:
        if carry is not None:
            both = joined(carry, chunk)
            if both is None:
                out.append(carry)
            else:
                chunk = both
            carry = None
        if chunk[3] < small:
            both = joined(out[-1], chunk) if out else None
            if both is not None:
                out[-1] = both
                continue
            carry = chunk
            continue
        out.append(chunk)
    if carry is not None:
        both = joined(out[-1], carry) if out else None
        if both is None:
            out.append(carry)
        else:
            out[-1] = both
    return out
