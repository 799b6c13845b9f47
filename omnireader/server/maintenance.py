"""Index upkeep for a store that many small jobs write to.

The batch ingester optimises the store at the end of every run (compaction and index
refresh, a few hundred milliseconds). A server runs one small run per upload, so that cost
would be paid per file, under the write lock, while searches wait on the same cores. Rows
are searchable as soon as their commit lands (see ``Store.add``), so the server lets its
jobs skip that step and optimises once writes have paused, at most every ``every`` seconds.
"""

from __future__ import annotations

import threading
import time
from typing import Any

__all__ = ["DeferredOptimize"]


class DeferredOptimize:
    """The store as the jobs see it: everything passes through except ``optimize``."""

    def __init__(self, store: Any, every: float = 2.0, nice: int = 0) -> None:
        self._store = store
        self._nice = nice
        self._every = every
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="omnireader-optimize",
                                        daemon=True)
        self._thread.start()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def optimize(self, *args: Any, **kwargs: Any) -> None:
        self._dirty.set()

    def _loop(self) -> None:
        from ..niceness import lower_this_thread

        lower_this_thread(self._nice)  # index upkeep is background work, like ingest
        while not self._stop.is_set():
            if self._dirty.wait(timeout=1.0) and not self._stop.wait(self._every):
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
