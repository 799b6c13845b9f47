"""Batch ingest refreshes the indexes at checkpoints and at its end, not after each write;
rows are searchable in every view the moment their write commits."""

from __future__ import annotations

import time
from pathlib import Path

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.batch.writer import BatchWriter, WriteJob
from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.store.maintenance import REFRESH_MIN_ROWS, Checkpoints


def _items(prefix: str, n: int, word: str) -> list[MemoryItem]:
    return [
        MemoryItem(
            id=f"{prefix}{k}",
            memory=f"entry {k} of {prefix} about {word}",
            metadata=MemoryMetadata(sources=[Source(kind="file")]),
        )
        for k in range(n)
    ]


def _wait_for(store: Store, rows: int, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while store.count() < rows:
        assert time.monotonic() < deadline, f"{store.count()} of {rows} rows landed"
        time.sleep(0.05)


def test_a_search_during_an_ingest_finds_rows_the_index_does_not_cover_yet(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "db.lance")
    ctx = Reader().context(None, "fast")
    writer = BatchWriter(store, store.ledger("s/fast", "k"), ctx, batch_size=10)
    try:
        for n in range(3):  # three flushes of ten rows, the writer still open
            writer.put(WriteJob(items=_items(f"b{n}-", 10, "kites")))
        _wait_for(store, 30)
        # Nothing was folded into the full-text index after those writes ...
        stats = store.table.index_stats("memory_idx")
        assert (stats.num_indexed_rows, stats.num_unindexed_rows) == (0, 30)
        # ... and every view finds them anyway (Lance scans the uncovered rows).
        for view in ("fts", "vector", "hybrid"):
            found = {r.item.id for r in store.search("kites", k=50, view=view)}
            assert len(found) == 30, view
    finally:
        writer.close()


def test_the_writer_folds_rows_in_when_a_checkpoint_is_due(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "db.lance")
    ctx = Reader().context(None, "fast")
    writer = BatchWriter(store, store.ledger("s/fast", "k"), ctx, batch_size=20)
    writer.checkpoints = Checkpoints(rows=40)
    for n in range(3):
        writer.put(WriteJob(items=_items(f"b{n}-", 20, "gliders")))
    writer.close()
    stats = store.table.index_stats("memory_idx")
    # The second flush reached 40 rows: a checkpoint; the third is left for the end.
    assert (stats.num_indexed_rows, stats.num_unindexed_rows) == (40, 20)


def test_a_checkpoint_is_due_by_rows_or_by_time_once_enough_rows_wait() -> None:
    now = [0.0]
    points = Checkpoints(rows=10_000, seconds=60.0, clock=lambda: now[0])
    assert not points.wrote(REFRESH_MIN_ROWS - 1)
    now[0] = 61.0
    assert not points.wrote(0)  # late, but too few rows to be worth an optimize
    assert points.wrote(1)
    points.reached()
    assert not points.wrote(REFRESH_MIN_ROWS)  # on time again
    assert points.wrote(10_000)


def test_an_ingest_ends_with_every_row_indexed_also_when_it_only_replaced_rows(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(4):
        (docs / f"n{i}.md").write_text(f"# Note {i}\n\nKite number {i} flies high.")
    store = Store.open(tmp_path / "db.lance")
    first = ingest(docs, store, options=IngestOptions(workers=1))
    assert first.items_inserted == 4
    assert store.table.index_stats("memory_idx").num_unindexed_rows == 0
    again = ingest(docs, store, options=IngestOptions(workers=1, force=True))
    assert (again.items_inserted, again.items_updated) == (0, 4)
    assert store.table.index_stats("memory_idx").num_unindexed_rows == 0
