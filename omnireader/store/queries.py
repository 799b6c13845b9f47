"""Running a search's LanceDB queries: built as query objects, run together in one call.

LanceDB's synchronous query builders cost more than some of the queries they build: each
``table.search(...)`` asks the table for its schema (a round trip to LanceDB's background
event loop, and a version check), ``to_arrow`` asks twice more, and every result batch is
another round trip. Measured at 100k items that was ~4 ms of a hybrid search's ~40 ms of CPU
before any query ran. So a search builds the :class:`lancedb.query.Query` objects itself (the
same objects the builders make: ``tests/store/test_store_queries.py`` checks they are equal)
and runs all of them in one trip to that loop, where they run at the same time (the work is
in LanceDB's native threads, without the interpreter lock).

BM25 over several columns is one query per column, merged here (:class:`FtsQuery`), not
LanceDB's ``MultiMatchQuery``. Both give each row its best column's score and keep the top
``n`` (``MultiMatchQuery`` is planned as the union of one match per column, the max score per
row, a sort). Planned that way it cost more: at 100k items, hybrid's BM25 query (rows with
their items) took 16.5-22 ms of CPU and 15-21 ms wall, the three matches run at once and merged
here 14-18 ms of CPU and 9.5-12 ms wall (two interleaved A/B runs on bench_server's store).
``tests/store/test_store_queries.py`` checks the rows and scores are MultiMatchQuery's; every
LoCoMo dev question and document query gave the same rows and scores (top 40 and top 100).
Each column's rows are cut at ``n`` by (score, id), rows tied at the cut taken in whole, so
the same question gives the same rows whatever the full-text index's partitions
(:mod:`.bm25_ties`).

The table's native handle is a private attribute of LanceDB's synchronous table; when it is
missing (another LanceDB version), the queries run one by one through the synchronous table's
own execution path instead (the one its builders use), with the same results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from omnireader.store.maintenance import REFINE_FACTOR
from omnireader.store.schema import FTS_COLUMNS

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = ["vector_query", "fts_query", "FtsQuery", "filter_query", "run_queries"]


def vector_query(vector: np.ndarray, n: int, where: str | None, columns: list[str]) -> Any:
    """Cosine nearest neighbours, re-ranked exactly from ``REFINE_FACTOR`` x ``n`` candidates
    (a no-op while the search is flat), under ``where`` applied before ranking."""
    from lancedb.query import Query

    return Query(
        vector_column="vector",
        vector=vector.tolist(),
        filter=where,
        postfilter=_prefilter(where),
        limit=n,
        distance_type="cosine",
        columns=columns,
        refine_factor=REFINE_FACTOR,
    )


@dataclass(frozen=True)
class FtsQuery:
    """BM25 over several full-text columns: one LanceDB query per column, whose rows
    :func:`run_queries` merges into the best ``n`` (a row scores its best column's score)."""

    per_column: tuple[Any, ...]
    n: int
    #: the last ``headings`` queries are over the heading column: added, not maxed
    #: (:func:`.headings.add_heading_scores`)
    headings: int = 0
    heading_weight: float = 0.0

    def merge(self, tables: Sequence[pa.Table]) -> pa.Table:
        import pyarrow as pa

        main = list(tables[: len(tables) - self.headings])
        rows = pa.concat_tables(main).sort_by([("_score", "descending"), ("id", "ascending")])
        seen: set[str] = set()
        first = [
            i
            for i, key in enumerate(rows.column("id").to_pylist())
            if not (key in seen or seen.add(key))
        ]
        if not self.headings:
            return rows.take(pa.array(first[: self.n], type=pa.int64()))
        from omnireader.store.headings import add_heading_scores

        return add_heading_scores(
            rows.take(pa.array(first, type=pa.int64())),
            tables[len(main) :],
            self.n,
            self.heading_weight,
        )


def fts_query(
    text: str, n: int, where: str | None, columns: list[str], searched: Sequence[str] = FTS_COLUMNS
) -> FtsQuery:
    """BM25 over the full-text columns ``searched``, under ``where`` applied before ranking
    (``columns`` must include ``id`` and ``_score``, which the merge orders by)."""
    from lancedb.query import FullTextSearchQuery, MatchQuery, Query

    from omnireader.store import headings
    from omnireader.store.expansion import expand
    from omnireader.store.lexicon import query_words

    text = query_words(expand(text))
    # The heading column last: its scores are added to the others' maximum.
    ordered = [c for c in searched if c != headings.HEADING_COLUMN]
    boosted = len(searched) - len(ordered)
    return FtsQuery(
        tuple(
            Query(
                filter=where,
                postfilter=_prefilter(where),
                limit=n,
                columns=columns,
                full_text_query=FullTextSearchQuery(columns=[], query=MatchQuery(text, column)),
            )
            for column in [*ordered, *[headings.HEADING_COLUMN] * boosted]
        ),
        n,
        boosted,
        headings.HEADING_WEIGHT,
    )


def filter_query(where: str, n: int, columns: list[str]) -> Any:
    """Up to ``n`` rows matching ``where`` (no ranking)."""
    from lancedb.query import Query

    return Query(filter=where, limit=n, columns=columns)


def _prefilter(where: str | None) -> bool | None:
    # as the builders set it: False ("filter first") with a filter, unset without one
    return False if where else None


def run_queries(table: Any, queries: Sequence[Any]) -> list[pa.Table]:
    """Each query's rows, the queries (an :class:`FtsQuery`'s included) run concurrently in
    one call into LanceDB."""
    from omnireader.store import bm25_ties

    # BM25's queries ask for one row more, to see whether equal scores cross the cut.
    flat = [
        q
        for query in queries
        for q in (
            [bm25_ties.asked(c, query.n) for c in query.per_column]
            if isinstance(query, FtsQuery)
            else (query,)
        )
    ]
    tables = iter(_run(table, flat))
    return [
        query.merge(
            bm25_ties.settle(
                query.per_column,
                [next(tables) for _ in query.per_column],
                query.n,
                lambda again: _run(table, again),
                filter_query,
            )
        )
        if isinstance(query, FtsQuery)
        else next(tables)
        for query in queries
    ]


def _run(table: Any, queries: Sequence[Any]) -> list[pa.Table]:
    import asyncio

    import pyarrow as pa

    native = getattr(table, "_table", None)
    if native is None or not hasattr(native, "_execute_query"):
        return [table._execute_query(q).read_all() for q in queries]
    direct = hasattr(native, "_sync_query_to_async")

    async def one(query: Any) -> pa.Table:
        if direct:
            reader = await _execute(native._sync_query_to_async(query))
        else:
            reader = await native._execute_query(query)
        return pa.Table.from_batches(await reader.read_all(), schema=reader.schema)

    async def every() -> list[pa.Table]:
        return list(await asyncio.gather(*(one(q) for q in queries)))

    from lancedb.background_loop import LOOP

    return LOOP.run(every())


async def _execute(query: Any) -> Any:
    """Run LanceDB's async query as its ``to_batches`` does, without first asking the table
    for its schema to look for blob columns (a round trip into LanceDB and a walk of the
    schema in Python for every query: ~1.7 ms of interpreter time a search at three queries).
    The items table has no blob columns. Falls back to ``to_batches`` where the inner handle
    is missing."""
    inner = getattr(query, "_inner", None)
    if inner is None or not hasattr(inner, "execute"):
        return await query.to_batches()
    from lancedb.arrow import AsyncRecordBatchReader

    return AsyncRecordBatchReader(await inner.execute(max_batch_length=None, timeout=None))
