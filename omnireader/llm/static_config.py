"""A static model folder's ``config.json``: how its vectors are made into a text's vector and
how much hybrid search trusts them, learned for that model.

A folder holds the weights (``tokenizer.json``, ``vectors.npy``, ``scales.npy``) or names
another folder's (``weights``, relative to it): one set of weights can be pooled in more than
one way, and each way is a vector space of its own, with its own name and learned weights.

- ``pool``: ``all`` (every token, as Model2Vec does) or ``letters`` (only the tokens holding a
  letter: a filing's table is mostly digits, signs and bars, whose rows say nothing of what
  it is about and fill its first 512 tokens; FinanceBench dev, vector view alone, page@6k
  filtered 0.324 -> 0.368, LoCoMo dev 0.768 -> 0.779).
- ``headings``: whether a document chunk is embedded with its title and heading path before
  its text (the words a question names a section by; ``omnireader.store.headings``).
- ``fusion_weight`` and ``fusion_weight_by_kind``: hybrid search's weight on the model's
  similarities (:class:`omnireader.llm.embedder_base.Embedder`), 0 when absent;
  ``rerank_kinds``: the kinds whose weight only reorders BM25's candidates.

Other keys (where the model came from, its licence, how the weights were learned) are
information, kept as they are.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from omnireader.errors import ConfigError

__all__ = ["STATIC_FUSION_WEIGHT", "StaticConfig", "read_static_config"]

CONFIG = "config.json"
#: Hybrid's weight on a static model's similarities when its ``config.json`` gives none: 0, so
#: BM25 orders, the model breaks its ties and adds the candidates BM25 missed (after BM25's),
#: and the vector query runs only when BM25's hits run out.
STATIC_FUSION_WEIGHT = 0.0
_Weight = Annotated[float, Field(ge=0.0, le=1.0)]


class StaticConfig(BaseModel):
    """What :class:`omnireader.llm.embed_static.StaticEmbedder` reads from ``config.json``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    weights: str | None = None
    pool: Literal["all", "letters"] = "all"
    headings: bool = False
    fusion_weight: _Weight = STATIC_FUSION_WEIGHT
    fusion_weight_by_kind: dict[str, _Weight] = {}
    rerank_kinds: frozenset[str] = frozenset()

    def weights_folder(self, folder: Path) -> Path:
        """Where the token rows and the tokenizer are: ``folder``, or the one it names."""
        return (folder / self.weights).resolve() if self.weights else folder


def read_static_config(folder: Path, spec: str) -> StaticConfig:
    """``folder``'s config (the defaults when it has none); a ``ConfigError`` naming the
    file and the setting when it cannot be used."""
    path = folder / CONFIG
    if not path.is_file():
        return StaticConfig()
    try:
        config = StaticConfig.model_validate(json.loads(path.read_text()))
    except ValueError as e:  # bad JSON, or a setting out of range (ValidationError)
        raise ConfigError(f"embedder static:{spec}: {path}: {_first_problem(e)}") from None
    return config


def _first_problem(e: ValueError) -> str:
    if isinstance(e, ValidationError):
        error = e.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        return f"{where} {error.get('input')!r}: {error['msg']}"
    return str(e)
