"""The ingest writer: one thread that embeds (when needed) and upserts in large batches.

Parsing goes on in worker processes while this thread writes, so neither waits for the
other. A file is recorded in the ledger only after its items are committed; its stale items
(from an older version of the file) are deleted after the new ones are in.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..models import MemoryItem, ReadFailure
from ..parsers.base import ParseContext
from ..store.maintenance import Checkpoints

__all__ = ["WriteJob", "BatchWriter", "WriteTotals"]


class WriteJob(BaseModel):
    """Items to write; ``path`` / ``file_hash`` when they are a whole file's items."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    items: list[MemoryItem]
    vectors: Any = None  # numpy rows for ``items``, when a worker embedded them
    path: str | None = None
    file_hash: str | None = None
    failures: list[ReadFailure] = Field(default_factory=list)  # recorded with the file
    replaces: bool = False  # the store held items of this path before: delete stale ones


class WriteTotals(BaseModel):
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    errors: list[str] = Field(default_factory=list)


class BatchWriter:
    """Write :class:`WriteJob` s from a queue on a background thread.

    ``put`` blocks when ``max_pending`` jobs wait, so parsing cannot run away from writing.
    ``close`` flushes, joins, and re-raises the first error the thread met.
    """

    def __init__(self, store: Any, ledger: Any, ctx: ParseContext, batch_size: int,
                 max_pending: int = 64) -> None:
        self.store = store
        self.ledger = ledger
        self.ctx = ctx
        self.batch_size = batch_size
        self.totals = WriteTotals()
        # Indexes are refreshed at checkpoints, not after each flush: the caller optimizes
        # at the end of the ingest (the staleness bound is in store.maintenance).
        self.checkpoints = Checkpoints()
        self._queue: queue.Queue[WriteJob | None] = queue.Queue(maxsize=max_pending)
        self._buffer: list[WriteJob] = []
        self._buffered = 0
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="omnireader-writer", daemon=True)
        self._thread.start()

    def put(self, job: WriteJob) -> None:
        if self._error is not None:
            raise self._error
        self._queue.put(job)

    def close(self) -> WriteTotals:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self.totals

    def _run(self) -> None:
        try:
            while (job := self._queue.get()) is not None:
                self._buffer.append(job)
                self._buffered += len(job.items)
                if self._buffered >= self.batch_size:
                    self._flush()
            self._flush()
        except BaseException as e:  # handed to the caller by put() / close()
            self._error = e
            while self._queue.get() is not None:  # unblock a producer waiting on put()
                pass

    def _flush(self) -> None:
        import numpy as np

        jobs, self._buffer, self._buffered = self._buffer, [], 0
        items = [i for j in jobs for i in j.items]
        if items:
            have_vectors = all(j.vectors is not None for j in jobs if j.items)
            vectors = (
                np.concatenate([j.vectors for j in jobs if j.items]) if have_vectors else None
            )
            # One commit per flush; the indexes catch up at checkpoints and at the end.
            res = self.store.add(items, batch_size=max(len(items), 1), vectors=vectors,
                                 refresh=False)
            self.totals.inserted += res.inserted
            self.totals.updated += res.updated
            if self.checkpoints.wrote(res.inserted + res.updated):
                self.store.optimize()
                self.checkpoints.reached()
        for j in jobs:
            if j.path and j.replaces:
                self.totals.deleted += self.store.delete_stale(
                    j.path,
                    keep_ids=[i.id for i in j.items],
                    user_id=self.ctx.user_id,
                    session_id=self.ctx.session_id,
                    mode=self.ctx.mode,
                )
        done = [(j.path, j.file_hash, j.failures) for j in jobs if j.path and j.file_hash]
        if done:
            self.ledger.record(done)
