"""BM25's cut among equal scores: the same rows for the same question on the same store.

A limited BM25 query keeps its best ``n`` rows; when several rows score the same at the
``n``-th place, which of them LanceDB keeps is not fixed. Its full-text index is in several
partitions once a store has been optimised more than once (a second ingest, a checkpoint of
a long one), each partition is searched at the same time, and the rows kept among equal
scores are those of the partition that finishes first. The scores are the same floats
whatever the partitions (LanceDB scores with the sums of their statistics), so only the
choice at the cut varies: the same question asked twice could return different hits.

So each column's query asks for one row more than it needs (:func:`asked`). When the last
row it got scores as the ``n``-th does, the equal scores may go on past what it got: the
query is asked again, for ids and scores only, for :data:`GROWTH` times as many rows, until
the rows it got end below the ``n``-th score (or are all it matches). Then every row scoring
as the ``n``-th is in hand, the rows are ordered by (score descending, id) and cut at ``n``
(among equal scores the smallest ids, whatever the partitions), and the kept rows the first
answer lacks are read by id. Without a tie at the cut this costs the one extra row; ties at
the cut are common on real text in the short columns (chunks of one document share their
headings, many share a keyword), where one re-ask usually takes the band in.

A tie band can be huge on degenerate data (a line repeated thousands of times ties every
row on its words), so a query grows to at most :data:`MAX_ROWS` rows (or ``n`` times
:data:`GROWTH`, if more), ids and scores only (2,048 of them cost about what 41 rows with
their columns do; with hybrid's vectors and texts, 26 ms against 1.6). Beyond that the
choice among the rows scoring as the ``n``-th is LanceDB's again (still ordered by id).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["GROWTH", "MAX_ROWS", "asked", "settle"]

#: each re-ask asks for this many times the rows of the last
GROWTH = 16
#: the most rows a column's query grows to, to take in a tie band at its cut (see above)
MAX_ROWS = 2048


def asked(query: Any, n: int) -> Any:
    """``query`` (a LanceDB query object limited to ``n``) asking for one row more."""
    return query.model_copy(update={"limit": n + 1})


def settle(
    queries: Sequence[Any],
    tables: Sequence[pa.Table],
    n: int,
    run: Callable[[Sequence[Any]], list[pa.Table]],
    filtered: Callable[[str, int, list[str]], Any],
) -> list[pa.Table]:
    """Each query's best ``n`` rows by (score descending, id), the rows scoring as the
    ``n``-th taken in whole (``tables`` are the rows of ``queries``, asked through
    :func:`asked`; ``run`` runs queries together; ``filtered(where, n, columns)`` makes a
    plain filtered query, :func:`.queries.filter_query`, given by the caller, which imports
    this module).

    A query is re-asked for ids and scores only: a row's columns (hybrid's vector, the
    texts) cost ~15 times its id and score to read (2,048 rows: 26 ms against 1.6). The
    rows then kept that the first answer lacks are read by id, all in one trip.
    """
    first = list(tables)
    bands: dict[int, pa.Table] = {}  # query -> its ids and scores, tie band in whole
    limits = [n + 1] * len(first)
    cap = max(MAX_ROWS, n * GROWTH)
    while True:
        open_ = [
            i for i in range(len(first)) if _straddles(bands.get(i, first[i]), n, limits[i], cap)
        ]
        if not open_:
            break
        for i in open_:
            limits[i] = min(limits[i] * GROWTH, cap)
        again = run(
            [queries[i].model_copy(update={"limit": limits[i], "columns": _IDS}) for i in open_]
        )
        bands.update(zip(open_, again))
    kept = {i: _ordered(band).slice(0, n) for i, band in bands.items()}
    missing = {i: _lacking(first[i], kept[i]) for i in kept}
    fetch = [i for i in kept if missing[i]]
    fetched = dict(
        zip(fetch, run([_by_id(queries[i], missing[i], filtered) for i in fetch]) if fetch else [])
    )
    return [
        _ordered(_rows(first[i], kept[i], fetched.get(i)) if i in kept else first[i]).slice(0, n)
        for i in range(len(first))
    ]


_IDS = ["id", "_score"]


def _lacking(rows: pa.Table, kept: pa.Table) -> list[str]:
    have = set(rows.column("id").to_pylist())
    return [key for key in kept.column("id").to_pylist() if key not in have]


def _by_id(query: Any, ids: list[str], filtered: Callable[[str, int, list[str]], Any]) -> Any:
    """The query's columns (but the score) of the rows ``ids``."""
    from omnireader.store.filters import sql_string

    columns = [c for c in query.columns if c != "_score"]
    return filtered(f"id IN ({', '.join(sql_string(i) for i in ids)})", len(ids), columns)


def _rows(rows: pa.Table, kept: pa.Table, fetched: pa.Table | None) -> pa.Table:
    """The rows of ``kept`` (ids, scores) with their columns: from ``rows`` (the first
    answer) or ``fetched`` (read by id, scored here)."""
    import pyarrow as pa

    score = dict(zip(kept.column("id").to_pylist(), kept.column("_score").to_pylist()))
    where = {key: i for i, key in enumerate(rows.column("id").to_pylist())}
    parts = [rows.take(pa.array([where[k] for k in score if k in where], pa.int64()))]
    if fetched is not None and fetched.num_rows:
        field = rows.schema.field("_score")
        scores = pa.array([score[k] for k in fetched.column("id").to_pylist()], field.type)
        parts.append(
            fetched.append_column(field, scores).select(rows.column_names).cast(rows.schema)
        )
    return pa.concat_tables(parts)


def _straddles(rows: pa.Table, n: int, limit: int, cap: int) -> bool:
    """Whether rows scoring as the ``n``-th may be left out: the query gave all it was asked
    for, its last row scores as the ``n``-th, and it may still grow."""
    if rows.num_rows < limit or limit >= cap or n < 1:
        return False
    import numpy as np

    scores = rows.column("_score").to_numpy()
    nth = -np.partition(-scores, n - 1)[n - 1]  # the n-th best score
    return bool(scores.min() == nth)


def _ordered(rows: pa.Table) -> pa.Table:
    return rows.sort_by([("_score", "descending"), ("id", "ascending")])
