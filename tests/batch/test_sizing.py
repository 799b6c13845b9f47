"""The default worker count counts the writer as a share of a core."""

from __future__ import annotations

from omnireader.batch.sizing import WRITER_SHARE, default_workers, usable_cores


def test_the_default_fills_the_cores_with_the_writer_counted_and_no_more() -> None:
    for cores in (1, 2, 3, 4, 8, 16, 64):
        n = default_workers(files=1000, cores=cores)
        assert n * (1 + WRITER_SHARE) >= cores  # the cores are kept busy ...
        assert n == 1 or (n - 1) * (1 + WRITER_SHARE) < cores  # ... by the fewest workers
        assert n <= cores
    assert [default_workers(1000, c) for c in (1, 2, 4, 8)] == [1, 2, 3, 6]


def test_never_more_workers_than_files_and_never_none() -> None:
    assert default_workers(files=1, cores=8) == 1
    assert default_workers(files=0, cores=8) == 1
    assert 1 <= default_workers(files=1000) <= usable_cores()
