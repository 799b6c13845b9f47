"""Per-file limits: a worker that hangs, eats memory or crashes is killed; the batch goes on."""

from __future__ import annotations

import pytest

from .conftest import explain


@pytest.mark.parametrize(
    "case",
    [
        "worker-hangs",
        "worker-out-of-memory",
        "worker-native-crash",
        "worker-raises",
        "worker-big-parent",
    ],
)
def test_a_misbehaving_worker_is_stopped_and_reported_while_the_other_jobs_come_back(
    run_fault, case: str
) -> None:
    out = run_fault(case)
    assert out.passed, explain(out)


@pytest.mark.parametrize("case", ["ingest-timeout", "ingest-memory"])
def test_ingest_passes_its_time_and_memory_limits_to_the_workers(run_fault, case: str) -> None:
    out = run_fault(case, via="ingest")
    assert out.passed, explain(out)


def test_an_ingest_from_a_script_without_a_main_guard_reads_every_file(run_fault) -> None:
    out = run_fault("unguarded-script", via="ingest")
    assert out.passed, explain(out)
