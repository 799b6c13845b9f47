"""The memory benchmark sees each process of an ingest under its role: ballast planted in
the parser worker (``tests/plants/worker_ballast``) shows on the worker, not on the
forkserver it is forked from nor on the writer."""

from __future__ import annotations

from pathlib import Path

from bench_memory import ingest_peaks
from make_corpus import make_long_pdf

from tests.plants import plant_env

# Well above what the writer reaches on its own (~250-320 MB: LanceDB, the embedder),
# so "the ballast is not the writer's" cannot come down to a race of two similar peaks.
BALLAST_MB = 1024


def test_ballast_in_the_worker_shows_as_the_workers_peak(tmp_path: Path) -> None:
    pdf = make_long_pdf(tmp_path / "short.pdf", pages=3)

    peaks = ingest_peaks(pdf, workers=1, env=plant_env("worker_ballast", mb=BALLAST_MB))

    assert {"writer", "forkserver", "worker 1", "worker"} <= set(peaks), peaks
    assert peaks["worker"] == peaks["worker 1"] >= BALLAST_MB, peaks
    # The forkserver and the writer run no per-file parse: the ballast is not theirs.
    assert peaks["forkserver"] < BALLAST_MB, peaks
    assert peaks["writer"] < BALLAST_MB, peaks
