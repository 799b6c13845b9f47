"""Reciprocal-rank fusion: one ranking from several, using ranks only.

Vector distances and BM25 scores live on different scales; RRF ignores both and scores an
item ``sum(1 / (k + rank))`` over the lists that contain it (Cormack et al., 2009), so an
item that both views rank well beats one that only a single view likes.

    >>> [f.id for f in rrf({"vector": ["a", "b"], "fts": ["b", "c"]})]
    ['b', 'a', 'c']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

__all__ = ["RRF_K", "Fused", "rrf"]

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
                entry = fused[item_id] = Fused(id=item_id, score=0.0)
            if view in entry.ranks:  # a view listing an id twice counts it once
                continue
            entry.ranks[view] = rank
            entry.score += 1.0 / (k + rank)
    return sorted(fused.values(), key=lambda f: (-f.score, min(f.ranks.values()), f.id))
