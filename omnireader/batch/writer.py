"""The ingest writer: one thread that embeds (when needed) and upserts in large batches.

Parsing goes on in worker processes while this thread writes, so neither waits for the
other. A file is recorded in the ledger only after its items are committed; its stale items
(from an older version of the file) are deleted after the new ones are in.

A big file new to the store may come in pieces (:class:`Rows` with ``part``), written as
they come; its last job carries its path and hash as usual. If its reading fails after
some pieces were written, an ``undo`` job takes its rows out again, so the file is either
fully written or reported failed (like any failed file: read again by the next run when
the failure is transient).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from omnireader.batch.report import ItemSummary
from omnireader.models import MemoryItem, ReadFailure
from omnireader.parsers.base import ParseContext
from omnireader.store.maintenance import Checkpoints

__all__ = ["WriteJob", "Rows", "BatchWriter", "WriteTotals"]


class Rows(BaseModel):
    """One file's rows, built in its parser process (:func:`~omnireader.store.schema.items_to_rows`),
    and what the report counts of its items: the writer never sees the items themselves."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    table: Any  # a pyarrow Table: every column but the vector
    summary: ItemSummary
    part: bool = False  # one piece of a file still being read: its last job follows

    @property
    def ids(self) -> list[str]:
        return self.table.column("id").to_pylist()  # type: ignore[no-any-return]


class WriteJob(BaseModel):
    """Items (or their rows) to write; ``path`` / ``file_hash`` when they are a whole file's."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    items: list[MemoryItem] = Field(default_factory=list)
    rows: Rows | None = None  # instead of items: built by a parser process
    vectors: Any = None  # numpy rows for ``items`` / ``rows``, when a worker embedded them
    path: str | None = None
    file_hash: str | None = None
    failures: list[ReadFailure] = Field(default_factory=list)  # recorded with the file
    gave: int = 0  # how many items the whole file gave (recorded with it)
    replaces: bool = False  # the store held items of this path before: delete stale ones
    # A file sent in pieces failed after some were written: take its rows out. Only files
    # the store held nothing of are sent in pieces, so every row at this path is theirs.
    undo: str | None = None


class WriteTotals(BaseModel):
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    archived: int = 0  # keep_history: stale items archived instead of deleted
    errors: list[str] = Field(default_factory=list)


class BatchWriter:
    """Write :class:`WriteJob` s from a queue on a background thread.

    ``put`` blocks when ``max_pending`` jobs wait, so parsing cannot run away from writing.
    ``close`` flushes, joins, and re-raises the first error the thread met.
    """

    def __init__(
        self,
        store: Any,
        ledger: Any,
        ctx: ParseContext,
        batch_size: int,
        max_pending: int = 64,
        *,
        keep_history: bool = False,
        collect_fine: bool = False,
        link_near: bool = False,
    ) -> None:
        self.store = store
        self.near = None
        if link_near:
            from omnireader.batch.near_links import NearLinker

            self.near = NearLinker(store, ctx)
        # The ids of the fine memories written, for consolidation (only when asked: free).
        self.collect_fine = collect_fine
        self.fine_ids: list[str] = []
        # A changed file's stale items: archived (kept in their history) or deleted.
        self.keep_history = keep_history
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
        ended = False  # the end marker is taken: nothing more will come
        try:
            while (job := self._queue.get()) is not None:
                self._buffer.append(job)
                self._buffered += len(job.items) + (job.rows.table.num_rows if job.rows else 0)
                if self._buffered >= self.batch_size or job.undo:
                    self._flush()
            ended = True
            self._flush()
        except BaseException as e:  # handed to the caller by put() / close()
            self._error = e
            # Unblock a producer waiting on put(), up to the end marker close() sends; after
            # the last flush it is already taken, and waiting for it again would hang close().
            while not ended and self._queue.get() is not None:
                pass

    def _embed(self, rows: Any) -> Any:
        from omnireader.store.embed_text import row_texts

        return self.store.embedder.embed(row_texts(rows, self.store.embedder))

    def _flush(self) -> None:
        import numpy as np
        import pyarrow as pa

        from omnireader.store.schema import items_to_rows

        jobs, self._buffer, self._buffered = self._buffer, [], 0
        # Rows built by the workers are only put side by side (no copy); items from this
        # process (messages, strings, fine mode) become rows here.
        tables, vectors = [], []
        for j in jobs:
            if j.rows is not None and j.rows.table.num_rows:
                tables.append(j.rows.table)
            elif j.items:
                tables.append(items_to_rows(j.items, self.store.table.schema))
                if self.collect_fine:
                    self.fine_ids += [i.id for i in j.items if i.metadata.mode == "fine"]
            else:
                continue
            vectors.append(j.vectors)
        if tables:
            if any(v is None for v in vectors) and any(v is not None for v in vectors):
                # Some came embedded (a worker's share of a big file's pieces): embed the
                # others here, rather than all of them again.
                vectors = [self._embed(t) if v is None else v for t, v in zip(tables, vectors)]
            have_vectors = all(v is not None for v in vectors)
            table = pa.concat_tables(tables)
            given = np.concatenate(vectors) if have_vectors else None
            if self.near is not None:
                table, given = self.near.link(table, given)
            # One commit per flush; the indexes catch up at checkpoints and at the end.
            res = self.store.add_rows(table, given, refresh=False)
            self.totals.inserted += res.inserted
            self.totals.updated += res.updated
            if self.checkpoints.wrote(res.inserted + res.updated):
                self.store.optimize()
                self.checkpoints.reached()
        for j in jobs:
            if j.path and j.replaces:
                keep = j.rows.ids if j.rows is not None else [i.id for i in j.items]
                if self.near is not None:  # a linked row lives on in the item it joined
                    keep += [self.near.redirect[i] for i in keep if i in self.near.redirect]
                gone = self.store.delete_stale(
                    j.path,
                    keep_ids=keep,
                    user_id=self.ctx.user_id,
                    session_id=self.ctx.session_id,
                    mode=self.ctx.mode,
                    keep_history=self.keep_history,
                )
                if self.keep_history:
                    self.totals.archived += gone
                else:
                    self.totals.deleted += gone
        for j in jobs:
            if j.undo:
                # Its rows were inserted by its pieces (or added this location to an item
                # another file holds): the counts go back as the rows do.
                undone = self.store.detach_paths([j.undo])
                self.totals.inserted -= undone.deleted
                self.totals.updated -= undone.updated
        done = [(j.path, j.file_hash, j.failures, j.gave) for j in jobs if j.path and j.file_hash]
        if done:
            self.ledger.record(done)
