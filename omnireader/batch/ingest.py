"""Batch ingestion: read many inputs into a store, in parallel, resumably.

Files are parsed in worker processes (CPU-bound, isolated per file) and written from this
process in large batches. A file is recorded in the store's ledger only after its items are
written, so a run that is killed half way re-reads just the files it had not finished, and
deterministic ids make the re-read an update, never a duplicate. Unchanged files (same
content hash, same settings) are skipped; changed ones replace their old items.

A file whose reading failed for good (corrupt, unsupported, encrypted, an empty part…) is
recorded too, with its failures, so a re-run reads nothing again; only transient failures
(timeout, crash, fetch) leave it unrecorded (see :mod:`.ingest_report`). With ``sync`` the
items of files that are gone from under the given folders are removed as well.
"""

from __future__ import annotations

import hashlib
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from omnireader.batch import file_task
from omnireader.batch.progress import Progress
from omnireader.batch.report import IngestReport, ItemSummary, is_transient
from omnireader.batch.sizing import default_workers, usable_cores
from omnireader.batch.sync import sync_removed
from omnireader.batch.workers import Job, WorkerPool
from omnireader.batch.writer import BatchWriter, Rows, WriteJob
from omnireader.errors import ConfigError, InvalidInputError
from omnireader.intake.walk import expand
from omnireader.models import MemoryItem, Mode, ReadFailure, ReadInfo
from omnireader.options import IngestOptions
from omnireader.parsers.base import ParseContext
from omnireader.reading.outcomes import log_internal
from omnireader.reading.reader import Reader, ReadInput
from omnireader.store.ledger import Ledger
from omnireader.store.protocol import StoreLike
from omnireader.store.row_writes import rows_from_bytes
from omnireader.store.schema import rows_schema

__all__ = ["IngestReport", "IngestOptions", "ingest", "aingest", "file_hash", "settings_key"]

#: What reading one file gives the writer: its path, its items (or their Arrow rows from a
#: worker, or one piece of them: ``Rows.part``), their vectors when a worker embedded them,
#: and its failures.
FileResult = tuple[str, "list[MemoryItem] | Rows", Any, list[ReadFailure]]
#: The engine's reader of the changed files: local worker processes, or Ray. The last
#: argument: the files the store holds nothing of, which may come in pieces.
Results = Callable[
    [Reader, ParseContext, StoreLike, dict[str, str], IngestOptions, frozenset[str]],
    Iterator[FileResult],
]

# The fine-mode hint names the command that finishes the job.
_REFINE_HINT = "omnireader refine --db {db} (with the same --llm) once the LLM is reachable"


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


#: Build the items' Arrow rows in the workers (with several). Off: measured 2026-12-02, it
#: saved the writer ~0.3 ms of CPU per page (800 pages, 2 workers, a loaded machine: 107 vs
#: 80 pages/s), but each fresh worker paid a fixed start-up (~0.45 s an ingest of 200
#: pages). That start-up was pyarrow importing pandas at the first ``pa.array`` (0.26 s of
#: CPU a worker, gone since 2026-12-06: ``lance_import.defer_pandas``). Measured again then,
#: 2 workers on an idle machine, turns taken: 4,000 pages 10.1-10.6 s either way, 200 pages
#: 0.74 s off, 0.81 s on (each worker imports pyarrow): no gain to show, so it stays off.
ROWS_IN_WORKERS = False


