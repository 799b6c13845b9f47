"""What a worker process runs: jobs taken from its pipe one at a time, each under the
memory limit, answered with a :class:`JobResult` (or its pieces, :mod:`.job_parts`); a job
that raises is reported for its file and the worker lives on. The pool that starts, watches
and replaces these processes is :mod:`.workers`.
"""

from __future__ import annotations

import errno
import functools
import gc
import os
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from pydantic import BaseModel

# The items every job returns, imported before the memory limit (which is headroom over
# what the worker holds when it starts), as `import omnireader` did when it loaded them.
import omnireader.models  # noqa: F401
from omnireader.batch.job_parts import sending_parts

__all__ = ["Job", "JobResult", "internal_failure", "worker_main", "YOUNG_THRESHOLD"]

#: objects allocated between two collections of the young generation in a worker (700 by
#: default): a parse makes many short-lived containers that reference counting frees, and
#: the collections their counts trigger cost ~3% of a PDF's parse (issue 38).
YOUNG_THRESHOLD = 10_000


class Job(BaseModel):
    key: str  # what the result is reported under (the file path)
    args: dict[str, Any]


class JobResult(BaseModel):
    key: str
    ok: bool
    value: Any = None
    # code: timeout, too_large, crashed (the worker died), internal (the job raised)
    error: str | None = None
    message: str | None = None
    detail: str | None = None  # the traceback, for "internal"
    seconds: float = 0.0
    partial: bool = False  # a piece of the job's result; the job goes on (job_parts)


def internal_failure(key: str, e: BaseException) -> JobResult:
    """The job raised: a bug, not a dead worker and not a bad file; keep the traceback."""
    return JobResult(
        key=key,
        ok=False,
        error="internal",
        message=f"{key}: internal error ({type(e).__name__}: {e})",
        detail="".join(traceback.format_exception(e)),
    )


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


def _capture_stderr(log_path: str) -> None:
    """Send this process's stderr (native libraries' too) to ``log_path``: when a worker
    dies, its last words say why (e.g. Rust's "memory allocation of N bytes failed")."""
    try:
        fd = os.open(log_path, os.O_WRONLY | os.O_TRUNC)
        os.dup2(fd, 2)
        os.close(fd)
    except OSError:
        pass


def _restart_log() -> None:
    try:
        sys.stderr.flush()
        os.ftruncate(2, 0)
        os.lseek(2, 0, os.SEEK_SET)
    except (OSError, ValueError, AttributeError):
        pass


def worker_main(
    conn: Connection,
    fn: Callable[..., Any],
    memory_mb: int | None,
    log_path: str,
    nice: int = 0,
) -> None:
    from omnireader.niceness import at_least

    at_least(nice)  # a background ingest's workers stay background work
    _capture_stderr(log_path)
    _limit_memory(memory_mb)
    _fewer_collections()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        _restart_log()  # keep only what this job writes
        started = time.perf_counter()
        try:
            with sending_parts(functools.partial(_send_part, conn, job.key)):
                value = fn(**job.args)
            res = JobResult(key=job.key, ok=True, value=value)
        except MemoryError:
            res = JobResult(
                key=job.key,
                ok=False,
                error="too_large",
                message=f"{job.key}: ran out of memory ({memory_mb} MB limit)",
            )
        except OSError as e:
            # An mmap or a native allocation refused by the limit surfaces as ENOMEM.
            if e.errno == errno.ENOMEM:
                res = JobResult(
                    key=job.key,
                    ok=False,
                    error="too_large",
                    message=f"{job.key}: {type(e).__name__}: {e}",
                )
            else:
                res = internal_failure(job.key, e)
        except Exception as e:  # reported for this file; the worker lives on
            res = internal_failure(job.key, e)
        res.seconds = time.perf_counter() - started
        try:
            conn.send(res)
        except MemoryError:
            conn.send(
                JobResult(
                    key=job.key,
                    ok=False,
                    error="too_large",
                    message=f"{job.key}: result too large to return",
                )
            )


def _send_part(conn: Connection, key: str, value: Any) -> None:
    conn.send(JobResult(key=key, ok=True, value=value, partial=True))


def _fewer_collections() -> None:
    """What the worker imported (the fork server's preload) is never garbage: frozen out of
    the collector's scans, and its pages stay shared with the fork server; the young
    generation is collected less often. A parse of filings or the bench's PDFs takes 3-4%
    less CPU (notes/2026-12-07/s13-lead.md); memory stays in its limit, as reference
    counting, not the collector, frees a parse's objects."""
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
