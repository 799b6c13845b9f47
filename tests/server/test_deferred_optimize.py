"""The server's index upkeep: new rows are folded into the indexes once writes pause or
once enough of them are uncovered, not after every small job."""

from __future__ import annotations

import time
from pathlib import Path

from omnireader.models import MemoryItem, MemoryMetadata
from omnireader.server.maintenance import DeferredOptimize
from omnireader.store import Store


def _add(store: Store, start: int, n: int) -> None:
    store.add(
        [
            MemoryItem(
                id=f"n{i}", memory=f"note number {i} about herons", metadata=MemoryMetadata()
            )
            for i in range(start, start + n)
        ],
        refresh=False,
    )


def _wait_until(check, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_few_new_rows_wait_for_writes_to_pause(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    deferred = DeferredOptimize(store, every=0.05, quiet=1.5, tail_rows=50)
    try:
        _add(store, 0, 3)
        deferred.optimize()
        time.sleep(0.6)
        assert deferred._uncovered() == 3  # writes are recent and the tail is small
        assert _wait_until(lambda: deferred._uncovered() == 0, 10)  # then they pause
        assert store.search("herons", k=5, view="fts")
    finally:
        deferred.close()


def test_a_long_uncovered_tail_is_folded_in_while_writes_go_on(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    deferred = DeferredOptimize(store, every=0.05, quiet=600, tail_rows=10)
    try:
        _add(store, 0, 12)
        deferred.optimize()
        assert _wait_until(lambda: deferred._uncovered() == 0, 10)
        _add(store, 12, 2)
        deferred.optimize()
        time.sleep(0.5)
        assert deferred._uncovered() == 2
    finally:
        deferred.close()
    assert deferred._uncovered() == 0  # closing folds in what is left


def test_many_small_commits_are_compacted_while_writes_go_on(tmp_path: Path) -> None:
    """Few rows, but one fragment a commit: each search scans every fragment on its own, so
    their count (not only the uncovered rows) brings the compaction forward."""
    store = Store.open(tmp_path / "s.lance")
    _add(store, 0, 1)
    store.optimize()  # the indexes exist, over one fragment
    deferred = DeferredOptimize(store, every=0.05, quiet=600, tail_rows=10_000, small_fragments=6)
    try:
        for i in range(1, 5):
            _add(store, i, 1)
            deferred.optimize()
        time.sleep(0.5)
        assert deferred._small() == 5 and deferred._uncovered() == 4  # under both bounds
        _add(store, 5, 1)  # the sixth small fragment: at the bound
        deferred.optimize()
        # compaction commits first, the index update after it (the new rows end in one
        # fragment; the one the indexes covered may stay apart)
        assert _wait_until(lambda: deferred._small() <= 2 and deferred._uncovered() == 0, 10)
        assert len(store.search("herons", k=10, view="fts")) == 6
    finally:
        deferred.close()