def ingest(
    inputs: ReadInput,
    store: StoreLike,
    *,
    reader: Reader | None = None,
    info: dict[str, Any] | ReadInfo | None = None,
    mode: Mode | str = Mode.FAST,
    options: IngestOptions | None = None,
    on_file: Callable[[str, int], None] | None = None,
) -> IngestReport:
    """Read ``inputs`` with ``reader`` (a fast-mode :class:`Reader` by default) into
    ``store``; see the module docstring for the guarantees.

        report = ingest([Path("papers/")], Store.open("docs.lance"),
                        options=IngestOptions(workers=2, sync=True))

    ``options.sync``: also remove the items of files under the given folders (or of the
    given files) that no longer exist; items another path still holds stay, with that
    path. ``options.engine="ray"``: parse on a Ray cluster (``options.ray_address``, or a
    local one); see :mod:`.ray_engine`. Everything else (ledger, writes, report) is the
    same. ``on_file(path, items)`` is told each file read and its item count (the server
    splits one ingest of several jobs' uploads back into the jobs with it).
    """
    reader = reader or Reader()
    opts = options or IngestOptions()
    mode = reader.mode_of(mode)
    started = time.perf_counter()
    ctx = reader.context(info, mode)
    results = _engine(opts.engine, mode, opts.ray_address, opts.verbose)
    if mode == Mode.FAST and opts.engine == "local":
        # The workers' imports run while this process finds the files, hashes them and
        # reads the ledger (a no-op when an earlier ingest started it).
        file_task.prestart_workers()
    report = IngestReport(store=str(store.path), mode=mode)
    ledger = store.ledger(
        scope=f"{ctx.scope}/{mode}", settings=settings_key(ctx, store.embedder.name)
    )
    if opts.consolidate and mode != Mode.FINE:
        raise ConfigError(
            "consolidate compares memories with an LLM: it needs fine mode (--mode fine "
            "with --llm); fast mode links exact duplicates by itself"
        )
    writer = BatchWriter(
        store,
        ledger,
        ctx,
        opts.batch_size,
        keep_history=opts.keep_history,
        collect_fine=opts.consolidate,
        link_near=opts.link_near_duplicates,
    )
    try:
        files = _read_non_files(reader, inputs, ctx, report, writer)
        bar = Progress(len(files), enabled=opts.progress)
        todo = _changed_files(files, ledger, opts.force, report, bar)
        stored = store.stored_paths(todo) if todo else set()
        # A big file new to the store is written in pieces as its worker sends them (a
        # failure after some is undone: every row at that path is the file's). Not with
        # near-duplicate links: a piece's links could not be taken back.
        fresh = frozenset() if opts.link_near_duplicates else frozenset(todo.keys() - stored)
        pieced: set[str] = set()
        for path, got, vectors, failures in results(reader, ctx, store, todo, opts, fresh):
            # A local worker sends its items' rows and their summary; Ray and fine mode, items.
            rows = got if isinstance(got, Rows) else None
            if rows is not None and rows.part:
                pieced.add(path)
                writer.put(WriteJob(rows=rows, vectors=vectors))
                continue
            summary = rows.summary if rows is not None else ItemSummary.of(got)
            report.account(summary, failures)
            if on_file is not None:
                on_file(path, summary.items)
            # Done unless a failure may pass: a permanent one (a corrupt member, an
            # unsupported file) is recorded with the file, so a re-run reads nothing again.
            done = not any(is_transient(f) for f in failures)
            if path in pieced and rows is None:  # its worker failed after sending pieces
                writer.put(WriteJob(undo=path))
            writer.put(
                WriteJob(
                    items=[] if rows is not None else got,
                    rows=rows,
                    vectors=vectors,
                    path=path if done else None,
                    file_hash=todo[path] if done else None,
                    failures=failures,
                    replaces=path in stored,
                )
            )
            bar.update(
                done=1,
                items=summary.items,
                failed=1 if failures and not summary.items else 0,
                ocr_pages=summary.pages_ocr,
            )
        bar.close()
    finally:
        totals = writer.close()
    report.items_inserted, report.items_updated = totals.inserted, totals.updated
    report.items_deleted, report.items_archived = totals.deleted, totals.archived
    report.items_linked = writer.near.linked if writer.near is not None else 0
    if opts.sync:
        sync_removed(store, ctx, inputs, reader, report)
    if opts.consolidate and writer.fine_ids and reader.llm is not None:
        from omnireader.batch.consolidate import consolidate

        got = consolidate(store, reader.llm, writer.fine_ids)  # type: ignore[arg-type]
        report.consolidated, report.consolidate_failed = got.decisions, got.failed
    # The end of an ingest is its last checkpoint: every row it wrote (new or replaced)
    # is folded into the indexes here (the writer does not refresh after each batch).
    if totals.inserted or totals.updated or report.items_deleted or report.items_archived:
        store.optimize()
    if mode == Mode.FINE and report.llm_left_items_to_retry:
        report.next_step = _REFINE_HINT.format(db=store.path)
    report.seconds = time.perf_counter() - started
    return report


async def aingest(
    inputs: ReadInput,
    store: StoreLike,
    *,
    reader: Reader | None = None,
    info: dict[str, Any] | ReadInfo | None = None,
    mode: Mode | str = Mode.FAST,
    options: IngestOptions | None = None,
) -> IngestReport:
    """:func:`ingest` for async callers (an agent's upload handler): the batch runs in a
    worker thread, so the event loop goes on."""
    import asyncio

    return await asyncio.to_thread(
        ingest, inputs, store, reader=reader, info=info, mode=mode, options=options
    )


def _engine(engine: str, mode: Mode, address: str | None, verbose: bool) -> Results:
    """The function that parses the changed files: local worker processes, or Ray."""
    if engine == "local":
        return _results
    if engine != "ray":
        raise InvalidInputError(f"engine must be 'local' or 'ray', not {engine!r}")
    from omnireader.batch.ray_engine import ray_runner

    return ray_runner(mode, address, verbose)


def _read_non_files(
    reader: Reader, inputs: ReadInput, ctx: ParseContext, report: IngestReport, writer: BatchWriter
) -> list[str]:
    """Read the inputs that are not regular files here (messages, strings, bytes, and paths
    that are links to nowhere, pipes...: the router reports those); return the files."""
    files: list[str] = []
    for one in expand(inputs, reader.options):
        report.inputs += 1
        path = _regular_file(one)
        if path is not None:
            files.append(path)
            continue
        out = reader.read_one(one, ctx)
        report.account([*out.items, *out.refined_fast], out.failures)
        writer.put(WriteJob(items=[*out.items, *out.refined_fast]))
    return files


