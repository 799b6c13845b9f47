"""How often jobs end, for the ``Retry-After`` of a client refused for a full queue."""

from __future__ import annotations

import math
import threading
import time
from collections import deque

__all__ = ["JobPace"]


class JobPace:
    """The ends of the last 64 jobs (monotonic clock), safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ends: deque[float] = deque(maxlen=64)

    def ended(self) -> None:
        with self._lock:
            self._ends.append(time.monotonic())

    def retry_after(self, unknown: int = 5) -> int:
        """Seconds to wait: the mean time between the recent jobs' ends (a slot frees that
        often), 1-30 s; ``unknown`` before two jobs have ended in the last minute. A fixed
        5 s overstated it several times once bursts of uploads ended together every second
        or two."""
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._ends if now - t < 60]
        if len(recent) < 2:
            return unknown
        rate = len(recent) / max(now - recent[0], 1e-3)
        return max(1, min(30, math.ceil(1 / rate)))
