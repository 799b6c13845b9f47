"""The three search views over the items table, each under the same prefilter.

- ``vector``: cosine nearest neighbours of the query's embedding (a query of several
  sentences scores each candidate by its best sentence: :mod:`.query_sentences`);
- ``fts``: BM25 over the text, the keywords and a match unit's neighbours (LanceDB native
  full-text search), with a document chunk's title and headings' BM25 added (:mod:`.headings`);
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

Speed (a search is one trip into LanceDB where it can be, see :mod:`.queries`): hybrid's
two queries run at once; a row's item (its text columns and ``item_json``) is read only for the
rows that may be shown.

The weight can differ by the kind of item (``Embedder.fusion_weight_by_kind``: the bundled
model weighs meaning at 0.5 on chat messages, 0.2 on document chunks, 0 on the rest, learned
on the dev sets). With a fusion weight of 0 (both offline embedders: the bundled static model
for every kind but chat and documents, and the hashing fallback) a candidate only the vector
view found
scores 0 and ranks after every BM25 hit, so hybrid asks the vector view only when it gets
there (:func:`_lexical_first`): BM25's candidates are ranked first (re-scored by their cosine
similarity for ties and ``ranks``, as always), and the vector query (ids and distances; an item
is fetched only if it is shown) runs only if the passages are not complete without them. That
vector query is most of a hybrid search's CPU (a scan of every row's 8-bit codes), so most
searches halve. The order is the one both queries give (ties on BM25 go to the closer in
meaning, see :func:`.fusion.convex`, which does not depend on the vector view's candidates).
Only ``ranks["vector"]`` differs: it counts BM25's candidates, and the vector view's too once
that was asked. A query that names a date is boosted over both views' candidates
(:mod:`.temporal`), so it runs both queries at once. A search whose BM25 candidates include a
kind weighted above 0 (a chat message) asks the vector view at once and fuses every candidate
at its kind's weight; in a store known to hold such a kind (:mod:`.presence`), the vector
query runs beside BM25's (the slower one's time, not both), its rows kept for that case or
for the passages BM25's hits leave unfilled: the same results as asking it after. A kind
whose weight only reorders (``Embedder.rerank_kinds``: document chunks) is ranked as at
weight 0 but for that: BM25's candidates of that kind score by their kind's weight on the
similarities their rows carry, and no vector query runs for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from omnireader.errors import InvalidInputError
from omnireader.store import view_rows
from omnireader.store.context import Hit, assemble
from omnireader.store.filters import sql_string
from omnireader.store.fusion import convex
from omnireader.store.hit_rows import fetch_items, hits_of, item_row
from omnireader.store.presence import met, one_look
from omnireader.store.queries import run_queries
from omnireader.store.query_sentences import QueryVectors, query_vectors
from omnireader.store.results import SearchResult
from omnireader.store.routing import bm25_queries, merge_routed
from omnireader.store.snippets import query_terms
from omnireader.store.temporal import TIME_WEIGHT, boost, periods
from omnireader.store.view_rows import TEXT_COLUMNS, VECTOR_COLUMNS, VECTOR_IDS

if TYPE_CHECKING:
    from omnireader.llm.embedder_base import Embedder

__all__ = ["run_search", "CANDIDATES_PER_K", "BUDGET_PASSAGES"]

CANDIDATES_PER_K = 4
#: with a character budget, the most passages assembled (a budget is usually full first)
BUDGET_PASSAGES = 25
_VIEWS = ("hybrid", "vector", "fts")


@one_look()  # what one search asks of the table (names, columns, kinds): one version read
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
    terms = query_terms(query) if max_chars is not None else None
    if view == "vector":
        rows = view_rows.vector_rows(table, query_vectors(embedder, query), n, where)
        hits = [_hit(r, r["_sim"], {"vector": i}) for i, r in enumerate(rows, 1)]
    elif view == "fts":
        rows = view_rows.fts_rows(table, query, n, where)
        hits = [_hit(r, r["_score"], {"fts": i}) for i, r in enumerate(rows, 1)]
    elif embedder.fusion_weight == 0 and not (time_weight > 0 and periods(query)):
        hits, more = _lexical_first(table, embedder, query, n, where)
        return assemble(
            hits,
            lambda ids: fetch_items(table, ids, where),
            wanted,
            view,
            max_chars,
            more=more,
            terms=terms,
        )
    else:
        hits = boost(_hybrid(table, embedder, query, n, where), query, time_weight)
    return assemble(
        hits, lambda ids: fetch_items(table, ids, where), wanted, view, max_chars, terms=terms
    )


def candidates(
    table: Any, embedder: Embedder, query: str, n: int, where: str | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], QueryVectors]:
    """Hybrid's candidates: (BM25 rows with their vectors, vector rows, the query's vectors).

    Vector rows carry their item's columns only when the embedder's fusion weight is above 0 (see
    the module text); :func:`hits_of` fetches the rest when needed.
    """
    vectors = query_vectors(embedder, query)
    vector_columns = VECTOR_IDS if embedder.fusion_weight == 0 else VECTOR_COLUMNS
    by_vector, *by_text = run_queries(
        table,
        [
            view_rows.vector_search(vectors, n, where, vector_columns),
            *bm25_queries(table, query, n, where, TEXT_COLUMNS),
        ],
    )
    return (
        view_rows.text_rows(merge_routed(by_text, n)),
        view_rows.with_similarity(by_vector, vectors),
        vectors,
    )


def _hybrid(table: Any, embedder: Embedder, query: str, n: int, where: str | None) -> list[Hit]:
    text_rows, vector_rows, vectors = candidates(table, embedder, query, n, where)
    semantic = {r["id"]: r["_sim"] for r in vector_rows}
    lexical = _rescored(text_rows, vectors, semantic)
    return _fused(table, embedder, text_rows, vector_rows, lexical, semantic)


def _fused(
    table: Any,
    embedder: Embedder,
    text_rows: list[dict[str, Any]],
    vector_rows: list[dict[str, Any]],
    lexical: dict[str, float],
    semantic: dict[str, float],
) -> list[Hit]:
    """Both views' candidates fused at the embedder's weight, or its weight for each
    candidate's kind (:attr:`~omnireader.llm.embedder_base.Embedder.fusion_weight_by_kind`)."""
    by_kind = embedder.fusion_weight_by_kind
    rows = (*vector_rows, *text_rows)
    per_item = (
        {r["id"]: by_kind.get(r["source_kind"], embedder.fusion_weight) for r in rows}
        if by_kind
        else None
    )
    fused = convex(lexical, semantic, embedder.fusion_weight, per_item)
    return hits_of(table, {r["id"]: r for r in rows}, [(f.id, f.score, f.ranks) for f in fused])


