"""The offline default embedder: signed feature hashing, no model, no download, no network.

Each text becomes two bags of features, hashed into ``dim`` buckets with a sign bit (so
collisions cancel out on average instead of piling up):

- words: unigrams and bigrams of :func:`omnireader.text.tokens.tokenize` tokens (one token per
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

import threading
import zlib
from itertools import chain
from typing import TYPE_CHECKING, ClassVar

from omnireader.errors import ConfigError
from omnireader.llm.embedder_base import Embedder
from omnireader.text.tokens import words

if TYPE_CHECKING:
    import numpy as np

__all__ = ["HashingEmbedder", "DEFAULT_HASHING_DIM"]

DEFAULT_HASHING_DIM = 256
_WORD_WEIGHT = 0.5  # words carry the topic; character n-grams match other forms of a word
_CHAR_WEIGHT = 0.5
_VOCAB_LIMIT = 500_000  # distinct words remembered; text is Zipfian, so hits dominate
_U32 = 0xFFFFFFFF


class _Vocabulary(dict[str, int]):
    """Word -> id, with every word's features in flat arrays indexed by that id.

    Looking a word up adds it when missing, so one dict access per token is the only
    per-token Python work; everything else is array arithmetic. A word's features are a
    pure function of the word, so dropping the vocabulary (when it grows too big) changes
    no vector.
    """

    def __init__(self, dim: int) -> None:
        super().__init__()
        import numpy as np

        self.dim = dim
        self.unigram = np.zeros(0, dtype=np.uint64)  # per word: its unigram hash
        self.starts = np.zeros(0, dtype=np.int64)  # per word: where its n-grams start
        self.sizes = np.zeros(0, dtype=np.int64)  # per word: how many n-grams it has
        self.buckets = np.zeros(0, dtype=np.int64)  # per n-gram: its bucket
        self.signs = np.zeros(0, dtype=np.float64)  # per n-gram: +1 or -1
        self._new_unigrams: list[int] = []
        self._new_sizes: list[int] = []
        self._new_grams: list[int] = []

    def __missing__(self, word: str) -> int:
        grams = self._new_grams
        before = len(grams)
        if len(word) > 1:  # single characters (incl. every CJK token) have no inner n-grams
            padded = f"<{word}>"
            for size in (3, 4, 5):
                grams.extend(_crc(padded[i : i + size]) for i in range(len(padded) - size + 1))
        self._new_sizes.append(len(grams) - before)
        self._new_unigrams.append(_crc("w:" + word))
        self[word] = wid = len(self)
        return wid

    def flush(self) -> None:
        """Move the words added since the last flush into the arrays."""
        if not self._new_sizes:
            return
        import numpy as np

        sizes = np.array(self._new_sizes, dtype=np.int64)
        mixed = _fmix32(np.array(self._new_grams, dtype=np.uint64))
        self.starts = np.concatenate([self.starts, self.buckets.size + np.cumsum(sizes) - sizes])
        self.sizes = np.concatenate([self.sizes, sizes])
        self.unigram = np.concatenate([self.unigram, np.array(self._new_unigrams, dtype=np.uint64)])
        self.buckets = np.concatenate(
            [self.buckets, (mixed % np.uint64(self.dim)).astype(np.int64)]
        )
        self.signs = np.concatenate(
            [self.signs, np.where(mixed & np.uint64(0x80000000), -1.0, 1.0)]
        )
        self._new_unigrams, self._new_sizes, self._new_grams = [], [], []


class HashingEmbedder(Embedder):
    """Signed feature hashing of word and character n-grams into ``dim`` buckets."""

    batch_size: ClassVar[int] = 1024
    local: ClassVar[bool] = True
    # Hashed word and character n-grams know no meaning, only spelling, so their similarity
    # gets no weight: hybrid orders by BM25, and these vectors only add the candidates BM25
    # missed (after BM25's) and break BM25's ties. Measured with bench/bench_retrieval.py
    # (2026-12-01, full LoCoMo dev and the 138 document queries): any weight from 0 to 0.3
    # moves LoCoMo by noise only (one or two questions, either way), 0.5 costs 0.01-0.02;
    # on documents 0.05-0.2 found one to four more files first (of 138). Each of 0.05, 0.1
    # and 0.15 put hybrid below full-text search on one LoCoMo conversation or more; 0 on
    # none. A view that cannot help must not hurt, so 0.
    fusion_weight: ClassVar[float] = 0.0

    def __init__(self, dim: int = DEFAULT_HASHING_DIM) -> None:
        if dim < 8:
            raise ConfigError(f"hashing dimension must be at least 8, not {dim}")
        self._dim = dim
        self._vocab: _Vocabulary | None = None  # built on first use: numpy loads lazily
        self._lock = threading.Lock()  # the vocabulary grows while embedding

    @property
    def name(self) -> str:
        # The dimension is in the name only when it is not the default, so the common
        # name stays short in stats; either way, another dim is another vector space.
        return "hashing-v1" if self._dim == DEFAULT_HASHING_DIM else f"hashing-v1:{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return self._embed_locked(texts)

    def _embed_locked(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        n = len(texts)
        if self._vocab is None or len(self._vocab) > _VOCAB_LIMIT:
            self._vocab = _Vocabulary(self._dim)
        vocab = self._vocab
        # Symbols are not features: only word tokens (the tokens left once they are blanked).
        token_lists = [words(t.lower()) for t in texts]
        lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=n)
        # map over the bound lookup: about twice as fast as a comprehension per token; read
        # straight into an array (no list of a Python int per token).
        tok = np.fromiter(
            map(vocab.__getitem__, chain.from_iterable(token_lists)),
            dtype=np.int64,
            count=int(lengths.sum()),
        )
        if not tok.size:
            return _without_zero_rows(np.zeros((n, self._dim)))
        vocab.flush()
        # Per token: its row (text) and its word id.
        row = np.repeat(np.arange(n, dtype=np.int64), lengths)

        # Damped count of each (row, word) pair: the unigram weights, reused for n-grams.
        size = len(vocab)
        pairs, counts = np.unique(row * size + tok, return_counts=True)
        p_row, p_word, p_weight = pairs // size, pairs % size, 1.0 + np.log(counts)

        word_bag = self._word_bag(
            n, row, vocab.unigram[tok], p_row, vocab.unigram[p_word], p_weight
        )
        char_bag = self._char_bag(n, vocab, p_row, p_word, p_weight)
        # Texts of single characters only (e.g. all CJK) have no character bag: words alone.
        has_chars = char_bag.any(axis=1, keepdims=True)
        mixed = np.where(has_chars, _WORD_WEIGHT * word_bag + _CHAR_WEIGHT * char_bag, word_bag)
        return _without_zero_rows(_normalised(mixed))

    def _word_bag(
        self,
        n: int,
        row: np.ndarray,
        token_hashes: np.ndarray,
        p_row: np.ndarray,
        p_hashes: np.ndarray,
        p_weight: np.ndarray,
    ) -> np.ndarray:
        """Unigrams and bigrams; a bigram hash combines its two unigram hashes."""
        import numpy as np

        same = row[:-1] == row[1:]  # bigrams never span two texts
        left, right = token_hashes[:-1][same], token_hashes[1:][same]
        bigram = (left * np.uint64(0x9E3779B1) + (right ^ np.uint64(0x5BD1E995))) & np.uint64(_U32)
        keyed = (row[:-1][same].astype(np.uint64) << np.uint64(32)) | bigram
        b_keys, b_counts = np.unique(keyed, return_counts=True)
        hashes = _fmix32(np.concatenate([p_hashes, b_keys & np.uint64(_U32)]))
        rows = np.concatenate([p_row, (b_keys >> np.uint64(32)).astype(np.int64)])
        weights = np.concatenate([p_weight, 1.0 + np.log(b_counts)])
        buckets = (hashes % np.uint64(self._dim)).astype(np.int64)
        signed = np.where(hashes & np.uint64(0x80000000), -weights, weights)
        return self._scatter(n, rows, buckets, signed)

    def _char_bag(
        self,
        n: int,
        vocab: _Vocabulary,
        p_row: np.ndarray,
        p_word: np.ndarray,
        p_weight: np.ndarray,
    ) -> np.ndarray:
        """Character n-grams: each (row, word) pair adds its word's n-grams, weighted."""
        import numpy as np

        # Expand every pair into its word's slice of the flat n-gram arrays (a CSR gather).
        sizes = vocab.sizes[p_word]
        gather = np.repeat(vocab.starts[p_word] - (np.cumsum(sizes) - sizes), sizes)
        gather += np.arange(int(sizes.sum()), dtype=np.int64)
        signed = vocab.signs[gather] * np.repeat(p_weight, sizes)
        return self._scatter(n, np.repeat(p_row, sizes), vocab.buckets[gather], signed)

    def _scatter(
        self, n: int, rows: np.ndarray, buckets: np.ndarray, values: np.ndarray
    ) -> np.ndarray:
        """Sum ``values`` into an ``(n, dim)`` matrix at (row, bucket); L2-normalise rows."""
        import numpy as np

        cells = rows * self._dim + buckets
        flat = np.bincount(cells, weights=values, minlength=n * self._dim)
        return _normalised(flat.astype(np.float64).reshape(n, self._dim))


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
