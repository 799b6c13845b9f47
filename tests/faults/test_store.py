"""The store under faults: a killed ingest, two ingests at once, the wrong embedder."""

from __future__ import annotations

from .conftest import explain


def test_an_ingest_killed_mid_write_and_run_again_stores_every_file_exactly_once(
    run_fault,
) -> None:
    out = run_fault("store-sigkill-mid-write", via="ingest")
    assert out.passed, explain(out)


def test_two_ingests_into_one_store_at_once_lose_nothing_and_duplicate_nothing(run_fault) -> None:
    out = run_fault("store-two-ingests-at-once", via="ingest")
    assert out.passed, explain(out)


def test_a_store_opened_with_another_embedder_refuses_before_writing_anything(run_fault) -> None:
    out = run_fault("store-embedder-mismatch", via="ingest")
    assert out.passed, explain(out)
