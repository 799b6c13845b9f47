"""Fine mode when the LLM fails: the fast items stay, marked and counted; no error text kept."""

from __future__ import annotations

import pytest

from .conftest import explain


@pytest.mark.parametrize(
    "case",
    ["llm-timeout", "llm-429", "llm-500", "llm-non-json", "llm-wrong-schema", "llm-injection-echo"],
)
def test_a_failing_llm_leaves_every_fast_item_kept_and_marked_failed(run_fault, case: str) -> None:
    out = run_fault(case, via="ingest")
    assert out.passed, explain(out)


def test_a_rate_limit_that_clears_is_retried_and_every_item_refined(run_fault) -> None:
    out = run_fault("llm-transient-429", via="ingest")
    assert out.passed, explain(out)
