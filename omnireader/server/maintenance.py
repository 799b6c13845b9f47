"""Index upkeep for a store that many small jobs write to.

The batch ingester optimises the store at the end of every run (compaction and index
refresh). A server runs one small run per upload, so it lets its jobs skip that step and
decides itself when to fold the new rows into the indexes. Rows are searchable as soon as
their commit lands (see ``Store.add``): the rows an index does not cover yet are scanned by
every query, ~25 µs a row for full-text search (:mod:`omnireader.store.maintenance`).

An optimize is not cheap: at 100k items it rewrites the full-text index, about a second of
work on every core, in LanceDB's own threads (the ones searches run in: a thread's nice
value does not reach them), and the first searches after it read the new index files. Run
every two seconds while uploads came in, as it was, it put searches under upload load at
~1 s p95. So the server optimises only when it pays:

- when writes have paused for ``quiet`` seconds, or
- when the uncovered rows reach ``tail_rows`` (checked at most every ``every`` seconds), which
  bounds what they add to a full-text query to ~25 µs x ``tail_rows`` (~25 ms at 1,024), or
- when the small fragments (one per commit until a compaction) reach ``small_fragments``:
  every query scans each one on its own, ~1 ms of CPU a fragment per search at 100k items
  whatever its size (200 one-row commits took a search from ~30 to ~240 ms of CPU,
  docs/benchmarks.md, *Service latency*), far more than the row count says. The
  server groups a burst of uploads into one commit; this bounds what the commits add.
"""

from __future__ import annotations

import threading
import time
from typing import Any

__all__ = ["DeferredOptimize", "QUIET_SECONDS", "TAIL_ROWS", "SMALL_FRAGMENTS"]

QUIET_SECONDS = 10.0
TAIL_ROWS = 1_024
SMALL_FRAGMENTS = 8


class DeferredOptimize:
    """The store as the jobs see it: everything passes through except ``optimize``."""

    def __init__(
        self,
        store: Any,
        every: float = 2.0,
        nice: int = 0,
        quiet: float = QUIET_SECONDS,
        tail_rows: int = TAIL_ROWS,
        small_fragments: int = SMALL_FRAGMENTS,
    ) -> None:
        self._store = store
        self._nice = nice
        self._every = every
        self._quiet = quiet
        self._tail_rows = tail_rows
        self._small_fragments = small_fragments
        self._last_write = time.monotonic()
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="omnireader-optimize", daemon=True)
        self._thread.start()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def optimize(self, *args: Any, **kwargs: Any) -> None:
        self._last_write = time.monotonic()
        self._dirty.set()

    def _due(self) -> bool:
        if time.monotonic() - self._last_write >= self._quiet:
            return True
        return self._uncovered() >= self._tail_rows or self._small() >= self._small_fragments

    def _small(self) -> int:
        """Small fragments in the table (0 when that cannot be told)."""
        try:
            return int(self._store.table.stats()["fragment_stats"]["num_small_fragments"])
        except Exception:  # noqa: BLE001 - a racing optimize; the next check sees it
            return 0

    def _uncovered(self) -> int:
        """Rows the full-text index does not cover yet (0 when that cannot be told)."""
        from omnireader.store.schema import FTS_COLUMNS

        table = self._store.table
        try:
            name = next(
                (c.name for c in table.list_indices() if c.columns[0] == FTS_COLUMNS[0]), None
            )
            stats = table.index_stats(name) if name else None
        except Exception:  # noqa: BLE001 - a racing optimize; the next check sees it
            return 0
        return int(stats.num_unindexed_rows) if stats is not None else 0

    def _loop(self) -> None:
        from omnireader.niceness import lower_this_thread

        lower_this_thread(self._nice)  # index upkeep is background work, like ingest
        while not self._stop.is_set():
            if not self._dirty.wait(timeout=1.0) or self._stop.wait(self._every):
                continue
            if not self._due():
                continue
            self._dirty.clear()
            try:
                self._store.optimize()
            except Exception:  # a failed compaction is retried after the next write
                self._dirty.set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        if self._dirty.is_set():
            self._store.optimize()
