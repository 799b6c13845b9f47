"""Ingest in a child process, so the server's own interpreter and cores stay with searches.

Measured under upload load (``bench/bench_server.py``), more CPU went to LanceDB's native
threads than to Python, and those threads are shared: a write's ``merge_insert`` and the
index upkeep ran in the same pool as the searches' queries, at the same priority (a thread's
nice value does not reach them), and the writer's Python (parsing results, embedding, Arrow
building) held the server's interpreter lock between a search's steps. A separate process
fixes all three: it has its own interpreter lock and its own LanceDB threads, and the whole
process, every thread it will ever start included, runs at the ingest nice value (it is set
before anything else runs, and threads inherit it).

The child reads one JSON request a line on stdin and answers one JSON line on a private copy
of stdout (stray prints from libraries go to stderr). It writes through the same ``Store``
(upsert, ledger and the cross-process write lock), so exactly-once holds as before, and the
server sees each commit at its next query (the store checks for new versions on every read).
When the server dies, even by ``kill -9``, the child's stdin closes and it exits; the server's
job files resume the work on restart. When the child dies, the call raises
:class:`WriterDiedError`; :class:`WriterPool` starts a new child and tries the group once more
(re-reading a file is an upsert, so nothing is written twice).

    python -m omnireader.server.writer_proc   # started by the server, not by hand
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from omnireader.batch.ingest import ingest
from omnireader.errors import ServiceError
from omnireader.options import IngestOptions

__all__ = ["WriterDiedError", "WriterProcess", "WriterPool"]


class WriterDiedError(RuntimeError):
    """The ingest process ended before it answered."""


class WriterProcess:
    """One child ingest process (parent side). Not thread-safe: :class:`WriterPool` lends it
    to one job thread at a time."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        # the child must import the same omnireader as the server
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "omnireader.server.writer_proc"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._send(self.settings)
        ready = self._receive()
        if not ready.get("ok"):
            self.stop()
            raise WriterDiedError(f"the ingest process did not start: {ready.get('error')}")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        if not self.alive():
            self.start()
        self._send(request)
        answer = self._receive()
        if not answer.get("ok"):
            raise ServiceError(answer.get("error") or "the ingest process failed")
        return answer

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            try:  # its end of the pipe closes when it exits
                code: int | str = self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                code = "unknown"
            raise WriterDiedError(
                f"the ingest process ended (exit status {code}) before it took the request ({e})"
            ) from None

    def _receive(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise WriterDiedError(
                f"the ingest process ended (exit status {code}) before it answered"
            )
        return dict(json.loads(line))

    def stop(self, timeout: float = 120) -> None:
        """Let the child finish its index upkeep and exit (killed after ``timeout``)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()  # EOF: the child folds new rows in and exits
            proc.wait(timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


class WriterPool:
    """Up to ``size`` child processes, lent to job threads one call at a time."""

    def __init__(self, settings: dict[str, Any], size: int = 1) -> None:
        self.settings = settings
        self._idle: list[WriterProcess] = []
        self._all: list[WriterProcess] = []
        self._free = threading.Semaphore(max(1, size))
        self._lock = threading.Lock()
        self.restarts = 0
        self.calls = 0  # requests run (a burst of jobs is one)

    def ingest(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run one request; a child that dies mid-call is replaced and the call tried once
        more (an upsert: nothing doubles), then the error goes to the job."""
        with self._free:
            with self._lock:
                self.calls += 1
                writer = self._idle.pop() if self._idle else None
                if writer is None:
                    writer = WriterProcess(self.settings)
                    self._all.append(writer)
            try:
                try:
                    return writer.call(request)
                except WriterDiedError:
                    with self._lock:
                        self.restarts += 1
                    return writer.call(request)  # a fresh child (call starts it)
            finally:
                with self._lock:
                    self._idle.append(writer)

    def prestart(self) -> None:
        """Start one child now, in the background: its imports take seconds, which the first
        upload should not wait for."""

        def start() -> None:
            with self._free:  # a job arriving meanwhile waits for this child
                with self._lock:
                    if self._all:
                        return
                    writer = WriterProcess(self.settings)
                    self._all.append(writer)
                try:
                    writer.start()
                except WriterDiedError:
                    pass  # the first call starts it again and reports the reason
                with self._lock:
                    self._idle.append(writer)

        threading.Thread(target=start, name="omnireader-writer-start", daemon=True).start()

    def pids(self) -> list[int]:
        with self._lock:
            return [w.pid for w in self._all if w.alive() and w.pid is not None]

    def close(self) -> None:
        with self._lock:
            writers, self._all, self._idle = self._all, [], []
        for w in writers:
            w.stop()


# ---------------------------------------------------------------------- the child


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


if __name__ == "__main__":
    main()
