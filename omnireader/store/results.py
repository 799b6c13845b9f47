"""What the store hands back: search results, write counts and statistics."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..models import MemoryItem

__all__ = ["View", "SearchResult", "AddResult", "StoreStats"]

View = Literal["hybrid", "vector", "fts"]


class SearchResult(BaseModel):
    """One hit: its score in the view searched, the whole item, and its rank per view.

    ``score`` is cosine similarity for ``vector``, BM25 for ``fts`` and the reciprocal-rank
    fusion score for ``hybrid``; higher is better in every view. ``ranks`` holds the 1-based
    rank of the item in each underlying view that found it (``{"vector": 1, "fts": 4}``).
    """

    score: float
    item: MemoryItem
    view: View
    ranks: dict[str, int] = Field(default_factory=dict)


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
