"""The ingest process the server starts (:mod:`.writer_proc` is its parent side).

The child reads one JSON request a line on stdin and answers one JSON line on a private copy
of stdout (stray prints from libraries go to stderr). It writes through the same ``Store``
(upsert, ledger and the cross-process write lock), so exactly-once holds as before, and the
server sees each commit at its next query (the store checks for new versions on every read).
When the server dies, even by ``kill -9``, the child's stdin closes and it exits; the server's
job files resume the work on restart. The whole process, every thread it will ever start
included, runs at the ingest nice value (it is set before anything else runs, and threads
inherit it).

    python -m omnireader.server.writer_proc   # started by the server, not by hand
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from omnireader.batch.ingest import ingest
from omnireader.options import IngestOptions

__all__ = ["main"]


def _lower_priority(nice: int) -> None:
    """Before any thread exists: every thread this process starts inherits the value."""
    if nice <= 0:
        return
    try:
        os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice))
    except (AttributeError, OSError):
        pass


def main() -> None:
    out = os.fdopen(os.dup(1), "wb")  # the protocol's channel
    os.dup2(2, 1)  # a library's print() must not corrupt it
    stdin = sys.stdin.buffer
    settings = json.loads(stdin.readline() or b"{}")
    _lower_priority(int(settings.get("nice", 0)))

    def answer(message: dict[str, Any]) -> None:
        out.write(json.dumps(message).encode() + b"\n")
        out.flush()

    try:
        from omnireader.reading.reader import Reader
        from omnireader.server.maintenance import DeferredOptimize
        from omnireader.store import Store

        reader = Reader(
            allow_path_parts=False, allow_private_urls=bool(settings.get("allow_private_urls"))
        )
        store = DeferredOptimize(Store.open(Path(settings["db"]), create=True))
    except Exception as e:  # noqa: BLE001 - told to the server, which reports it
        answer({"ok": False, "error": f"{type(e).__name__}: {e}"})
        return
    answer({"ok": True, "pid": os.getpid()})
    # The parsers' fork server imports them now (~1 s of a core, at this process's priority),
    # not during the first upload, when searches are likely running too.
    from omnireader.batch.file_task import prestart_workers

    prestart_workers()
    try:
        for line in iter(stdin.readline, b""):
            answer(_handle(reader, store, json.loads(line), int(settings.get("workers", 1))))
    except BrokenPipeError:
        pass  # the server died mid-call; its job resumes when it restarts
    finally:
        store.close()  # the last rows go into the indexes before the process ends


def _handle(reader: Any, store: Any, request: dict[str, Any], workers: int) -> dict[str, Any]:
    from omnireader.server.job_counts import counts_of

    try:
        if request.get("jobs"):
            return {"ok": True, "jobs": _ingest_jobs(reader, store, request, workers)}
        files = [Path(p) for p in request.get("paths") or []]
        inputs = files if files else request.get("inputs") or []
        report = ingest(
            inputs,
            store,
            reader=reader,
            info=request.get("info") or {},
            mode=request.get("mode") or "fast",
            options=IngestOptions(workers=workers),
        )
        got = counts_of(report, files[0].parent.parent if files else None)
        return {"ok": True, **got}
    except Exception as e:  # noqa: BLE001 - the job fails with this reason
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}


def _ingest_jobs(
    reader: Any, store: Any, request: dict[str, Any], workers: int
) -> dict[str, dict[str, Any]]:
    """Several jobs' uploads (same info and mode) in ONE batch ingest, so a burst of small
    uploads is one commit, not one each: every commit is a new fragment that each search
    scans on its own until the next compaction, ~1 ms of CPU a fragment at 100k items
    (docs/benchmarks.md, *Service latency*). Answers each job's counts: its files' items (told by
    the ingest per file) and the failures naming its files."""
    from omnireader.server.job_counts import counts_of

    jobs = {j["id"]: [Path(p) for p in j["paths"]] for j in request["jobs"]}
    items: dict[str, int] = {}
    report = ingest(
        [p for paths in jobs.values() for p in paths],
        store,
        reader=reader,
        info=request.get("info") or {},
        mode=request.get("mode") or "fast",
        on_file=lambda path, n: items.__setitem__(
            os.path.realpath(path), items.get(os.path.realpath(path), 0) + n
        ),
        options=IngestOptions(workers=workers),
    )
    out = {}
    for job_id, paths in jobs.items():
        folder = paths[0].parent.parent if paths else None  # <spool>/jobs/<id>/files
        mine = report.model_copy(
            update={
                "failures": [
                    f
                    for f in report.failures
                    if folder is not None and str(folder) + "/" in f"{f.input} {f.message}"
                ]
            }
        )
        got = counts_of(mine, folder)
        got["items"] = sum(items.get(os.path.realpath(p), 0) for p in paths)
        out[job_id] = got
    return out
