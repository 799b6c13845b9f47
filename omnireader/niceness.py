"""Lower the CPU priority of background work (ingest) so interactive work (search) goes first.

Linux schedules threads, and a thread's nice value is its own: ``setpriority`` on a thread's
native id lowers that thread only, and threads and processes it starts inherit the value.
A worker process started through a fork server does not descend from the thread that asked
for it, so it is given the asking thread's value explicitly (:func:`at_least`). Elsewhere
(no per-thread priorities) these calls do nothing; raising a priority back is never tried
(it needs privileges), so a value only ever goes up.
"""

from __future__ import annotations

import os
import threading

__all__ = ["thread_nice", "lower_this_thread", "at_least"]


def thread_nice() -> int:
    """The calling thread's nice value (0 where it cannot be read)."""
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    except (AttributeError, OSError):
        return 0


def lower_this_thread(nice: int) -> int:
    """Run the calling thread (and what it starts from now on) at ``nice`` or lower
    priority; return the value it runs at."""
    now = thread_nice()
    if nice <= now:
        return now
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(nice, 19))
    except (AttributeError, OSError):
        return now
    return thread_nice()


def at_least(nice: int) -> None:
    """In a worker process: run no higher than the thread that started it."""
    if nice > 0:
        lower_this_thread(nice)
