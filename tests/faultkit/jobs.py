"""Job functions that misbehave on purpose, for driving the worker pool directly.

They stand in for a parser that hangs, eats memory or dies in native code; the package
itself has no such input kind. Each misbehaves for real (the memory jobs allocate, the
native ones run native code), so the pool's own detection is what is tested.
``run_job(kind="ok", n=3)`` is a well-behaved job.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import time

__all__ = ["run_job", "KINDS"]

MiB = 1 << 20


def _ok(n: int) -> str:
    return f"result {n}"


def _hang(n: int) -> str:
    time.sleep(3600)
    return "never"


def _spin(n: int) -> str:
    while True:  # busy in Python, never sleeping: only a kill stops it
        n = (n * 7 + 1) % 1_000_003


def _python_memory(n: int) -> int:
    blocks = [b"x" * MiB for _ in range(n)]  # n MiB, every page touched
    return len(blocks)


def _native_memory(n: int) -> int:
    import numpy as np

    arr = np.ones(n * MiB, dtype=np.uint8)  # allocated and filled in C
    return int(arr.sum())


def _shared_memory(n: int) -> int:
    # A shared mapping is not counted by RLIMIT_DATA: only the pool's RSS watch catches it.
    m = mmap.mmap(-1, n * MiB, flags=mmap.MAP_SHARED)
    for offset in range(0, n * MiB, 4096):
        m[offset] = 1
    time.sleep(10)  # hold it while the watch looks
    return len(m)


def _native_oom_abort(n: int) -> str:
    # A Rust extension whose allocation fails under the limit: Rust's allocator prints
    # "memory allocation of N bytes failed" and aborts the process; nothing in Python can
    # catch it. pydantic-core (a dependency) serialises ``n`` MiB of JSON into one growing
    # buffer, which the worker's RLIMIT_DATA refuses to grow that far.
    import pydantic_core

    piece = "x" * (n * MiB // 16)
    return str(len(pydantic_core.to_json([piece] * 16)))


def _abort(n: int) -> str:
    os.abort()  # SIGABRT, as a failed assertion in a C library does


def _segfault(n: int) -> str:
    ctypes.string_at(0)  # a NULL read in native code: SIGSEGV
    return "never"


def _exit(n: int) -> str:
    os._exit(7)  # a library calling exit() underneath us


def _bug(n: int) -> str:
    return None.upper()  # type: ignore[attr-defined]  # a programming error: AttributeError


KINDS = {
    "ok": _ok,
    "hang": _hang,
    "spin": _spin,
    "python_memory": _python_memory,
    "native_memory": _native_memory,
    "shared_memory": _shared_memory,
    "native_oom_abort": _native_oom_abort,
    "abort": _abort,
    "segfault": _segfault,
    "exit": _exit,
    "bug": _bug,
}


def run_job(kind: str, n: int = 0) -> object:
    """Run the job ``kind`` with size ``n`` (MiB for the memory jobs)."""
    return KINDS[kind](n)
