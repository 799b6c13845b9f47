"""A cross-process write lock for one store directory.

Two processes may ingest into one store at once. LanceDB resolves most commit races, but
two ``merge_insert`` calls that both insert the same new id can each commit it, leaving the
item twice, and rows appended because a lookup found none of their ids
(:mod:`.row_writes`) would be twice if another writer added them in between. Writes therefore
take an exclusive ``flock`` on a file in the store's folder: one process upserts at a time
and always sees the other's committed rows. Reads never wait.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["write_lock"]

LOCK_NAME = ".omnireader-write.lock"


@contextmanager
def write_lock(store_dir: Path) -> Iterator[None]:
    """Hold the store's write lock for the block (a no-op where ``fcntl`` is missing)."""
    try:
        import fcntl
    except ImportError:  # Windows: one writer per store is the caller's job there
        yield
        return
    store_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(store_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
