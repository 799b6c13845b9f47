"""The offline default embedder: signed feature hashing, no model, no download, no network.

Each text becomes two bags of features, hashed into ``dim`` buckets with a sign bit (so
collisions cancel out on average instead of piling up):

- words: unigrams and bigrams of :func:`omnireader.tokens.tokenize` tokens (one token per
  CJK character, so Chinese gets character unigrams and bigrams, the usual CJK index units);
- characters: 3–5-grams of every spaced word, fastText-style with ``<`` ``>`` boundaries, so
  "embedding" and "embeddings" share most of their features.

Counts are damped (``1 + log tf``), each bag is L2-normalised and the two are mixed, then the
result is L2-normalised again: cosine similarity is then a plain dot product.

Hashes come from CRC-32 and a fixed integer mixer, never Python's ``hash()`` (salted per
process), so every process and every machine gives the same vector for the same text.

    >>> e = HashingEmbedder()
    >>> a, b, c = e.embed(["the cat sat on the mat", "a cat sits on a mat", "stock prices fell"])
    >>> bool(a @ b > a @ c)
    True
"""

from __future__ import annotations

import re
import zlib
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from ..tokens import tokenize
from .embedder_base import Embedder

if TYPE_CHECKING:
    import numpy as np

__all__ = ["HashingEmbedder", "DEFAULT_HASHING_DIM"]

DEFAULT_HASHING_DIM = 256
_WORD_WEIGHT = 0.6  # words carry the topic; character n-grams add fuzziness for word forms
_CHAR_WEIGHT = 0.4
_CACHE_LIMIT = 200_000  # distinct words kept; text is Zipfian, so hits dominate
_SYMBOLS = re.compile(r"[^\w\s]+")
_U32 = 0xFFFFFFFF


class _Word(NamedTuple):
    """One word's features: its unigram hash, and its character n-grams already bucketed."""

    unigram: int
    buckets: np.ndarray  # int64 bucket of each distinct n-gram bucket
    signs: np.ndarray  # float64 summed signs of the n-grams in that bucket


