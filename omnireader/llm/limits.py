"""Per-event-loop resources: the concurrency limit and the HTTP clients.

asyncio semaphores and httpx connection pools belong to the event loop that first used them;
the sync wrappers start a fresh loop per call, so each loop gets its own instance. Within one
loop — a whole folder ingested by ``aingest`` — everything shares one limit.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from omnireader.errors import ConfigError

__all__ = ["Limiter", "LoopLocal"]

T = TypeVar("T")


class LoopLocal(Generic[T]):
    """One ``factory()`` instance per running event loop, dropped when the loop is."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._items: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        with self._lock:
            item = self._items.get(loop)
            if item is None:
                item = self._items[loop] = self._factory()
            return item

    def pop_current(self) -> T | None:
        """Forget (and return) this loop's instance, e.g. to close it."""
        with self._lock:
            return self._items.pop(asyncio.get_running_loop(), None)


class Limiter:
    """At most ``limit`` requests in flight per event loop; share one between backends.

    ``in_flight`` / ``peak`` are what a benchmark wants to see.
    """

    def __init__(self, limit: int = 8) -> None:
        if limit < 1:
            raise ConfigError(f"concurrency must be at least 1, got {limit}")
        self.limit = limit
        self._sems: LoopLocal[asyncio.Semaphore] = LoopLocal(lambda: asyncio.Semaphore(limit))
        self.in_flight = 0
        self.peak = 0

    async def __aenter__(self) -> Limiter:
        await self._sems.get().acquire()
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.in_flight -= 1
        self._sems.get().release()