def _rescored(
    text_rows: list[dict[str, Any]], vectors: QueryVectors, semantic: dict[str, float]
) -> dict[str, float]:
    """BM25's scores by id; each BM25 candidate's cosine similarity is added to ``semantic``."""
    import numpy as np

    if text_rows:  # BM25's candidates get their real similarity too
        matrix = np.stack([r["vector"] for r in text_rows]).astype(np.float32, copy=False)
        for r, s in zip(text_rows, vectors.similarities(matrix)):
            semantic.setdefault(r["id"], float(s))
    return {r["id"]: float(r["_score"]) for r in text_rows}


def _lexical_first(
    table: Any, embedder: Embedder, query: str, n: int, where: str | None
) -> tuple[list[Hit], Callable[[], list[Hit]]]:
    """Hybrid at fusion weight 0: BM25's hits, and the vector view's only if asked for.

    Returns the hits ranked from BM25's candidates and a function that runs the vector
    query and returns the candidates only it found, in the order both queries together give
    them (after every BM25 hit, whose ``ranks`` it brings up to date). If a BM25 candidate
    is of a kind whose weight is above 0 (a chat message), the vector view is asked at once
    and both views' candidates fused (:func:`_fused`); nothing is left for later. A kind
    whose weight only reorders (``Embedder.rerank_kinds``: documents) orders BM25's
    candidates at that weight, by the similarities their rows carry, and leaves the vector
    view for later as at weight 0.
    """
    vectors = query_vectors(embedder, query)
    queries = bm25_queries(table, query, n, where, TEXT_COLUMNS)
    # In a store that holds a kind weighed above 0 (chat messages), the vector view is
    # likely asked at once: it runs beside BM25's queries (the slower one's time, not both).
    fused_kinds = _fused_kinds(embedder)
    beside = _holds_any(table, fused_kinds)
    if beside:
        queries = [view_rows.vector_search(vectors, n, where, VECTOR_IDS), *queries]
    by_text = run_queries(table, queries)
    by_vector = by_text.pop(0) if beside else None
    text_rows = view_rows.text_rows(merge_routed(by_text, n))
    semantic: dict[str, float] = {}
    lexical = _rescored(text_rows, vectors, semantic)

    def vector_only() -> list[dict[str, Any]]:
        nonlocal by_vector
        if by_vector is None:
            (by_vector,) = run_queries(
                table, [view_rows.vector_search(vectors, n, where, VECTOR_IDS)]
            )
        rows = view_rows.with_similarity(by_vector, vectors)
        for r in rows:
            semantic.setdefault(r["id"], r["_sim"])
        return rows

    # Fused too when BM25 found nothing in a store holding a fused kind: the vector view's
    # candidates then score by their kind's weight, as beside any BM25 hit.
    if any(r["source_kind"] in fused_kinds for r in text_rows) or (beside and not text_rows):
        return _fused(table, embedder, text_rows, vector_only(), lexical, semantic), lambda: []
    # A kind whose weight reorders BM25's candidates only (documents): by their own vectors.
    by_kind = embedder.fusion_weight_by_kind
    reordered = {
        r["id"]: by_kind[r["source_kind"]]
        for r in text_rows
        if r["source_kind"] in embedder.rerank_kinds and r["source_kind"] in by_kind
    }
    hits = hits_of(
        table,
        {r["id"]: r for r in text_rows},
        [(f.id, f.score, f.ranks) for f in convex(lexical, semantic, 0.0, reordered)],
    )

    def more() -> list[Hit]:
        vector_rows = vector_only()
        fused = {f.id: f for f in convex(lexical, semantic, 0.0)}
        for h in hits:
            h.ranks.update(fused.pop(h.id).ranks)
        return hits_of(
            table,
            {r["id"]: r for r in vector_rows},
            [(f.id, f.score, f.ranks) for f in fused.values()],
        )

    return hits, more


def _fused_kinds(embedder: Embedder) -> frozenset[str]:
    """The kinds whose candidates both views bring: weighed above 0, not reorder-only."""
    weights = embedder.fusion_weight_by_kind
    return frozenset(k for k, w in weights.items() if w > 0 and k not in embedder.rerank_kinds)


def _holds_any(table: Any, kinds: frozenset[str]) -> bool:
    """Whether some item of ``table`` is of one of ``kinds``."""
    return bool(kinds) and bool(
        met(table, "kinds", tuple(sorted(kinds)), lambda k: f"source_kind = {sql_string(k)}")
    )


def _hit(row: dict[str, Any], score: float, ranks: dict[str, int]) -> Hit:
    return Hit(id=row["id"], row=item_row(row), score=float(score), ranks=ranks)
