"""Parse files in worker processes, each file under a time and memory limit.

A worker that hangs, runs out of memory or dies inside a native library is killed and
replaced; its file is reported (``timeout``, ``too_large``, ``crashed``) and the batch goes
on. ``concurrent.futures`` cannot kill one worker of a pool, hence this small pool.

The memory limit is what one file may add on top of what a worker starts with: a forked
worker shares its parent's memory, which may be large in an application that embeds the
reader, and no file is blamed for that. Two guards enforce it: ``RLIMIT_DATA`` in the
worker (heap and private mappings fail to grow: ``MemoryError``), and the parent watching
each worker's resident memory (which also sees shared mappings the rlimit does not count).

A job may hand back its result in pieces (:func:`.job_parts.send_part`) before it returns:
the pool yields each piece as it comes (``JobResult.partial``), so the caller starts on a
big file's first items while the worker still works on the rest. A job that dies after
sending pieces is reported like any other; what to do with its pieces is the caller's call.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any

from omnireader.batch.worker_deaths import death_of
from omnireader.batch.worker_main import Job, JobResult, worker_main

__all__ = ["Job", "JobResult", "WorkerPool", "prestart"]


def _has_data(conn: Connection) -> bool:
    try:
        return conn.poll()
    except (EOFError, OSError):
        return False


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


@contextmanager
def _without_main_script(fn: Callable[..., Any]) -> Iterator[None]:
    """Start a worker without it running the user's script again.

    A spawn / forkserver child re-imports ``__main__`` from its file, so a script without an
    ``if __name__ == "__main__":`` guard would start a whole ingest again in every worker
    (and every file would fail). Only a job function defined in that script needs it.
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(fn, "__module__", "__main__") == "__main__":
        yield
        return
    saved = {k: main.__dict__.pop(k) for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__["__spec__"] = None  # the start code reads it; None means "no module"
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def _context(preload: Sequence[str]) -> Any:
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    if preload:
        ctx.set_forkserver_preload(list(preload))
    return ctx


def prestart(fn: Callable[..., Any], preload: Sequence[str]) -> None:
    """Start the fork server now, so its imports (``preload``: ~1 s of a core) run while
    the caller does other work (opening the store, hashing files); the pool started later
    finds it running. Only spawns it: the server imports on its own, nothing waits here.
    A no-op without a fork server (the workers are then spawned) or when it already runs.
    """
    if "forkserver" not in mp.get_all_start_methods():
        return
    from multiprocessing import forkserver

    _context(preload)
    with _without_main_script(fn):  # as Process.start would: no re-run of the user's script
        forkserver.ensure_running()


class _Worker:
    """One process, its stderr log, and the jobs sent to it (oldest first: the one it is on)."""

    def __init__(self, ctx: Any, fn: Callable[..., Any], memory_mb: int | None) -> None:
        fd, self.log_path = tempfile.mkstemp(prefix="omnireader-worker-", suffix=".log")
        os.close(fd)
        self.conn, child = ctx.Pipe()
        from omnireader.niceness import thread_nice

        # The fork server's children do not inherit the asking thread's priority: pass it.
        self.proc = ctx.Process(
            target=worker_main,
            args=(child, fn, memory_mb, self.log_path, thread_nice()),
            daemon=True,
        )
        with _without_main_script(fn):
            self.proc.start()
        child.close()
        # What the worker holds before any file (shared with its parent after a fork).
        self.base_rss = _rss_mb(self.proc.pid)
        self.jobs: deque[Job] = deque()
        self.started = 0.0  # when the oldest job began (its predecessor's result came back)

    def send(self, job: Job) -> None:
        if not self.jobs:
            self.started = time.perf_counter()
        self.jobs.append(job)
        try:
            self.conn.send(job)
        except OSError:
            # The worker died on an earlier job: the run loop reports that one as crashed
            # and queues this one again for a fresh worker.
            pass

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        try:
            os.unlink(self.log_path)
        except OSError:
            pass


class WorkerPool:
    """``n`` processes running ``fn(**job.args)``; results come back as they finish.

    Each worker holds ``depth`` jobs, so it starts the next file while this process is
    still busy with the last result (writing it); the time limit runs per job from the
    moment the worker could start it. Workers fork from a clean server process that has
    imported ``preload`` once (not from this process, which may hold LanceDB's runtime and
    a writer thread), so each starts in milliseconds with the parsers already loaded.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        workers: int,
        *,
        timeout: float | None = 300.0,
        memory_mb: int | None = 2048,
        depth: int = 2,
        preload: Sequence[str] = (),
    ) -> None:
        self.fn = fn
        self.n = max(1, workers)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.depth = max(1, depth)
        self._ctx = _context(preload)

    def run(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        pending = deque(jobs)
        count = min(self.n, len(pending)) or 1
        workers = [_Worker(self._ctx, self.fn, self.memory_mb) for _ in range(count)]
        try:
            for w in workers:
                self._fill(w, pending)
            while any(w.jobs for w in workers):
                busy = [w for w in workers if w.jobs]
                ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=0.5)
                for i, w in enumerate(workers):
                    if not w.jobs:
                        continue
                    # Ask the pipe itself, not just `ready`: a worker may have sent a result
                    # and then died on its next job after `wait` returned, and the finished
                    # job must not be blamed for the crash.
                    broken = piece = False
                    if w.conn in ready or _has_data(w.conn):
                        try:
                            res: JobResult = w.conn.recv()
                        except (EOFError, OSError):
                            broken = True  # died mid-send: reported below as a crash
                        else:
                            if res.partial:  # a piece: the job goes on, its clock too
                                yield res
                                piece = True  # its time limit is still checked below
                            else:
                                w.jobs.popleft()
                                w.started = time.perf_counter()
                                yield res
                                self._fill(w, pending)
                                continue
                    failed = self._failure(w)
                    drain = not piece or not w.proc.is_alive()  # a live one may stream on
                    if failed and not broken and drain and _has_data(w.conn):
                        # What a worker sent before it died or ran out of time is read first
                        # (a whole file's result, then the next file's first piece): the
                        # job blamed is the one it was on, not the one it had finished.
                        continue
                    if failed:
                        job = w.jobs.popleft()
                        pending.extendleft(reversed(w.jobs))  # queued, not started: retry
                        w.jobs.clear()
                        w.stop(kill=True)
                        yield JobResult(
                            key=job.key,
                            ok=False,
                            error=failed[0],
                            message=f"{job.key}: {failed[1]}",
                            seconds=time.perf_counter() - w.started,
                        )
                        workers[i] = w = _Worker(self._ctx, self.fn, self.memory_mb)
                        self._fill(w, pending)
        finally:
            for w in workers:
                w.stop(kill=bool(w.jobs))

    def _failure(self, w: _Worker) -> tuple[str, str] | None:
        if not w.proc.is_alive():
            return death_of(w.proc, w.log_path, self.memory_mb)
        if self.timeout and time.perf_counter() - w.started > self.timeout:
            return "timeout", f"took longer than {self.timeout:g} s and was stopped"
        if self.memory_mb and _rss_mb(w.proc.pid) - w.base_rss > self.memory_mb:
            return "too_large", f"used more than {self.memory_mb} MB and was stopped"
        return None

    def _fill(self, w: _Worker, pending: deque[Job]) -> None:
        while pending and len(w.jobs) < self.depth:
            w.send(pending.popleft())
