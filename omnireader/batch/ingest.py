"""Batch ingestion: read many inputs into a store, in parallel, resumably.

Files are parsed in worker processes (CPU-bound, isolated per file) and written from this
process in large batches. A file is recorded in the store's ledger only after its items are
written, so a run that is killed half way re-reads just the files it had not finished, and
deterministic ids make the re-read an update, never a duplicate. Unchanged files (same
content hash, same settings) are skipped while the store still holds an item of theirs in
this scope (one look-up for them all): a file whose items were deleted is read again.
Changed ones replace their old items.

A file whose reading failed for good (corrupt, unsupported, encrypted, an empty part…) is
recorded too, with its failures, so a re-run reads nothing again; only transient failures
(timeout, crash, fetch) leave it unrecorded (see :mod:`.ingest_report`). With ``sync`` the
items of files that are gone from under the given folders are removed as well.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from omnireader.batch import file_task
from omnireader.batch.local_engine import Results, local_results
from omnireader.batch.progress import Progress
from omnireader.batch.report import IngestReport, ItemSummary, is_transient
from omnireader.batch.sync import sync_removed
from omnireader.batch.writer import BatchWriter, Rows, WriteJob
from omnireader.errors import ConfigError, FileNameError, InvalidInputError
from omnireader.file_names import DiskNames, is_utf8, shown_path
from omnireader.intake.walk import expand
from omnireader.models import Mode, ReadFailure, ReadInfo
from omnireader.options import IngestOptions
from omnireader.parsers.base import ParseContext
from omnireader.reading.reader import Reader, ReadInput
from omnireader.store.deleting import scope_clause
from omnireader.store.ledger import Ledger
from omnireader.store.protocol import StoreLike

__all__ = ["IngestReport", "IngestOptions", "ingest", "aingest", "file_hash", "settings_key"]

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
        todo = _changed_files(files, ledger, opts.force, report, bar, _still_stored(store, ctx))
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
                    gave=summary.items,
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
        return local_results
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
    names = DiskNames()
    for one in expand(inputs, reader.options):
        report.inputs += 1
        path = _regular_file(one)
        if path is not None and not is_utf8(path) and names.find(shown_path(path)) != path:
            # A name that is not UTF-8 is stored in its shown form (\xNN); this one's is
            # another file's name too, and leads back to that file: it cannot be stored.
            report.account([], [_bad_name(path)])
            continue
        if path is not None:
            files.append(path)
            continue
        out = reader.read_one(one, ctx)
        report.account([*out.items, *out.refined_fast], out.failures)
        writer.put(WriteJob(items=[*out.items, *out.refined_fast]))
    return files


def _bad_name(path: str) -> ReadFailure:
    shown = shown_path(path)
    return ReadFailure(
        input=shown,
        error=FileNameError.code,
        message=f"{shown}: the file name is not UTF-8, so it is stored as written here (its "
        "bytes as \\xNN), but another file in the folder has that name already (literally, "
        "or written alike); rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest "
        "FILE) and ingest again",
    )


def _regular_file(one: object) -> str | None:
    """The absolute path of ``one`` when it is a regular file (never opens a FIFO)."""
    if not isinstance(one, os.PathLike):
        return None
    try:
        path = Path(one).resolve(strict=True)
        return str(path) if path.is_file() else None
    except (OSError, RuntimeError):  # missing, a link loop: the router says which
        return None


def _still_stored(store: StoreLike, ctx: ParseContext) -> Callable[[list[str]], set[str]]:
    """Those of some paths the store holds an item at in exactly ``ctx``'s scope."""
    where = scope_clause(ctx.user_id, ctx.session_id, str(ctx.mode))
    return lambda paths: store.stored_paths(paths, where=where) if paths else set()


def _changed_files(
    files: list[str],
    ledger: Ledger,
    force: bool,
    report: IngestReport,
    bar: Progress,
    still_stored: Callable[[list[str]], set[str]],
) -> dict[str, str]:
    """path -> content hash of the files to read: new or changed since they were recorded,
    or unchanged but their items are gone (deleted since; one look-up for them all)."""
    records = {} if force else ledger.records(files)
    # A record of a file that gave items holds while the store holds one at its path in
    # this scope; one that gave none (it failed for good, or was empty) holds as it is.
    gave = [p for p, r in records.items() if r.items or (r.items is None and not r.failed)]
    gone = set(gave) - still_stored(gave)
    known = {p: r.file_hash for p, r in records.items() if p not in gone}
    todo: dict[str, str] = {}
    for path in files:
        try:
            digest = file_hash(path)
        except OSError as e:
            shown = shown_path(path)  # a name that is not UTF-8 as \xNN, as it is stored
            report.account(
                [],
                [
                    ReadFailure(
                        input=shown, error="unreadable", message=f"{shown}: {e.strerror or e}"
                    )
                ],
            )
            bar.update(done=1, failed=1)
            continue
        if not force and known.get(path) == digest:
            report.files_skipped += 1
            bar.update(done=1, skipped=1)
        else:
            todo[path] = digest
    return todo
