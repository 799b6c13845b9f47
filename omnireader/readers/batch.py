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
import queue
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..models import MemoryItem, Mode, ReadFailure, ReadInfo
from ..parsers.base import ParseContext
from ..units import match_text
from ..walk import Unreadable, expand
from .progress import Progress
from .workers import Job, WorkerPool
from .writer import BatchWriter, WriteJob

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


def _parse_file(path: str, ctx: dict[str, Any], embedder: str | None) -> dict[str, Any]:
    """Worker side: read one file (and embed its items when the embedder is local)."""
    from .reader import Reader

    context = ParseContext.model_validate(ctx)
    out = Reader(options=context.options).read_one(Path(path), context)
    vectors = None
    if embedder and out.items:
        vectors = _local_embedder(embedder).embed([match_text(i) for i in out.items])
    return {
        "items": [i.model_dump(mode="json") for i in out.items],
        "failures": [f.model_dump() for f in out.failures],
        "vectors": vectors,
    }


# Imported once by the server the workers fork from, not by each worker.
_PRELOAD = ("omnireader.readers.batch", "omnireader.router", "pypdfium2", "pypdf", "chonkie",
            "numpy", "omnireader.llm.embed_hashing")

_EMBEDDERS: dict[str, Any] = {}


def _local_embedder(spec: str) -> Any:
    if spec not in _EMBEDDERS:
        from ..llm.embedding import make_embedder

        _EMBEDDERS[spec] = make_embedder(spec)
    return _EMBEDDERS[spec]


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
    ledger = store.ledger(scope=f"{ctx.scope}/{mode}", settings=settings_key(ctx, store.embedder.name))
    writer = BatchWriter(store, ledger, ctx, batch_size)
    try:
        files = _read_non_files(reader, inputs, ctx, report, writer)
        bar = Progress(len(files), enabled=progress)
        todo = _changed_files(files, ledger, force, report, bar)
        stored = set(store.content_hashes_by_path()) if todo else set()
        for path, items, vectors, failures in _results(reader, ctx, store, todo, workers,
                                                       timeout, memory_mb):
            _account(report, items, failures, is_file=True)
            complete = bool(items) and not failures
            # Partly read (e.g. one bad ZIP member): keep what was read, but leave the file
            # unrecorded so a later run tries it again.
            writer.put(WriteJob(items=items, vectors=vectors,
                                path=path if complete else None,
                                file_hash=todo[path] if complete else None,
                                replaces=path in stored))
            bar.update(done=1, items=len(items), failed=1 if failures and not items else 0)
        bar.close()
    finally:
        totals = writer.close()
    report.items_inserted, report.items_updated = totals.inserted, totals.updated
    report.items_deleted = totals.deleted
    if totals.inserted or totals.deleted:
        store.optimize()
    report.seconds = time.perf_counter() - started
    return report


def _read_non_files(reader: Any, inputs: Any, ctx: ParseContext, report: IngestReport,
                    writer: BatchWriter) -> list[str]:
    """Read the inputs that are not regular files here (messages, strings, bytes, and paths
    that are links to nowhere, pipes...: the router reports those); return the files."""
    files: list[str] = []
    for one in expand(inputs):
        report.inputs += 1
        path = _regular_file(one)
        if path is not None:
            files.append(path)
            continue
        out = reader.read_one(one, ctx)
        is_file = isinstance(one, (os.PathLike, Unreadable))
        _account(report, out.items, out.failures, is_file=is_file)
        writer.put(WriteJob(items=out.items))
    return files


def _regular_file(one: Any) -> str | None:
    """The absolute path of ``one`` when it is a regular file (never opens a FIFO)."""
    if not isinstance(one, os.PathLike):
        return None
    try:
        path = Path(one).resolve(strict=True)
        return str(path) if path.is_file() else None
    except (OSError, RuntimeError):  # missing, a link loop: the router says which
        return None


def _changed_files(files: list[str], ledger: Any, force: bool, report: IngestReport,
                   bar: Progress) -> dict[str, str]:
    """path -> content hash of the files to read: new or changed since they were recorded."""
    known = ledger.hashes(files)
    todo: dict[str, str] = {}
    for path in files:
        try:
            digest = file_hash(path)
        except OSError as e:
            _account(report, [], [ReadFailure(input=path, error="unreadable",
                                              message=f"{path}: {e.strerror or e}")], True)
            bar.update(done=1, failed=1)
            continue
        if not force and known.get(path) == digest:
            report.files_skipped += 1
            bar.update(done=1, skipped=1)
        else:
            todo[path] = digest
    return todo


def _results(reader: Any, ctx: ParseContext, store: Any, todo: dict[str, str],
             workers: int | None, timeout: float | None, memory_mb: int | None) -> Iterator[Any]:
    """(path, items, vectors, failures) per file, as each is read."""
    if not todo:
        return
    if ctx.mode == "fine":
        yield from _fine_results(reader, ctx, list(todo))
        return
    n = workers or os.cpu_count() or 1
    # A local embedder runs in the workers when there are several (it parallelises);
    # with one worker the writer thread has a core of its own and embeds there instead.
    local = getattr(store.embedder, "local", False)
    embedder = store.embedder.name if local and n > 1 else None
    args = {"ctx": ctx.model_dump(exclude={"refiner"}), "embedder": embedder}
    jobs = [Job(key=p, args={"path": p, **args}) for p in todo]
    pool = WorkerPool(_parse_file, n, timeout=timeout,
                      memory_mb=memory_mb, preload=_PRELOAD)
    for r in pool.run(jobs):
        if not r.ok:
            failure = ReadFailure(input=r.key, error=r.error or "crashed", message=r.message or r.key)
            yield r.key, [], None, [failure]
            continue
        items = [MemoryItem.model_validate(i) for i in r.value["items"]]
        failures = [ReadFailure.model_validate(f) for f in r.value["failures"]]
        yield r.key, items, r.value["vectors"], failures


def _fine_results(reader: Any, ctx: ParseContext, paths: list[str]) -> Iterator[Any]:
    """Fine mode: files read concurrently on one event loop (the LLM calls overlap), handed
    back in completion order. Parsing is gated by the refiner, so LLM calls never wait."""
    import asyncio

    done: queue.Queue[Any] = queue.Queue()

    async def one(path: str) -> None:
        out = await reader.aread_one(Path(path), ctx)
        done.put((path, out.items, None, out.failures))

    async def main() -> None:
        await asyncio.gather(*(one(p) for p in paths))

    def run() -> None:
        try:
            reader.llm.run_sync(main())
        except BaseException as e:  # handed to the consumer below
            done.put(e)
        done.put(None)

    thread = threading.Thread(target=run, name="omnireader-fine", daemon=True)
    thread.start()
    while (got := done.get()) is not None:
        if isinstance(got, BaseException):
            raise got
        yield got
    thread.join()


def _account(
    report: IngestReport,
    items: list[MemoryItem],
    failures: list[ReadFailure],
    is_file: bool = False,
) -> None:
    report.failures.extend(failures)
    report.failed_by_error = dict(
        Counter(report.failed_by_error) + Counter(f.error for f in failures)
    )
    report.refine_failed += sum(1 for i in items if i.metadata.refine_status == "failed")
    if is_file:
        if items:
            report.files_read += 1
        elif failures:
            report.files_failed += 1
