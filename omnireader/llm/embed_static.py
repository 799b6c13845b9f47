"""The offline default embedder: a static (Model2Vec-style) sentence-embedding model.

A static model is a table of one vector per token of a transformer's vocabulary, distilled
from the transformer (``scripts/distill_static.py``: all-MiniLM-L6-v2's token vectors, reduced
to 256 dimensions by PCA and weighted by token frequency). A text's vector is the mean of its
tokens' rows, L2-normalised: no network, no torch, only numpy and the ``tokenizers`` package,
and fast enough to embed every item at ingest (~2,000 400-word passages/s on one core, see
``bench/bench_semantic.py``). It knows that "car" and "automobile" are close, which hashed
words cannot; a transformer knows more, at ~100× the cost (docs/search.md).

A model folder holds ``tokenizer.json``, ``vectors.npy`` (int8, one row per token id),
``scales.npy`` (float32, each row's scale: row = int8 × scale) and ``config.json``. The
default model ships inside the package (``omnireader/llm/models/``, with its licence); another
folder in the same format is named ``static:FOLDER``.

    >>> e = StaticEmbedder()                                    # doctest: +SKIP
    >>> a, b, c = e.embed(["I bought a new car", "she purchased an automobile", "tax rates"])
    >>> bool(a @ b > a @ c)                                     # doctest: +SKIP
    True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from omnireader.errors import ConfigError, MissingExtraError
from omnireader.llm.embedder_base import Embedder

if TYPE_CHECKING:
    import numpy as np

__all__ = ["StaticEmbedder", "DEFAULT_STATIC_MODEL", "MODELS_DIR", "STATIC_FUSION_WEIGHT"]

MODELS_DIR = Path(__file__).resolve().parent / "models"
#: the bundled model (a folder of :data:`MODELS_DIR`); its name is part of the vector space's
DEFAULT_STATIC_MODEL = "minilm-l6-static-256"
#: Hybrid's weight on this model's similarities. Learned on the dev sets by
#: bench/bench_semantic.py (leave one conversation / one half of the filings out): see there
#: and docs/search.md for the sweep.
STATIC_FUSION_WEIGHT = 0.3
MAX_TOKENS = 512  # as Model2Vec: a chunk's first 512 tokens say what it is about


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
        files = [folder / n for n in ("tokenizer.json", "vectors.npy", "scales.npy")]
        missing = [f.name for f in files if not f.is_file()]
        if missing:
            raise ConfigError(
                f"embedder static:{spec}: {folder} lacks {', '.join(missing)} (a static model "
                "folder, as scripts/distill_static.py writes it)"
            )
        # Parallel tokenizing would fight the ingest's own processes (and warns after a fork).
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise MissingExtraError(
                f"embedder static:{spec} needs the tokenizers package: pip install tokenizers",
                extra="tokenizers",
            ) from None
        self._tokenizer: Any = Tokenizer.from_file(str(files[0]))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(MAX_TOKENS)
        codes = np.load(files[1], mmap_mode="r")
        scales = np.load(files[2]).astype(np.float32)
        if codes.ndim != 2 or scales.shape != (codes.shape[0],):
            raise ConfigError(f"embedder static:{spec}: vectors.npy and scales.npy do not match")
        self._codes = codes
        self._scales = scales
        self._dim = int(codes.shape[1])
        config = folder / "config.json"
        self.info: dict[str, Any] = json.loads(config.read_text()) if config.is_file() else {}

    @property
    def name(self) -> str:
        return f"static:{self._spec}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        encoded = self._tokenizer.encode_batch(texts, add_special_tokens=False)
        ids = [e.ids for e in encoded]
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter((t for row in ids for t in row), dtype=np.int64, count=lengths.sum())
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        if flat.size:
            rows = self._codes[flat].astype(np.float32) * self._scales[flat, None]
            filled = lengths > 0
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[filled]
            out[filled] = np.add.reduceat(rows, starts, axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        # A text with no token (empty, only characters the vocabulary lacks) has no cosine: a
        # fixed vector with no direction favoured keeps search well-defined for it.
        out[norms[:, 0] == 0] = 1.0
        norms[norms == 0] = np.sqrt(self._dim)
        return out / norms
