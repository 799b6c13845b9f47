"""How a batch ingest reads its changed files on this machine: fast mode in worker processes
(one file a job, rows or items handed back as each is read, a big new file in pieces),
fine mode concurrently on one event loop (the LLM calls overlap). The Ray engine
(:mod:`.ray_engine`) gives the same :data:`FileResult` s from a cluster.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from omnireader.batch import file_task
from omnireader.batch.report import ItemSummary
from omnireader.batch.sizing import default_workers, usable_cores
from omnireader.batch.workers import Job, WorkerPool
from omnireader.batch.writer import Rows
from omnireader.models import MemoryItem, Mode, ReadFailure
from omnireader.options import IngestOptions
from omnireader.parsers.base import ParseContext
from omnireader.reading.failures import log_internal
from omnireader.reading.reader import Reader
from omnireader.store.protocol import StoreLike
from omnireader.store.row_writes import rows_from_bytes
from omnireader.store.schema import rows_schema

__all__ = ["FileResult", "Results", "ROWS_IN_WORKERS", "local_results", "fine_results", "pieces_of"]

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

#: Build the items' Arrow rows in the workers (with several). Off: measured 2026-12-02, it
#: saved the writer ~0.3 ms of CPU per page (800 pages, 2 workers, a loaded machine: 107 vs
#: 80 pages/s), but each fresh worker paid a fixed start-up (~0.45 s an ingest of 200
#: pages). That start-up was pyarrow importing pandas at the first ``pa.array`` (0.26 s of
#: CPU a worker, gone since 2026-12-06: ``lance_import.defer_pandas``). Measured again then,
#: 2 workers on an idle machine, turns taken: 4,000 pages 10.1-10.6 s either way, 200 pages
#: 0.74 s off, 0.81 s on (each worker imports pyarrow): no gain to show, so it stays off.
ROWS_IN_WORKERS = False


def local_results(
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
        yield from fine_results(reader, ctx, list(todo))
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
    pieces = pieces_of(store, opts.batch_size, embedder is None and local) if fresh else None
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


def pieces_of(store: StoreLike, rows: int, share: bool) -> file_task.Pieces:
    """How the workers hand over a big file; with ``share`` (one worker and a local
    embedder: the writer embeds) the worker embeds every other piece."""
    return file_task.Pieces(
        rows=rows,
        schema=store.table.schema.serialize().to_pybytes(),
        share=store.embedder.name if share else None,
    )


def fine_results(reader: Reader, ctx: ParseContext, paths: list[str]) -> Iterator[FileResult]:
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
