"""The embedding protocol: texts in, one fixed-size float32 vector per text out.

Every backend (offline hashing, OpenAI-compatible, Ollama) subclasses :class:`Embedder` and
implements one method, :meth:`Embedder._embed_batch`; batching, shape checks and the numpy
conversion live here, once.

    >>> from omnireader.llm.embed_hashing import HashingEmbedder
    >>> e = HashingEmbedder()
    >>> e.embed(["Alice moved to Berlin", "Bob likes tea"]).shape
    (2, 256)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from omnireader.errors import LLMError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Embedder"]


class Embedder(ABC):
    """Turns texts into vectors. ``name`` and ``dim`` identify the vector space.

    A store records both and refuses an embedder whose vectors live in another space, so
    ``name`` must change whenever the vectors would (another model, another algorithm).
    """

    #: how many texts one backend call receives
    batch_size: ClassVar[int] = 128
    # True when embedding is pure local computation (no server): batch ingest then embeds
    # in its parser processes, in parallel, instead of in the one writing process.
    local: ClassVar[bool] = False
    #: How much hybrid search trusts this embedder's similarities against BM25, in [0, 1]
    #: (see :func:`omnireader.store.fusion.convex`). A semantic model finds what shares no
    #: word with the query; a lexical embedder mostly repeats BM25, with more noise.
    #: 0.5 (an even say) is the default for transformer models given by the user; the
    #: bundled static model's weight is learned on the dev sets (bench/bench_semantic.py,
    #: which measures a model given in ``$OMNIREADER_BENCH_MODEL`` too).
    fusion_weight: ClassVar[float] = 0.5
    #: Where the learned weight differs by the kind of item (``source_kind``: ``chat``,
    #: ``file``…), the weight for that kind; ``fusion_weight`` for the rest. Meaning counts
    #: for more on a short chat message said in everyday words than on a filing's chunk
    #: matched by its terms (bench/bench_semantic.py learns both).
    fusion_weight_by_kind: ClassVar[Mapping[str, float]] = MappingProxyType({})
    #: Whether a document chunk is embedded with its title and heading path before its text
    #: (the store builds that text: ``omnireader.store.embed_text``). Part of the vector space:
    #: a model measured better with them declares it (the bundled static default does).
    with_headings: ClassVar[bool] = False
    #: The kinds whose weight only reorders BM25's candidates (their similarities come with
    #: their rows): the vector view's own candidates come after them, and its query runs
    #: only when they run out, as at weight 0. A document's words find it; meaning says which
    #: of the matches answers (FinanceBench dev: the same gain without the vector query that
    #: doubled a document search's time). Other weighed kinds (chat) fuse both views' candidates.
    rerank_kinds: ClassVar[frozenset[str]] = frozenset()

    @property
    @abstractmethod
    def name(self) -> str:
        """Which vector space: e.g. ``hashing-v1``, ``openai:text-embedding-3-small``."""

    @property
    @abstractmethod
    def dim(self) -> int:
        """Length of every vector."""

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> Sequence[Sequence[float]] | np.ndarray:
        """Vectors for at most ``batch_size`` texts, in order."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 matrix of shape ``(len(texts), dim)``, one row per text, in order."""
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            parts.append(self._checked(batch, self._embed_batch(batch)))
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def embed_query(self, text: str) -> np.ndarray:
        """One vector (shape ``(dim,)``) for a search query."""
        return self.embed([text])[0]

    def _checked(self, batch: list[str], vectors: object) -> np.ndarray:
        # A backend that answers with the wrong count or size would silently corrupt the
        # store, so it is an error here, naming the backend.
        import numpy as np

        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(batch) or matrix.shape[1] != self.dim:
            raise LLMError(
                f"embedder {self.name} returned vectors of shape {matrix.shape} for "
                f"{len(batch)} texts; expected ({len(batch)}, {self.dim})",
                reason="embedding_shape",
            )
        return matrix

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} dim={self.dim}>"
