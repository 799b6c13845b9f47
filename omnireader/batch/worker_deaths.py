"""Why a parser worker died: its exit signal or code, and its last words on stderr.

Native code that could not allocate under the memory limit (Rust's "memory allocation of
N bytes failed", C++'s bad_alloc) is reported as ``too_large``, anything else as ``crashed``.
"""

from __future__ import annotations

import os
import re
import signal
from typing import Any

__all__ = ["death_of"]


# What native code prints when an allocation fails (Rust, C++, glibc, CPython).
_OUT_OF_MEMORY = re.compile(
    r"memory allocation (of \d+ bytes |still )?failed|std::bad_alloc|out of memory|MemoryError|"
    r"Cannot allocate memory",
    re.I,
)


def death_of(proc: Any, log_path: str, memory_mb: int | None) -> tuple[str, str]:
    """(code, why) for a worker process that ended: the signal or exit code, and its last
    line on stderr. Native code that could not allocate under the limit is ``too_large``."""
    proc.join(timeout=1)  # the pipe closes a moment before the process is reaped
    code = proc.exitcode
    if code is None:
        why = "the parser process died"
    elif code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        why = f"the parser process was killed by {name}"
    else:
        why = f"the parser process exited with code {code}"
    last = _last_words(log_path)
    if last and _OUT_OF_MEMORY.search(last):
        limit = f"the {memory_mb} MB limit" if memory_mb else "memory"
        return "too_large", f"ran out of {limit} in native code ({last})"
    return "crashed", f"{why} ({last})" if last else why


def _last_words(log_path: str) -> str:
    """The last meaningful line a dead worker wrote to stderr (at most 200 characters)."""
    try:
        with open(log_path, "rb") as f:
            f.seek(max(0, os.path.getsize(log_path) - 8192))
            tail = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in tail.splitlines() if ln.strip()]
    # A native crash prints its message first and a backtrace after: prefer the message.
    for line in lines:
        if _OUT_OF_MEMORY.search(line):
            return line[:200]
    useful = [ln for ln in lines if not re.match(r"(\d+:|at |stack backtrace|File \")", ln)]
    return (useful or lines or [""])[-1][:200]
