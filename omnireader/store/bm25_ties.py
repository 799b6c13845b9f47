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
query is asked again for :data:`GROWTH` times as many rows, until the rows it got end below
the ``n``-th score (or are all it matches). Then every row scoring as the ``n``-th is in
hand, and the rows are ordered by (score descending, id) and cut at ``n``: among equal
scores the smallest ids, whatever the partitions. Without a tie at the cut (almost every
question on real text) this costs the one extra row.

A tie band can be huge on degenerate data (a line repeated thousands of times ties every
row on its words), so the query grows to at most :data:`MAX_ROWS` rows (or ``n`` times
:data:`GROWTH`, if more): each asked row is read with its columns (hybrid's with its
vector), so a band of every row would cost a scan of the store per search. Beyond that
the choice among the rows scoring as the ``n``-th is LanceDB's again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["GROWTH", "MAX_ROWS", "asked", "settle"]

#: each re-ask asks for this many times the rows of the last
GROWTH = 4
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
) -> list[pa.Table]:
    """Each query's best ``n`` rows by (score descending, id), the rows scoring as the
    ``n``-th taken in whole (``tables`` are the rows of ``queries``, asked through
    :func:`asked`; ``run`` runs queries together)."""
    tables = list(tables)
    limits = [n + 1] * len(tables)
    cap = max(MAX_ROWS, n * GROWTH)
    while True:
        open_ = [i for i, t in enumerate(tables) if _straddles(t, n, limits[i], cap)]
        if not open_:
            return [_ordered(t).slice(0, n) for t in tables]
        for i in open_:
            limits[i] = min(limits[i] * GROWTH, cap)
        again = run([queries[i].model_copy(update={"limit": limits[i]}) for i in open_])
        for i, t in zip(open_, again):
            tables[i] = t


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
