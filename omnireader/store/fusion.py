"""Fusing the lexical and the semantic view into one ranking.

Two ways, both deterministic (ties broken by the best single rank, then by id; in
:func:`convex` first by the semantic score):

- :func:`rrf`, reciprocal-rank fusion (Cormack et al., 2009): ``sum(1 / (k + rank))`` over the
  lists. It uses ranks only, so it gives every view the same say, however weak the view is:
  fused with BM25 by plain RRF, the offline hashing embedder's mostly lexical noise pulled
  recall *below* BM25 alone (LoCoMo dev: 0.669 against 0.784 within 6,000 characters).
- :func:`convex`, what hybrid search uses: each view's scores scaled to [0, 1] by the best
  candidate's, then ``(1 - w) * lexical + w * semantic``. The candidates are the union of both
  views' top lists, and every candidate gets its real cosine similarity, so an item BM25
  found is re-scored by meaning rather than ranked by two independent lists. ``w`` is the
  weight the embedder declares (:attr:`omnireader.llm.embedder_base.Embedder.fusion_weight`):
  learned on the dev sets for the bundled models (0 for both: see
  :mod:`omnireader.llm.embed_static`), 0.5 for a transformer a user brings.

    >>> [f.id for f in rrf({"vector": ["a", "b"], "fts": ["b", "c"]})]
    ['b', 'a', 'c']
    >>> [f.id for f in convex({"a": 4.0, "b": 2.0}, {"a": 0.1, "b": 0.9, "c": 0.8}, 0.5)]
    ['b', 'a', 'c']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from omnireader.errors import ConfigError

__all__ = ["RRF_K", "Fused", "rrf", "convex"]

#: the usual constant: large enough that rank 1 does not drown everything else
RRF_K = 60


class Fused(BaseModel):
    """One item's fused score and its 1-based rank in each list that has it."""

    id: str
    score: float
    ranks: dict[str, int] = Field(default_factory=dict)


def rrf(rankings: Mapping[str, Sequence[str]], k: int = RRF_K) -> list[Fused]:
    """Fuse ranked id lists (best first), named by view; best fused item first.

    Ties are broken by the best single rank, then by id, so the order is deterministic.
    """
    fused: dict[str, Fused] = {}
    for view, ids in rankings.items():
        for rank, item_id in enumerate(ids, start=1):
            entry = fused.get(item_id)
            if entry is None:
                entry = fused[item_id] = _new(item_id)
            if view in entry.ranks:  # a view listing an id twice counts it once
                continue
            entry.ranks[view] = rank
            entry.score += 1.0 / (k + rank)
    return _ordered(fused)


def convex(
    lexical: Mapping[str, float],
    semantic: Mapping[str, float],
    weight: float,
    per_item: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Fuse BM25 scores and cosine similarities (by id) with ``weight`` on the semantic side.

    Each side is divided by its best score (negative similarities count as 0), so both lie
    in [0, 1]; an id missing from a side scores 0 there. ``ranks`` are each side's ranks.
    ``per_item`` gives some ids their own weight (their kind's, see
    :attr:`omnireader.llm.embedder_base.Embedder.fusion_weight_by_kind`).

        >>> lexical, semantic = {"a": 4.0, "b": 2.4, "c": 3.0}, {"a": 0.1, "b": 0.9, "c": 0.1}
        >>> [f.id for f in convex(lexical, semantic, 0.0)], [f.id for f in convex(lexical, semantic, 0.0, {"b": 0.5})]
        (['a', 'c', 'b'], ['a', 'b', 'c'])
    """
    per_item = per_item or {}
    for w in {weight, *per_item.values()}:
        if not 0.0 <= w <= 1.0:
            raise ConfigError(f"fusion weight must be within [0, 1], not {w}")
    lex_top = max(lexical.values(), default=0.0)
    sem = {i: max(0.0, s) for i, s in semantic.items()}
    sem_top = max(sem.values(), default=0.0)
    fused: dict[str, Fused] = {}
    for view, scores, top, semantic_side in (
        ("fts", lexical, lex_top, False),
        ("vector", sem, sem_top, True),
    ):
        ranked = sorted(scores, key=lambda i: (-scores[i], i))
        for rank, item_id in enumerate(ranked, start=1):
            entry = fused.get(item_id) or fused.setdefault(item_id, _new(item_id))
            entry.ranks[view] = rank
            if top > 0:
                w = per_item.get(item_id, weight)
                entry.score += (w if semantic_side else 1.0 - w) * scores[item_id] / top
    # Equal scores: the closer in meaning first (then the best rank, then the id), so the
    # order of BM25's hits does not depend on which other candidates the vector view found.
    return sorted(
        fused.values(), key=lambda f: (-f.score, -sem.get(f.id, 0.0), min(f.ranks.values()), f.id)
    )


def _new(item_id: str) -> Fused:
    # Built unvalidated: hybrid search fuses hundreds of candidates per query.
    return Fused.model_construct(id=item_id, score=0.0, ranks={})


def _ordered(fused: dict[str, Fused]) -> list[Fused]:
    return sorted(fused.values(), key=lambda f: (-f.score, min(f.ranks.values()), f.id))