def _regular_file(one: object) -> str | None:
    """The absolute path of ``one`` when it is a regular file (never opens a FIFO)."""
    if not isinstance(one, os.PathLike):
        return None
    try:
        path = Path(one).resolve(strict=True)
        return str(path) if path.is_file() else None
    except (OSError, RuntimeError):  # missing, a link loop: the router says which
        return None


def _changed_files(
    files: list[str], ledger: Ledger, force: bool, report: IngestReport, bar: Progress
) -> dict[str, str]:
    """path -> content hash of the files to read: new or changed since they were recorded."""
    known = ledger.hashes(files)
    todo: dict[str, str] = {}
    for path in files:
        try:
            digest = file_hash(path)
        except OSError as e:
            report.account(
                [],
                [ReadFailure(input=path, error="unreadable", message=f"{path}: {e.strerror or e}")],
            )
            bar.update(done=1, failed=1)
            continue
        if not force and known.get(path) == digest:
            report.files_skipped += 1
            bar.update(done=1, skipped=1)
        else:
            todo[path] = digest
    return todo


def _results(
    reader: Reader,
    ctx: ParseContext,
    store: StoreLike,
    todo: dict[str, str],
    opts: IngestOptions,
    fresh: frozenset[str] = frozenset(),
) -> Iterator[FileResult]:
    """(path, items or their :class:`.writer.Rows`, vectors, failures) per file, as each
    is read; a file of ``fresh`` with more items than ``opts.batch_size`` comes first as
    pieces (``Rows.part``) of that many, then as its summary and failures."""
    if not todo:
        return
    if ctx.mode == Mode.FINE:
        yield from _fine_results(reader, ctx, list(todo))
        return
    n = opts.workers or default_workers(len(todo))
    # A local embedder runs in the workers when there are several (it parallelises);
    # with one worker the writer thread has a core of its own and embeds there instead.
    local = getattr(store.embedder, "local", False)
    embedder = store.embedder.name if local and n > 1 else None
    # Likewise the items' Arrow rows: built in the workers when there are several (they
    # cost a worker less than they save the writer, which shares the cores with them).
    schema = store.table.schema if n > 1 and ROWS_IN_WORKERS else None
    # Each worker's OCR engine gets its share of the cores, so workers do not fight over them.
    args = {
        "ctx": ctx.model_dump(exclude={"refiner"}),
        "embedder": embedder,
        "ocr_threads": max(1, usable_cores() // n),
        "schema": schema,
    }
    pieces = _pieces(store, opts.batch_size, embedder is None and local) if fresh else None
    jobs = [
        Job(key=p, args={"path": p, **args, "pieces": pieces if p in fresh else None}) for p in todo
    ]
    # Looked up here, not bound at import: a test plant may wrap it (tests/plants).
    pool = WorkerPool(
        file_task.parse_file,
        n,
        timeout=opts.timeout,
        memory_mb=opts.memory_mb,
        preload=file_task.PRELOAD,
    )
    for r in pool.run(jobs):
        if r.partial:
            part = Rows(table=rows_from_bytes(r.value["rows"]), summary=ItemSummary(), part=True)
            yield r.key, part, r.value["vectors"], []
            continue
        if not r.ok:
            failure = ReadFailure(
                input=r.key, error=r.error or "crashed", message=r.message or r.key, detail=r.detail
            )
            log_internal([failure])
            yield r.key, [], None, [failure]
            continue
        failures: list[ReadFailure] = r.value["failures"]
        log_internal(failures)  # logged in the worker too, but a worker's log is not kept
        if "pieces" in r.value:  # every item went in the pieces before
            nothing = rows_schema(store.table.schema).empty_table()
            got: list[MemoryItem] | Rows = Rows(table=nothing, summary=r.value["summary"])
        elif "rows" in r.value:
            got = Rows(table=rows_from_bytes(r.value["rows"]), summary=r.value["summary"])
        else:
            got = r.value["items"]
        yield r.key, got, r.value["vectors"], failures


def _pieces(store: StoreLike, rows: int, share: bool) -> file_task.Pieces:
    """How the workers hand over a big file; with ``share`` (one worker and a local
    embedder: the writer embeds) the worker embeds every other piece."""
    return file_task.Pieces(
        rows=rows,
        schema=store.table.schema.serialize().to_pybytes(),
        share=store.embedder.name if share else None,
    )


def _fine_results(reader: Reader, ctx: ParseContext, paths: list[str]) -> Iterator[FileResult]:
    """Fine mode: files read concurrently on one event loop (the LLM calls overlap), handed
    back in completion order. Parsing is gated by the refiner, so LLM calls never wait."""
    import asyncio

    done: queue.Queue[Any] = queue.Queue()

    async def one(path: str) -> None:
        out = await reader.aread_one(Path(path), ctx)
        # The fast items the fine ones came from are stored too (refined_from finds them).
        done.put((path, [*out.items, *out.refined_fast], None, out.failures))

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
