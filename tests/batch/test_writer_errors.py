"""The ingest writer hands its error to the caller: ``close`` raises it, never waits forever,
whether the write that failed was an early one or the last one."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from omnireader import Reader, Store
from omnireader.batch.writer import BatchWriter, WriteJob
from omnireader.models import MemoryItem, MemoryMetadata, Source


def _unwritable() -> MemoryItem:
    # Built past the reader, which repairs such text: Arrow cannot encode a lone surrogate.
    return MemoryItem(
        id="bad",
        memory="half an emoji \ud83d",
        metadata=MemoryMetadata(sources=[Source(kind="file")]),
    )


def _close_in_time(writer: BatchWriter) -> BaseException | None:
    got: list[BaseException | None] = []

    def close() -> None:
        try:
            writer.close()
            got.append(None)
        except BaseException as e:  # noqa: BLE001 - the error is what the test looks at
            got.append(e)

    t = threading.Thread(target=close, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "close() hung"
    return got[0]


@pytest.mark.parametrize("batch_size", [1, 1000], ids=["early-flush", "last-flush"])
def test_a_failed_write_is_raised_by_close(tmp_path: Path, batch_size: int) -> None:
    store = Store.open(tmp_path / "db.lance")
    writer = BatchWriter(
        store, store.ledger("s/fast", "k"), Reader().context(None, "fast"), batch_size=batch_size
    )
    writer.put(WriteJob(items=[_unwritable()]))
    error = _close_in_time(writer)
    assert error is not None and "surrogate" in str(error)
