"""What the store hands back: search results, write counts and statistics."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

from omnireader.models import MemoryItem

__all__ = ["View", "SearchResult", "AddResult", "StoreStats", "merge_results"]

View = Literal["hybrid", "vector", "fts"]


class SearchResult(BaseModel):
    """One passage found: the item that matched, the context around it, and its scores.

    ``item`` is the best-matching item of the passage. ``text`` is what to put in a prompt:
    for a match unit (a chat message) it holds the unit with its neighbours, and hits that
    overlap or touch are merged into one passage; for a document chunk, the chunk with its
    header and, as the budget allows, its section neighbours or its whole table; for any other
    item it is the item's text.
    ``items`` are the items ``text`` covers, in reading order (``item`` among them).

    ``score`` is cosine similarity for ``vector``, BM25 for ``fts`` and the fused score
    (see :mod:`omnireader.store.fusion`) for ``hybrid``; higher is better in every view.
    ``ranks`` holds the 1-based rank of ``item`` in each underlying view that found it
    (``{"vector": 1, "fts": 4}``).
    """

    score: float
    item: MemoryItem
    view: View
    ranks: dict[str, int] = Field(default_factory=dict)
    text: str = ""
    items: list[MemoryItem] = Field(default_factory=list)
    #: a document passage's title and heading path ("Report › Cash flows"), also the first
    #: line of ``text``; None for other passages
    header: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def message_ids(self) -> list[str]:
        """The chat message ids the passage covers, in order (for chat items)."""
        ids = (s.message_id for i in self.items for s in i.metadata.sources if s.message_id)
        return list(dict.fromkeys(ids))


class AddResult(BaseModel):
    """How many added items were new and how many replaced a stored item with the same id."""

    inserted: int = 0
    updated: int = 0

    @property
    def written(self) -> int:
        return self.inserted + self.updated


class StoreStats(BaseModel):
    """Counts of what the store holds, and how it embeds."""

    items: int
    by_type: dict[str, int] = Field(default_factory=dict)
    by_mode: dict[str, int] = Field(default_factory=dict)
    by_source_kind: dict[str, int] = Field(default_factory=dict)
    pages_ocr: int = 0  # pages and image frames whose text OCR read
    pages_unreadable: int = 0  # pages with no text layer OCR did not read, undecodable pages
    embedder: str
    dim: int
    path: str


def merge_results(
    first: list[SearchResult], second: list[SearchResult], k: int, max_chars: int | None
) -> list[SearchResult]:
    """Two searches' results as one, best score first: the ``k`` best, or under
    ``max_chars`` the best whose texts fit together (current and archived versions)."""
    ranked = sorted([*first, *second], key=lambda r: -r.score)
    if max_chars is None:
        return ranked[:k]
    kept: list[SearchResult] = []
    used = 0
    for r in ranked:
        size = len(r.text or r.item.memory)
        if len(kept) < k and used + size <= max_chars:
            kept.append(r)
            used += size
    return kept
