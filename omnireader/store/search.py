"""The three search views over the items table, each under the same prefilter.

- ``vector``: cosine nearest neighbours of the query's embedding;
- ``fts``: BM25 over the text and the keywords (LanceDB native full-text search);
- ``hybrid``: both, fused by reciprocal rank (:mod:`.fusion`), each asked for ``4 * k``
  candidates so an item ranked modestly by both views can still win.

Filters are applied *before* ranking (``prefilter=True``): a filtered search returns the
best ``k`` matching items, not the matching part of the global top ``k``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError
from .fusion import rrf
from .maintenance import REFINE_FACTOR
from .results import SearchResult, View
from .schema import FTS_COLUMNS, item_from_json

if TYPE_CHECKING:
    import numpy as np

    from ..llm.embedder_base import Embedder

__all__ = ["run_search", "CANDIDATES_PER_K"]

CANDIDATES_PER_K = 4
_VIEWS = ("hybrid", "vector", "fts")


def run_search(
    table: Any, embedder: Embedder, query: str, k: int, view: str, where: str | None
) -> list[SearchResult]:
    """The best ``k`` items for ``query`` in ``view`` among rows matching ``where``."""
    if view not in _VIEWS:
        raise InvalidInputError(f"unknown search view {view!r}; valid views: {', '.join(_VIEWS)}")
    if k < 1:
        raise InvalidInputError(f"k must be at least 1, not {k}")
    if not query.strip():
        return []  # nothing to rank by; listing items is iter_items' job
    if view == "vector":
        rows = _vector_rows(table, embedder.embed_query(query), k, where)
        return [_result(r, r["_sim"], "vector", {"vector": i}) for i, r in enumerate(rows, 1)]
    if view == "fts":
        rows = _fts_rows(table, query, k, where)
        return [_result(r, r["_score"], "fts", {"fts": i}) for i, r in enumerate(rows, 1)]
    return _hybrid(table, embedder, query, k, where)


def _hybrid(
    table: Any, embedder: Embedder, query: str, k: int, where: str | None
) -> list[SearchResult]:
    n = k * CANDIDATES_PER_K
    vector = embedder.embed_query(query)
    # The two views are independent queries; LanceDB releases the GIL, so run them at once.
    with ThreadPoolExecutor(max_workers=2) as pool:
        by_vector = pool.submit(_vector_rows, table, vector, n, where)
        by_text = pool.submit(_fts_rows, table, query, n, where)
        vector_rows, text_rows = by_vector.result(), by_text.result()
    rows = {r["id"]: r for r in (*text_rows, *vector_rows)}
    fused = rrf({"vector": [r["id"] for r in vector_rows], "fts": [r["id"] for r in text_rows]})
    return [_result(rows[f.id], f.score, "hybrid", f.ranks) for f in fused[:k]]


def _vector_rows(table: Any, vector: np.ndarray, n: int, where: str | None) -> list[dict[str, Any]]:
    q = table.search(vector, vector_column_name="vector").distance_type("cosine")
    if where:
        q = q.where(where, prefilter=True)
    # Re-rank the quantised index's candidates exactly (a no-op while the search is flat).
    q = q.refine_factor(REFINE_FACTOR)
    data = q.select(["id", "item_json", "_distance"]).limit(n).to_arrow()
    rows = data.to_pylist()
    for r in rows:
        r["_sim"] = 1.0 - float(r["_distance"])  # cosine distance -> similarity
    return rows


def _fts_rows(table: Any, query: str, n: int, where: str | None) -> list[dict[str, Any]]:
    from lancedb.query import MultiMatchQuery

    q = table.search(MultiMatchQuery(query, list(FTS_COLUMNS)), query_type="fts")
    if where:
        q = q.where(where, prefilter=True)
    return q.select(["id", "item_json", "_score"]).limit(n).to_arrow().to_pylist()


def _result(row: dict[str, Any], score: float, view: View, ranks: dict[str, int]) -> SearchResult:
    return SearchResult(score=float(score), item=item_from_json(row["item_json"]), view=view,
                        ranks=ranks)
