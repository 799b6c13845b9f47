"""Split long text into chunks with chonkie, offline, keeping each chunk's character span."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from pydantic import BaseModel

from .tokens import count_tokens, piece_cuts, pieces

__all__ = ["Chunk", "chunk_text"]


class Chunk(BaseModel):
    text: str
    index: int
    total: int
    char_start: int
    char_end: int
    tokens: int


@lru_cache(maxsize=1)
def _tokenizer_class() -> type:
    # chonkie is imported lazily: it costs ~0.8 s, and short inputs never need it.
    from .chonkie_import import chonkie

    Tokenizer = chonkie.Tokenizer

    class MixedTokenizer(Tokenizer):
        """chonkie tokenizer over :func:`omnireader.tokens.pieces`: decoding gives the exact
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
def _chunker_class() -> type:
    from .chonkie_import import chonkie

    class PieceChunker(chonkie.RecursiveChunker):
        """chonkie's recursive chunker, with its last level (text with no paragraph, sentence,
        pause or space to split at: runs of ``chunk_size`` tokens) cut from class marks.

        chonkie encodes that text token by token and decodes every run; on one 50 MB line
        that made 14 million token strings and ran at ~1 MB/s. The cuts are the same:
        every ``chunk_size``-th piece start (:func:`omnireader.tokens.piece_cuts`).
        """

        def _split_text(self, text: str, recursive_level: Any) -> list[str]:
            if recursive_level.delimiters or recursive_level.whitespace:
                return super()._split_text(text, recursive_level)
            cuts = [0, *piece_cuts(text, self.chunk_size), len(text)]
            return [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]

        def _estimate_token_count(self, text: str) -> int:
            # The same count, without chonkie's two wrappers and an LRU cache keyed on the
            # text (it hashes every split and almost never hits): ~40 splits a PDF page.
            return count_tokens(text)

        def _make_chunks(self, text: str, token_count: int, level: int,
                         start_offset: int) -> _Span:
            # chonkie's Chunk draws a random uuid4 id per chunk (~50 µs), unused here.
            return _Span(text, start_offset, start_offset + len(text), token_count)

    return PieceChunker


class _Span(NamedTuple):
    """What :func:`chunk_text` reads of a chonkie chunk."""

    text: str
    start_index: int
    end_index: int
    token_count: int


@lru_cache(maxsize=8)
def _chunker(chunk_size: int) -> Any:
    return _chunker_class()(tokenizer=_tokenizer_class()(), chunk_size=chunk_size)


def chunk_text(text: str, chunk_size: int = 512) -> list[Chunk]:
    """Chunks of at most about ``chunk_size`` tokens, split at paragraphs, then sentences.

    Text that already fits is returned as one chunk without loading chonkie. Each chunk's
    ``char_start`` / ``char_end`` index into ``text`` so provenance survives.
    """
    if not text.strip():
        return []
    n = count_tokens(text)
    if n <= chunk_size:
        return [Chunk(text=text, index=0, total=1, char_start=0, char_end=len(text), tokens=n)]
    raw = [c for c in _chunker(chunk_size).chunk(text) if c.text.strip()]
    total = len(raw)
    # Built without validation: every field comes from chonkie as the right type, and a
    # long text has tens of thousands of chunks.
    return [
        Chunk.model_construct(
            text=c.text,
            index=i,
            total=total,
            char_start=c.start_index,
            char_end=c.end_index,
            tokens=c.token_count,
        )
        for i, c in enumerate(raw)
    ]
