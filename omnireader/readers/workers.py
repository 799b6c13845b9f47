"""Parse files in worker processes, each file under a time and memory limit.

A worker that hangs, runs out of memory or dies inside a native library is killed and
replaced; its file is reported (``timeout``, ``too_large``, ``crashed``) and the batch goes
on. ``concurrent.futures`` cannot kill one worker of a pool, hence this small pool.

The memory limit is what one file may add on top of what a worker starts with: a forked
worker shares its parent's memory, which may be large in an application that embeds the
reader, and no file is blamed for that. Two guards enforce it: ``RLIMIT_DATA`` in the
worker (heap and private mappings fail to grow: ``MemoryError``), and the parent watching
each worker's resident memory (which also sees shared mappings the rlimit does not count).
"""

from __future__ import annotations

import errno
import multiprocessing as mp
import os
import signal
import time
import warnings
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


def _data_mb() -> float:
    """This process's data segment (heap and private anonymous maps), in MB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def _limit_memory(memory_mb: int | None) -> None:
    if not memory_mb:
        return
    try:
        import resource

        # The limit is headroom over what the worker inherited: a forked worker starts with
        # its parent's heap (an application may hold gigabytes), which no file should pay for.
        limit = int((_data_mb() + memory_mb) * 1024 * 1024)
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
        except OSError as e:
            # An mmap or a native allocation refused by the limit surfaces as ENOMEM.
            code = "too_large" if e.errno == errno.ENOMEM else "crashed"
            res = JobResult(key=job.key, ok=False, error=code,
                            message=f"{job.key}: {type(e).__name__}: {e}")
        except Exception as e:  # reported for this file; the worker lives on
            res = JobResult(key=job.key, ok=False, error="crashed",
                            message=f"{job.key}: {type(e).__name__}: {e}")
        res.seconds = time.perf_counter() - started
        try:
            conn.send(res)
        except MemoryError:
            conn.send(JobResult(key=job.key, ok=False, error="too_large",
                                message=f"{job.key}: result too large to return"))


def _exit_reason(proc: Any) -> str:
    """Why a worker process ended: the signal that killed it, or its exit code."""
    proc.join(timeout=1)  # the pipe closes a moment before the process is reaped
    code = proc.exitcode
    if code is None:
        return "the parser process died"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the parser process was killed by {name}"
    return f"the parser process exited with code {code}"


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
        with warnings.catch_warnings():
            # LanceDB warns at every fork that a child using it might deadlock. Workers only
            # parse, never touch the store, and a worker that hung anyway would be stopped
            # by the time limit like any other.
            warnings.filterwarnings(
                "ignore", message="lancedb fork support", category=RuntimeWarning
            )
            self.proc.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0
        # RSS when the current job started: a forked worker counts its parent's pages too.
        self.base_rss = 0.0

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
    """``n`` processes running ``fn(**job.args)``; results come back as they finish.

    ``timeout`` (seconds) and ``memory_mb`` (MB over the worker's starting size) apply to
    each job; None turns a limit off.

        >>> pool = WorkerPool(parse, 4, timeout=60, memory_mb=1024)   # doctest: +SKIP
        >>> for result in pool.run(jobs): ...                          # doctest: +SKIP
    """

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
        count = min(self.n, len(pending)) or 1
        workers = [_Worker(self._ctx, self.fn, self.memory_mb) for _ in range(count)]
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
                            failed = ("crashed", _exit_reason(w.proc))
                        else:
                            w.job = None
                            yield res
                            self._assign(w, pending)
                            continue
                    elif w.proc.sentinel in ready or not w.proc.is_alive():
                        failed = ("crashed", _exit_reason(w.proc))
                    elif self.timeout and now - w.started > self.timeout:
                        failed = ("timeout", f"took longer than {self.timeout:g} s and was stopped")
                    elif self.memory_mb and _rss_mb(w.proc.pid) - w.base_rss > self.memory_mb:
                        failed = ("too_large",
                                  f"used more than {self.memory_mb} MB and was stopped")
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
            w.base_rss = _rss_mb(w.proc.pid)
            try:
                w.conn.send(w.job)
            except OSError:
                pass  # the worker is already dead: the run loop reports the job as crashed
        else:
            w.job = None
