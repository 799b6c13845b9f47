"""Batch ingestion: read many inputs into a store, in parallel, resumably.

Files are parsed in worker processes (CPU-bound, isolated per file) and written from this
process in large batches. A file is recorded in the store's ledger only after its items are
written, so a run that is killed half way re-reads just the files it had not finished, and
deterministic ids make the re-read an update, never a duplicate. Unchanged files (same
content hash, same settings) are skipped; changed ones replace their old items.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..models import MemoryItem, Mode, ReadFailure, ReadInfo
from ..parsers.base import ParseContext
from ..router import expand
from .progress import Progress
from .workers import Job, WorkerPool

__all__ = ["IngestReport", "ingest", "file_hash", "settings_key"]


class IngestReport(BaseModel):
    """What an ingest did; ``omnireader ingest --report FILE`` writes this as JSON."""

    store: str
    mode: Mode
    inputs: int = 0
    files_read: int = 0
    files_skipped: int = 0
    files_failed: int = 0
    items_inserted: int = 0
    items_updated: int = 0
    items_deleted: int = 0
    failures: list[ReadFailure] = Field(default_factory=list)
    failed_by_error: dict[str, int] = Field(default_factory=dict)
    refine_failed: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        errs = ", ".join(f"{k}: {v}" for k, v in sorted(self.failed_by_error.items()))
        return (
            f"{self.inputs} inputs: {self.files_read} read, {self.files_skipped} skipped "
            f"(unchanged), {self.files_failed} failed{f' ({errs})' if errs else ''}; "
            f"{self.items_inserted} items new, {self.items_updated} updated, "
            f"{self.items_deleted} stale removed"
            + (f"; {self.refine_failed} left fast (LLM failed)" if self.refine_failed else "")
            + f" in {self.seconds:.1f}s → {self.store}"
        )


def file_hash(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def settings_key(ctx: ParseContext, embedder: str) -> str:
    """Everything that changes the items a file gives: re-read when any of it changes."""
    opts = ctx.options.model_dump(exclude={"password"})
    raw = f"{ctx.mode}|{embedder}|{sorted(opts.items())}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _parse_file(path: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """Worker side: read one file; items and failures come back as plain data."""
    from .reader import Reader

    context = ParseContext.model_validate(ctx)
    out = Reader(options=context.options).read_one(Path(path), context)
    return {
        "items": [i.model_dump(mode="json") for i in out.items],
        "failures": [f.model_dump() for f in out.failures],
    }


class _Writer:
    """Buffers items and writes them in large batches, then records their files."""

    def __init__(
        self, store: Any, ledger: Any, ctx: ParseContext, report: IngestReport, batch_size: int
    ) -> None:
        self.store = store
        self.ledger = ledger
        self.ctx = ctx
        self.report = report
        self.batch_size = batch_size
        self.items: list[MemoryItem] = []
        self.files: list[tuple[str, str, list[str]]] = []  # path, hash, ids

    def add(self, items: list[MemoryItem], file: tuple[str, str] | None = None) -> None:
        self.items.extend(items)
        if file:
            self.files.append((file[0], file[1], [i.id for i in items]))
        if len(self.items) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if self.items:
            res = self.store.add(self.items)
            self.report.items_inserted += res.inserted
            self.report.items_updated += res.updated
            self.items = []
        for path, _, ids in self.files:
            self.report.items_deleted += self.store.delete_stale(
                path,
                keep_ids=ids,
                user_id=self.ctx.user_id,
                session_id=self.ctx.session_id,
                mode=self.ctx.mode,
            )
        if self.files:
            self.ledger.record([(p, h) for p, h, _ in self.files])
        self.files = []


def ingest(
    reader: Any,
    inputs: Any,
    store: Any,
    info: dict[str, Any] | ReadInfo | None = None,
    mode: Mode = "fast",
    *,
    workers: int | None = None,
    timeout: float | None = 300.0,
    memory_mb: int | None = 2048,
    force: bool = False,
    batch_size: int = 2048,
    progress: bool = False,
) -> IngestReport:
    """Read ``inputs`` into ``store``; see the module docstring for the guarantees."""
    started = time.perf_counter()
    ctx = reader.context(info, mode)
    report = IngestReport(store=str(store.path), mode=mode)
    key = settings_key(ctx, store.embedder.name)
    ledger = store.ledger(scope=f"{ctx.scope}/{mode}", settings=key)
    writer = _Writer(store, ledger, ctx, report, batch_size)

    files: list[str] = []
    for one in expand(inputs):
        report.inputs += 1
        if isinstance(one, os.PathLike):
            files.append(str(Path(one).resolve()))
            continue
        out = reader.read_one(one, ctx)
        _account(report, out.items, out.failures)
        writer.add(out.items)

    bar = Progress(len(files), enabled=progress)
    todo: list[tuple[str, str]] = []
    known = ledger.hashes(files)
    for path in files:
        try:
            h = file_hash(path)
        except OSError as e:
            _fail(report, ReadFailure(input=path, error="unreadable",
                                      message=f"{path}: {e.strerror or e}"))
            bar.update(done=1, failed=1)
            continue
        if not force and known.get(path) == h:
            report.files_skipped += 1
            bar.update(done=1, skipped=1)
        else:
            todo.append((path, h))

    hashes = dict(todo)
    jobs = [Job(key=p, args={"path": p, "ctx": ctx.model_dump(exclude={"llm"})}) for p, _ in todo]
    if mode == "fine" or not jobs:
        results = (_in_process(reader, ctx, p) for p, _ in todo)
    else:
        n = workers or os.cpu_count() or 1
        pool = WorkerPool(_parse_file, n, timeout=timeout, memory_mb=memory_mb)
        results = _results(pool.run(jobs))
    for path, items, failures in results:
        _account(report, items, failures, is_file=True)
        if items and not failures:
            writer.add(items, file=(path, hashes[path]))
        else:
            # Partly read (e.g. one bad ZIP member): keep what was read, but do not mark
            # the file done, so a later run tries it again.
            writer.add(items)
        bar.update(done=1, items=len(items), failed=1 if failures and not items else 0)
    writer.flush()
    bar.close()
    if report.items_inserted or report.items_deleted:
        store.optimize()
    report.seconds = time.perf_counter() - started
    return report


def _in_process(reader: Any, ctx: ParseContext, path: str) -> tuple[str, list, list]:
    out = reader.read_one(Path(path), ctx)
    return path, out.items, out.failures


def _account(
    report: IngestReport,
    items: list[MemoryItem],
    failures: list[ReadFailure],
    is_file: bool = False,
) -> None:
    for f in failures:
        report.failures.append(f)
    report.failed_by_error = dict(
        Counter(report.failed_by_error) + Counter(f.error for f in failures)
    )
    report.refine_failed += sum(1 for i in items if i.metadata.refine_status == "failed")
    if is_file:
        if items:
            report.files_read += 1
        elif failures:
            report.files_failed += 1


def _fail(report: IngestReport, failure: ReadFailure) -> None:
    _account(report, [], [failure], is_file=True)


def _results(pool_results: Any) -> Any:
    """WorkerPool results as (path, items, failures), like :func:`_in_process`."""
    for r in pool_results:
        if not r.ok:
            yield r.key, [], [ReadFailure(input=r.key, error=r.error or "crashed",
                                          message=r.message or r.key)]
            continue
        items = [MemoryItem.model_validate(i) for i in r.value["items"]]
        failures = [ReadFailure.model_validate(f) for f in r.value["failures"]]
        yield r.key, items, failures
