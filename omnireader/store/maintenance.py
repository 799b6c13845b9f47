"""Keeping the items table's indexes current, and retrying writes that lost a commit race.

Indexes (all created with the table, so no view ever lacks one):

- full-text (BM25) on ``memory``, ``keywords_text`` and ``context_text``, with the tokenizer
  settings of :mod:`.lexicon` (ICU word segmentation, so Chinese and Japanese are split into
  words; English stemming and stop words);
- scalar indexes for the symbolic view's filters (BTREE, BITMAP, LABEL_LIST);
- the vector index, once the table is big enough for exact search to be slow
  (:data:`VECTOR_INDEX_MIN_ROWS`): IVF_SQ with a single partition, i.e. a scan of 8-bit
  codes re-ranked with the exact vectors. Measured at 100k hashing vectors it keeps
  recall@10 at 1.0 where multi-partition IVF/HNSW lose most neighbours (feature-hashed
  vectors have no cluster structure for partitions to exploit).

Lance searches rows that an index does not cover yet exhaustively and merges them with the
index's results, so a new row is found by every view the moment its write commits. That
exhaustive scan is slow for full-text search (measured: ~25 µs per uncovered row per query,
so 2,000 new rows add ~50 ms), while folding rows into the indexes (``optimize``: compaction
plus index update, mostly the full-text index) costs ~0.5 s at 10k rows and ~1 s at 100k,
however few rows are new. So after every write batch :func:`refresh_indexes` folds the
uncovered rows in once they reach :data:`REFRESH_MIN_ROWS` or :data:`REFRESH_SHARE` of the
covered rows, whichever is larger: the uncovered tail stays small, and a long ingest
optimises O(log n) times instead of once per batch. ``Store.optimize()`` after a big ingest
covers the last rows.

A batch ingest does not refresh after each write: it folds its rows in at checkpoints
(:class:`Checkpoints`) and optimises once at its end. Staleness bound during an ingest: every
row is searchable in every view as soon as its commit lands (the uncovered rows are scanned);
the rows the full-text index does not cover yet are at most the last
:data:`CHECKPOINT_ROWS` rows it wrote plus one write batch, and none older than
:data:`CHECKPOINT_SECONDS` once there are :data:`REFRESH_MIN_ROWS` of them. So a full-text
query during an ingest pays at most ~25 µs × 34k ≈ 0.9 s more, and a 100k-row ingest
optimises ~3 times instead of ~20.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from omnireader.errors import StoreError
from omnireader.store.headings import HEADING_COLUMN
from omnireader.store.lexicon import fts_config
from omnireader.store.schema import FTS_COLUMNS

__all__ = [
    "VECTOR_INDEX_MIN_ROWS",
    "REFINE_FACTOR",
    "REFRESH_MIN_ROWS",
    "REFRESH_SHARE",
    "create_indexes",
    "ensure_vector_index",
    "has_vector_index",
    "refresh_indexes",
    "optimize_table",
    "retry_conflicts",
    "Checkpoints",
    "CHECKPOINT_ROWS",
    "CHECKPOINT_SECONDS",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

VECTOR_INDEX_MIN_ROWS = 10_000
REFINE_FACTOR = 4  # exact re-rank of 4x k candidates from the 8-bit scan
REFRESH_MIN_ROWS = 2_048
REFRESH_SHARE = 0.20
CHECKPOINT_ROWS = 32_768  # an optimize costs ~0.5-1 s: at most ~10% of writing 32k rows
CHECKPOINT_SECONDS = 60.0  # ... and at most ~2% of a slow ingest's minute

_SCALAR = {
    "id": "BTree",
    "content_hash": "BTree",
    "path": "BTree",
    "user_id": "BTree",
    "session_id": "BTree",
    "timestamp": "BTree",
    "memory_type": "Bitmap",
    "mode": "Bitmap",
    "source_kind": "Bitmap",
    "persons": "LabelList",
    "entities": "LabelList",
    "path_keys": "LabelList",
}


def _index_names(table: Any) -> dict[str, str]:
    """Indexed column -> index name."""
    return {cfg.columns[0]: cfg.name for cfg in table.list_indices()}


def create_indexes(table: Any) -> None:
    """Create every missing full-text and scalar index (cheap on an empty table)."""
    from lancedb import index as lance_index

    have = _index_names(table)
    names = set(table.schema.names)
    for column in (*FTS_COLUMNS, HEADING_COLUMN):
        if column not in have and column in names:  # a version-4 store has no heading column
            _create(table, column, fts_config())
    for column, kind in _SCALAR.items():
        if column not in have:
            _create(table, column, getattr(lance_index, kind)())


def _create(table: Any, column: str, config: Any) -> None:
    try:
        retry_conflicts(
            lambda: table.create_index(column, config=config, replace=False), f"index on {column}"
        )
    except Exception as exc:  # noqa: BLE001 - another process may have just made it
        if column not in _index_names(_fresh(table)):
            raise StoreError(f"could not create the index on {column}: {exc}") from exc


def has_vector_index(table: Any) -> bool:
    return "vector" in _index_names(table)


def ensure_vector_index(table: Any, min_rows: int = VECTOR_INDEX_MIN_ROWS) -> bool:
    """Build the vector index once the table has ``min_rows``; True if one exists after."""
    if has_vector_index(table):
        return True
    if table.count_rows() < min_rows:
        return False
    from lancedb.index import IvfSq

    _create(table, "vector", IvfSq(distance_type="cosine", num_partitions=1))
    return True


def refresh_indexes(table: Any) -> bool:
    """Fold new rows into the indexes when enough are uncovered; True if it optimised."""
    have = _index_names(table)
    name = have.get(FTS_COLUMNS[0])
    if name is None:
        create_indexes(table)
        return False
    stats = table.index_stats(name)
    if stats is None:
        return False
    tail, covered = stats.num_unindexed_rows, stats.num_indexed_rows
    if tail < max(REFRESH_MIN_ROWS, REFRESH_SHARE * covered):
        return False
    optimize_table(table)
    return True


class Checkpoints:
    """When a batch ingest folds the rows it wrote into the indexes (see the module text).

    Counts the rows this ingest wrote instead of asking the table after each write (the
    index statistics cost a few ms a call); rows other writers add are covered by the
    optimize at the end of the ingest, or theirs.
    """

    def __init__(
        self,
        rows: int = CHECKPOINT_ROWS,
        seconds: float = CHECKPOINT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rows, self.seconds, self._clock = rows, seconds, clock
        self.pending = 0
        self._since = clock()

    def wrote(self, n: int) -> bool:
        """Record ``n`` rows written; True when a checkpoint is due now."""
        self.pending += n
        late = self._clock() - self._since >= self.seconds
        return self.pending >= self.rows or (late and self.pending >= REFRESH_MIN_ROWS)

    def reached(self) -> None:
        """The indexes were brought up to date."""
        self.pending = 0
        self._since = self._clock()


def optimize_table(table: Any, cleanup_older_than: timedelta | None = None) -> None:
    """Compact files and bring every index up to date (adds the vector index when due)."""
    ensure_vector_index(table)
    retry_conflicts(lambda: table.optimize(cleanup_older_than=cleanup_older_than), "optimize")


def _fresh(table: Any) -> Any:
    table.checkout_latest()
    return table


_CONFLICT_WORDS = ("conflict", "retryable", "concurrent", "commit")


def _is_conflict(exc: BaseException) -> bool:
    text = f"{type(exc).__name__}: {exc}".lower()
    return any(word in text for word in _CONFLICT_WORDS)


def retry_conflicts(
    fn: Callable[[], T], what: str, *, attempts: int = 8, base_delay: float = 0.05
) -> T:
    """Run a write, retrying when another writer committed first.

    Lance already retries most commits internally; this covers the rest (e.g. an optimize
    racing an insert), with jittered backoff so two writers do not collide again.
    """
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - only conflicts are retried
            if not _is_conflict(exc) or attempt == attempts:
                raise
            log.debug("%s: commit conflict (attempt %d): %s", what, attempt, exc)
            time.sleep(base_delay * (2 ** (attempt - 1)) * (0.5 + random.random()))
    raise AssertionError("unreachable")  # pragma: no cover
