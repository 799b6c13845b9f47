"""The three search views over the items table, each under the same prefilter.

- ``vector``: cosine nearest neighbours of the query's embedding;
- ``fts``: BM25 over the text, the keywords and a match unit's neighbours (LanceDB native
  full-text search);
- ``hybrid``: both views' candidates (``CANDIDATES_PER_K * k`` each), every one re-scored by
  both BM25 and cosine similarity and fused by :func:`.fusion.convex` with the weight the
  embedder declares, so a weak embedder cannot push BM25's good hits down. A query that
  names a date ("in May 2023") then lifts the candidates from that period
  (:mod:`.temporal`, weight :data:`.temporal.TIME_WEIGHT`). The single views stay pure, so
  they remain the baselines hybrid is measured against.

Ranked items then become passages (:mod:`.context`): a hit on a chat message comes with the
messages around it, and overlapping hits merge. ``max_chars`` keeps the passages, best first,
that fit in that many characters: what an agent pastes into its prompt.

Filters are applied *before* ranking (``prefilter=True``): a filtered search returns the
best ``k`` matching items, not the matching part of the global top ``k``. Context around a
hit obeys the same filters.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError
from ..models import MemoryItem
from .context import Hit, assemble
from .fusion import convex
from .maintenance import REFINE_FACTOR
from .results import SearchResult
from .schema import FTS_COLUMNS, item_from_json
from .temporal import TIME_WEIGHT, boost

if TYPE_CHECKING:
    import numpy as np

    from ..llm.embedder_base import Embedder

__all__ = ["run_search", "CANDIDATES_PER_K", "BUDGET_PASSAGES"]

CANDIDATES_PER_K = 4
#: with a character budget, the most passages assembled (a budget is usually full first)
BUDGET_PASSAGES = 25
_VIEWS = ("hybrid", "vector", "fts")


def run_search(
    table: Any,
    embedder: Embedder,
    query: str,
    k: int,
    view: str,
    where: str | None,
    max_chars: int | None = None,
    time_weight: float = TIME_WEIGHT,
) -> list[SearchResult]:
    """The best ``k`` passages for ``query`` in ``view`` among rows matching ``where``.

    ``time_weight`` is the hybrid view's boost for hits in a period the query names (0: off).
    """
    if view not in _VIEWS:
        raise InvalidInputError(f"unknown search view {view!r}; valid views: {', '.join(_VIEWS)}")
    if k < 1:
        raise InvalidInputError(f"k must be at least 1, not {k}")
    if max_chars is not None and max_chars < 1:
        raise InvalidInputError(f"max_chars must be at least 1, not {max_chars}")
    if not query.strip():
        return []  # nothing to rank by; listing items is iter_items' job
    # Under a budget, k is a ceiling on passages; assemble enough to fill the budget.
    wanted = min(k, BUDGET_PASSAGES) if max_chars is not None else k
    n = max(wanted, 10) * CANDIDATES_PER_K
    if view == "vector":
        rows = _vector_rows(table, embedder.embed_query(query), n, where)
        hits = [_hit(r, r["_sim"], {"vector": i}) for i, r in enumerate(rows, 1)]
    elif view == "fts":
        rows = _fts_rows(table, query, n, where)
        hits = [_hit(r, r["_score"], {"fts": i}) for i, r in enumerate(rows, 1)]
    else:
        hits = boost(_hybrid(table, embedder, query, n, where), query, time_weight)
    return assemble(hits, lambda ids: _fetch(table, ids, where), wanted, view, max_chars)


def _hybrid(table: Any, embedder: Embedder, query: str, n: int, where: str | None) -> list[Hit]:
    import numpy as np

    vector = embedder.embed_query(query)
    # The two views are independent queries; LanceDB releases the GIL, so run them at once:
    # the full-text one on one thread beside, the vector one on this thread (one thread
    # started per search, not a pool of two; it runs at this thread's priority).
    with ThreadPoolExecutor(max_workers=1) as pool:
        by_text = pool.submit(_fts_rows, table, query, n, where, True)
        vector_rows = _vector_rows(table, vector, n, where)
        text_rows = by_text.result()
    rows = {r["id"]: r for r in (*text_rows, *vector_rows)}
    semantic = {r["id"]: r["_sim"] for r in vector_rows}
    if text_rows:  # BM25's candidates get their real similarity too
        matrix = np.asarray([r["vector"] for r in text_rows], dtype=np.float32)
        sims = _cosines(matrix, vector)
        for r, s in zip(text_rows, sims):
            semantic.setdefault(r["id"], float(s))
    lexical = {r["id"]: float(r["_score"]) for r in text_rows}
    fused = convex(lexical, semantic, embedder.fusion_weight)
    return [_hit(rows[f.id], f.score, f.ranks) for f in fused]


def _cosines(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1) * max(float(np.linalg.norm(vector)), 1e-12)
    return (matrix @ vector) / np.maximum(norms, 1e-12)


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


def _fts_rows(
    table: Any, query: str, n: int, where: str | None, with_vectors: bool = False
) -> list[dict[str, Any]]:
    from lancedb.query import MultiMatchQuery

    q = table.search(MultiMatchQuery(query, list(FTS_COLUMNS)), query_type="fts")
    if where:
        q = q.where(where, prefilter=True)
    columns = ["id", "item_json", "_score", *(["vector"] if with_vectors else [])]
    return q.select(columns).limit(n).to_arrow().to_pylist()


def _fetch(table: Any, ids: Sequence[str], where: str | None) -> list[MemoryItem]:
    """Items by id, under the search's filters (context obeys them too)."""
    from .filters import combine, sql_string

    clause = combine(where, f"id IN ({', '.join(sql_string(i) for i in ids)})")
    rows = table.search().where(clause).select(["item_json"]).limit(len(ids)).to_arrow()
    return [item_from_json(t) for t in rows.column("item_json").to_pylist()]


def _hit(row: dict[str, Any], score: float, ranks: dict[str, int]) -> Hit:
    return Hit(id=row["id"], item_json=row["item_json"], score=float(score), ranks=ranks)
