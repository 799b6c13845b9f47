"""Parse files in worker processes, each file under a time and memory limit.

A worker that hangs, runs out of memory or dies inside a native library is killed and
replaced; its file is reported (``timeout``, ``too_large``, ``crashed``) and the batch goes
on. ``concurrent.futures`` cannot kill one worker of a pool, hence this small pool.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from pydantic import BaseModel

__all__ = ["Job", "JobResult", "WorkerPool"]


class Job(BaseModel):
    key: str  # what the result is reported under (the file path)
    args: dict[str, Any]


class JobResult(BaseModel):
    key: str
    ok: bool
    value: Any = None
    error: str | None = None  # code: timeout, too_large, crashed
    message: str | None = None
    seconds: float = 0.0


def _limit_memory(memory_mb: int | None) -> None:
    if not memory_mb:
        return
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        # RLIMIT_DATA counts heap and anonymous mmaps (Linux ≥ 4.7) but not the address
        # space native libraries reserve up front, which RLIMIT_AS would wrongly count.
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def _worker_main(conn: Connection, fn: Callable[..., Any], memory_mb: int | None) -> None:
    _limit_memory(memory_mb)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        started = time.perf_counter()
        try:
            value = fn(**job.args)
            res = JobResult(key=job.key, ok=True, value=value)
        except MemoryError:
            res = JobResult(key=job.key, ok=False, error="too_large",
                            message=f"{job.key}: ran out of memory ({memory_mb} MB limit)")
        except Exception as e:  # reported for this file; the worker lives on
            res = JobResult(key=job.key, ok=False, error="crashed",
                            message=f"{job.key}: {type(e).__name__}: {e}")
        res.seconds = time.perf_counter() - started
        try:
            conn.send(res)
        except MemoryError:
            conn.send(JobResult(key=job.key, ok=False, error="too_large",
                                message=f"{job.key}: result too large to return"))


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


class _Worker:
    def __init__(self, ctx: Any, fn: Callable[..., Any], memory_mb: int | None) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, fn, memory_mb), daemon=True)
        self.proc.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0

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


class WorkerPool:
    """``n`` processes running ``fn(**job.args)``; results come back as they finish."""

    def __init__(
        self,
        fn: Callable[..., Any],
        workers: int,
        *,
        timeout: float | None = 300.0,
        memory_mb: int | None = 2048,
    ) -> None:
        self.fn = fn
        self.n = max(1, workers)
        self.timeout = timeout
        self.memory_mb = memory_mb
        # fork starts workers in milliseconds; the parent holds no locks a child needs.
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        self._ctx = mp.get_context(method)

    def run(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        pending = deque(jobs)
        workers = [_Worker(self._ctx, self.fn, self.memory_mb) for _ in range(min(self.n, len(pending)) or 1)]
        try:
            for w in workers:
                self._assign(w, pending)
            while any(w.job is not None for w in workers):
                busy = [w for w in workers if w.job is not None]
                ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=0.5)
                now = time.perf_counter()
                for i, w in enumerate(workers):
                    if w.job is None:
                        continue
                    failed = None
                    if w.conn in ready:
                        try:
                            res: JobResult = w.conn.recv()
                        except (EOFError, OSError):
                            failed = ("crashed", "the parser process died")
                        else:
                            w.job = None
                            yield res
                            self._assign(w, pending)
                            continue
                    elif w.proc.sentinel in ready or not w.proc.is_alive():
                        failed = ("crashed", f"the parser process died (exit code {w.proc.exitcode})")
                    elif self.timeout and now - w.started > self.timeout:
                        failed = ("timeout", f"took longer than {self.timeout:g} s and was stopped")
                    elif self.memory_mb and _rss_mb(w.proc.pid) > self.memory_mb:
                        failed = ("too_large", f"used more than {self.memory_mb} MB and was stopped")
                    if failed:
                        job = w.job
                        assert job is not None
                        w.stop(kill=True)
                        yield JobResult(key=job.key, ok=False, error=failed[0],
                                        message=f"{job.key}: {failed[1]}",
                                        seconds=now - w.started)
                        workers[i] = w = _Worker(self._ctx, self.fn, self.memory_mb)
                        self._assign(w, pending)
        finally:
            for w in workers:
                w.stop(kill=w.job is not None)

    @staticmethod
    def _assign(w: _Worker, pending: deque[Job]) -> None:
        if pending:
            w.job = pending.popleft()
            w.started = time.perf_counter()
            w.conn.send(w.job)
        else:
            w.job = None
