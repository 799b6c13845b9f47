"""How many parser processes a batch ingest starts when the caller does not say.

The writer thread (embedding when it must, Arrow rows, ``merge_insert``) is a share of a
core too: measured on text PDFs it needs ~0.6 ms of CPU per page against ~1.5 ms of parsing
(pdfium plus omnireader's own), i.e. :data:`WRITER_SHARE` of a worker. ``n`` workers keep
``n × (1 + WRITER_SHARE)`` cores busy, so the smallest ``n`` that fills the machine is
``ceil(cores / (1 + WRITER_SHARE))``: 2 on two cores (one would leave ~0.6 of a core idle),
3 on four, 6 on eight. More only adds processes (memory, startup) that wait for a core.
"""

from __future__ import annotations

import math
import os

__all__ = ["WRITER_SHARE", "usable_cores", "default_workers"]

WRITER_SHARE = 0.4  # writer CPU per page / parser CPU per page (0.6 ms / 1.5 ms)


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask, e.g. a container's cpuset)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_workers(files: int, cores: int | None = None) -> int:
    """Workers for ``files`` files on ``cores`` cores (default: :func:`usable_cores`)."""
    cores = cores or usable_cores()
    fill = math.ceil(cores / (1 + WRITER_SHARE))
    return max(1, min(fill, files))  # a worker with no file to read only costs its start
