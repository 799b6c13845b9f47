"""Each view's rows as the search reads them: dicts of an item's columns with the view's
score (``_sim``, a cosine similarity; ``_score``, BM25's), the large vector column left out
but where hybrid scores BM25's candidates by it."""

from __future__ import annotations

from typing import Any

from omnireader.store.queries import run_queries, vector_query
from omnireader.store.query_sentences import QueryVectors
from omnireader.store.routing import bm25_queries, merge_routed
from omnireader.store.schema import ITEM_COLUMNS

__all__ = [
    "VECTOR_IDS",
    "VECTOR_COLUMNS",
    "TEXT_COLUMNS",
    "text_rows",
    "vector_rows",
    "vector_search",
    "with_similarity",
    "fts_rows",
]

VECTOR_IDS = ["id", "_distance", "source_kind"]  # a candidate's item is fetched if shown
VECTOR_COLUMNS = [*VECTOR_IDS, *ITEM_COLUMNS]
TEXT_COLUMNS = ["id", *ITEM_COLUMNS, "source_kind", "_score", "vector"]  # hybrid's BM25 rows


def text_rows(data: Any) -> list[dict[str, Any]]:
    """BM25's rows, each with its vector as a numpy array."""
    rows = _rows(data)
    if rows:  # straight from Arrow: no Python float per dimension
        matrix = data.column("vector").combine_chunks().flatten().to_numpy()
        for r, v in zip(rows, matrix.reshape(len(rows), -1)):
            r["vector"] = v
    return rows


def vector_search(vectors: QueryVectors, n: int, where: str | None, columns: list[str]) -> Any:
    """The whole query's nearest neighbours (with the columns its sentences score them by)."""
    return vector_query(vectors.whole, n, where, vectors.columns(columns))


def vector_rows(
    table: Any, vectors: QueryVectors, n: int, where: str | None
) -> list[dict[str, Any]]:
    (data,) = run_queries(table, [vector_search(vectors, n, where, VECTOR_COLUMNS)])
    return with_similarity(data, vectors)


def with_similarity(data: Any, vectors: QueryVectors) -> list[dict[str, Any]]:
    """The vector query's rows with their similarity, best first: one minus the cosine
    distance, or a query of several sentences' best sentence's cosine."""
    rows = _rows(data)
    for r, s in zip(rows, vectors.row_similarities(data)):
        r["_sim"] = s
    return rows if vectors.parts is None else sorted(rows, key=lambda r: -r["_sim"])


def fts_rows(table: Any, query: str, n: int, where: str | None) -> list[dict[str, Any]]:
    columns = ["id", *ITEM_COLUMNS, "_score"]
    return _rows(merge_routed(run_queries(table, bm25_queries(table, query, n, where, columns)), n))


def _rows(data: Any) -> list[dict[str, Any]]:
    """The rows of an Arrow table as dicts, leaving out the (large) vector column."""
    names = [c for c in data.column_names if c != "vector"]
    return data.select(names).to_pylist()
