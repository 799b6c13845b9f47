"""Local semantic embedders for a model already on disk: ONNX Runtime, or sentence-transformers.

    >>> make_embedder("onnx:/models/all-MiniLM-L6-v2")      # doctest: +SKIP
    >>> make_embedder("st:/models/all-MiniLM-L6-v2")        # doctest: +SKIP

- ``onnx:FOLDER`` (``pip install omnireader[local-embed]``: onnxruntime and tokenizers, no
  torch): the folder holds ``model.onnx`` (or ``onnx/model.onnx``) and ``tokenizer.json``, as
  sentence-transformers' ONNX exports do. Token vectors are mean-pooled over the attention
  mask and L2-normalised (a model that already outputs one vector per text is used as is).
  ``$OMNIREADER_EMBED_THREADS`` caps ONNX Runtime's threads (default: one per core), for a
  machine that ingests while it does other work.
- ``st:NAME_OR_FOLDER``: sentence-transformers (which needs torch; install it yourself). The
  hub is switched off (``HF_HUB_OFFLINE=1``), so only a model already on disk loads.

Nothing is downloaded at run time. Both declare a fusion weight of 0.5, the weight learned
for all-MiniLM-L6-v2 on LoCoMo dev and FinanceBench dev (best mean of the three figures among
0–0.7; docs/search.md, "The transformer, measured"): a transformer finds what shares no word
with the query, so hybrid search listens to it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from omnireader.errors import ConfigError, MissingExtraError
from omnireader.llm.embedder_base import Embedder

if TYPE_CHECKING:
    import numpy as np

__all__ = ["OnnxEmbedder", "SentenceTransformerEmbedder", "MAX_TOKENS"]

MAX_TOKENS = 256  # longer texts are truncated, as sentence-transformers does by default
_EXTRA = "pip install 'omnireader[local-embed]'"


def _require(module: str, why: str) -> Any:
    import importlib

    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # before onnxruntime loads
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{why} needs the {module} package: {_EXTRA}", extra="local-embed"
        ) from None


def _threads_from_env() -> int:
    raw = os.environ.get("OMNIREADER_EMBED_THREADS", "").strip()
    if not raw:
        return 0
    if not raw.isdigit():
        raise ConfigError(f"OMNIREADER_EMBED_THREADS={raw!r}: expected a whole number of threads")
    return int(raw)


class OnnxEmbedder(Embedder):
    """A sentence-embedding model in ONNX format, run by ONNX Runtime on the CPU."""

    batch_size: ClassVar[int] = 32
    local: ClassVar[bool] = True
    fusion_weight: ClassVar[float] = 0.5

    def __init__(self, folder: str | Path, threads: int | None = None) -> None:
        self.folder = Path(folder).expanduser().resolve()
        model = next(
            (
                p
                for p in (self.folder / "model.onnx", self.folder / "onnx" / "model.onnx")
                if p.is_file()
            ),
            None,
        )
        tokenizer = self.folder / "tokenizer.json"
        if model is None or not tokenizer.is_file():
            raise ConfigError(
                f"embedder onnx:{self.folder}: expected model.onnx (or onnx/model.onnx) and "
                "tokenizer.json in that folder (a sentence-transformers ONNX export)"
            )
        self._load(model, tokenizer, threads, f"embedder onnx:{self.folder}")

    def _load(self, model: Path, tokenizer: Path, threads: int | None, who: str) -> None:
        ort = _require("onnxruntime", who)
        tokenizers = _require("tokenizers", who)
        options = ort.SessionOptions()
        options.log_severity_level = 3
        threads = threads if threads is not None else _threads_from_env()
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(model), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._dim = int(self._run(["dimension probe"]).shape[1])

    @property
    def name(self) -> str:
        return f"onnx:{self.folder}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return self._run(texts)

    def _run(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.array([e.type_ids for e in encoded], dtype=np.int64)
        out = np.asarray(
            self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0],
            dtype=np.float32,
        )
        if out.ndim == 3:  # token vectors: mean over the real tokens
            weights = mask[:, :, None].astype(np.float32)
            out = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model already on disk (or in the local cache)."""

    batch_size: ClassVar[int] = 32
    local: ClassVar[bool] = True
    fusion_weight: ClassVar[float] = 0.5

    def __init__(self, spec: str) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never download at run time
        st = _require("sentence_transformers", f"embedder st:{spec}")
        self.spec = spec
        try:
            self._model = st.SentenceTransformer(spec, device="cpu")
        except Exception as e:  # noqa: BLE001 - the library raises many kinds
            raise ConfigError(
                f"embedder st:{spec}: could not load the model offline ({type(e).__name__}: {e}); "
                "give a folder that holds the model"
            ) from None
        self._dim = int(self._model.get_sentence_embedding_dimension())

    @property
    def name(self) -> str:
        return f"st:{self.spec}"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
