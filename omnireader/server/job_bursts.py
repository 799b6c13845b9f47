"""Bursts of uploads: which queued jobs run together as one batch ingest.

A burst of one-file uploads, each its own job, would be one batch ingest and one commit
each; the upload-only jobs queued when one starts that share its mode and info run with it
as one call instead, up to a number of files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from omnireader.server.schemas import JobState

__all__ = ["claim_burst"]


def claim_burst(
    first: JobState,
    jobs: Iterable[JobState],
    taken: set[str],
    joinable: Callable[[JobState], bool],
    max_files: int,
) -> list[JobState]:
    """``first`` and the queued ``jobs`` that can join it (``joinable``, same mode and info),
    in order, until their files not done pass ``max_files``; each added to ``taken``. Jobs
    already in ``taken`` are skipped (the caller holds the lock that guards it)."""
    burst: list[JobState] = []
    files = 0
    for job in [first, *(j for j in jobs if j is not first)]:
        if (
            job.id in taken
            or job.status != "queued"
            or not joinable(job)
            or job.mode != first.mode
            or job.info != first.info
        ):
            continue
        todo = sum(1 for f in job.files if not f.done)
        if burst and files + todo > max_files:
            break
        taken.add(job.id)
        burst.append(job)
        files += todo
    return burst
