"""A parser worker collects garbage less often than a plain Python process: what it
imported before its first job is frozen out of the collector's scans, and its young
generation waits for more allocations (a parse's objects are freed by reference counting;
the collections cost ~3% of a PDF's parse)."""

from __future__ import annotations

import gc

from omnireader.batch.worker_main import YOUNG_THRESHOLD
from omnireader.batch.workers import Job, WorkerPool


def collector_state() -> tuple[tuple[int, int, int], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def test_a_worker_freezes_its_imports_and_collects_young_objects_less_often() -> None:
    pool = WorkerPool(collector_state, 1, timeout=60, memory_mb=None)
    (result,) = pool.run([Job(key="state", args={})])
    assert result.ok, result.message
    (young, older, oldest), frozen = result.value
    assert young == YOUNG_THRESHOLD > gc.get_threshold()[0]
    assert (older, oldest) == gc.get_threshold()[1:]  # the older generations as Python has them
    assert frozen > 10_000  # the interpreter and omnireader's modules, at least