class HashingEmbedder(Embedder):
    """Signed feature hashing of word and character n-grams into ``dim`` buckets."""

    batch_size: ClassVar[int] = 1024

    def __init__(self, dim: int = DEFAULT_HASHING_DIM) -> None:
        if dim < 8:
            raise ValueError(f"hashing dimension must be at least 8, not {dim}")
        self._dim = dim
        self._words: dict[str, _Word] = {}  # per instance: buckets depend on dim

    @property
    def name(self) -> str:
        # The dimension is in the name only when it is not the default, so the common
        # name stays short in stats; either way, another dim is another vector space.
        return "hashing-v1" if self._dim == DEFAULT_HASHING_DIM else f"hashing-v1:{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        n = len(texts)
        # Symbols are not features; blanking them first leaves only word tokens.
        token_lists = [tokenize(_SYMBOLS.sub(" ", t.lower())) for t in texts]
        vocab: dict[str, int] = {}
        ids = [vocab.setdefault(w, len(vocab)) for toks in token_lists for w in toks]
        if not ids:
            return _without_zero_rows(np.zeros((n, self._dim)))
        # From here on, array arithmetic over the whole batch: per token, its row (text)
        # and its batch-local word id; per word id, its cached features.
        tok = np.array(ids, dtype=np.int64)
        lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=n)
        row = np.repeat(np.arange(n, dtype=np.int64), lengths)
        words = [self._word(w) for w in vocab]

        # Damped count of each (row, word) pair: the unigram weights, reused for n-grams.
        pairs, counts = np.unique(row * len(words) + tok, return_counts=True)
        p_row, p_word, p_weight = pairs // len(words), pairs % len(words), 1.0 + np.log(counts)

        word_bag = self._word_bag(n, row, tok, words, p_row, p_word, p_weight)
        char_bag = self._char_bag(n, words, p_row, p_word, p_weight)
        # Texts of single characters only (e.g. all CJK) have no character bag: words alone.
        has_chars = char_bag.any(axis=1, keepdims=True)
        mixed = np.where(has_chars, _WORD_WEIGHT * word_bag + _CHAR_WEIGHT * char_bag, word_bag)
        return _without_zero_rows(_normalised(mixed))

    def _word_bag(
        self,
        n: int,
        row: np.ndarray,
        tok: np.ndarray,
        words: list[_Word],
        p_row: np.ndarray,
        p_word: np.ndarray,
        p_weight: np.ndarray,
    ) -> np.ndarray:
        """Unigrams and bigrams; a bigram hash combines its two unigram hashes."""
        import numpy as np

        uni = np.fromiter((w.unigram for w in words), dtype=np.uint64, count=len(words))
        same = row[:-1] == row[1:]  # bigrams never span two texts
        left, right = uni[tok[:-1][same]], uni[tok[1:][same]]
        bigram = (left * np.uint64(0x9E3779B1) + (right ^ np.uint64(0x5BD1E995))) & np.uint64(
            _U32
        )
        keyed = (row[:-1][same].astype(np.uint64) << np.uint64(32)) | bigram
        b_keys, b_counts = np.unique(keyed, return_counts=True)
        hashes = _fmix32(np.concatenate([uni[p_word], b_keys & np.uint64(_U32)]))
        rows = np.concatenate([p_row, (b_keys >> np.uint64(32)).astype(np.int64)])
        weights = np.concatenate([p_weight, 1.0 + np.log(b_counts)])
        buckets = (hashes % np.uint64(self._dim)).astype(np.int64)
        signed = np.where(hashes & np.uint64(0x80000000), -weights, weights)
        return self._scatter(n, rows, buckets, signed)

    def _char_bag(
        self,
        n: int,
        words: list[_Word],
        p_row: np.ndarray,
        p_word: np.ndarray,
        p_weight: np.ndarray,
    ) -> np.ndarray:
        """Character n-grams: each (row, word) pair adds its word's buckets, weighted."""
        import numpy as np

        per_word = np.fromiter((w.buckets.size for w in words), dtype=np.int64, count=len(words))
        all_buckets = np.concatenate([w.buckets for w in words])
        all_signs = np.concatenate([w.signs for w in words])
        # Expand every pair into its word's slice of the flat arrays (a CSR gather).
        sizes = per_word[p_word]
        starts = (np.cumsum(per_word) - per_word)[p_word]
        gather = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
        gather += np.arange(int(sizes.sum()), dtype=np.int64)
        signed = all_signs[gather] * np.repeat(p_weight, sizes)
        return self._scatter(n, np.repeat(p_row, sizes), all_buckets[gather], signed)

    def _scatter(
        self, n: int, rows: np.ndarray, buckets: np.ndarray, values: np.ndarray
    ) -> np.ndarray:
        """Sum ``values`` into an ``(n, dim)`` matrix at (row, bucket); L2-normalise rows."""
        import numpy as np

        cells = rows * self._dim + buckets
        flat = np.bincount(cells, weights=values, minlength=n * self._dim)
        return _normalised(flat.astype(np.float64).reshape(n, self._dim))

    def _word(self, word: str) -> _Word:
        """A word's features, computed once per embedder (words repeat a lot)."""
        hit = self._words.get(word)
        if hit is not None:
            return hit
        import numpy as np

        grams: list[int] = []
        if len(word) > 1:  # single characters (incl. every CJK token) have no inner n-grams
            padded = f"<{word}>"
            for size in (3, 4, 5):
                grams.extend(_crc(padded[i : i + size]) for i in range(len(padded) - size + 1))
        mixed = _fmix32(np.array(grams, dtype=np.uint64))
        signs = np.where(mixed & np.uint64(0x80000000), -1.0, 1.0)
        # Collapse n-grams that share a bucket, so each occurrence costs fewer cells.
        buckets, inverse = np.unique((mixed % np.uint64(self._dim)).astype(np.int64), return_inverse=True)
        summed = np.bincount(inverse, weights=signs, minlength=buckets.size)
        entry = _Word(_crc("w:" + word), buckets, summed)
        if len(self._words) >= _CACHE_LIMIT:
            self._words.clear()
        self._words[word] = entry
        return entry


def _crc(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8", "surrogatepass"))


def _fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's finaliser: spreads CRC-32 bits so bucket and sign bits are independent."""
    import numpy as np

    mask = np.uint64(_U32)
    h = h & mask
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & mask
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & mask
    h ^= h >> np.uint64(16)
    return h


def _normalised(m: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)


def _without_zero_rows(m: np.ndarray) -> np.ndarray:
    # A zero vector has no cosine; a fixed unit vector keeps search well-defined and ranks
    # texts without words below anything that shares a feature with the query.
    m[~m.any(axis=1), 0] = 1.0
    return m
