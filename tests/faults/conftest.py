"""Run one fault case in a fresh folder, at test size.

A case skips only when it needs ``../shared`` and that is missing (``harness.Skip``); a
case whose machinery breaks — the store, the batch ingest, a child process — fails, with
its traceback in the assertion message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.faultkit.harness import FaultCase, Outcome, RunEnv, run_case
from tests.faultkit.registry import cases


def case_ids(group: str) -> list[str]:
    return [c.id for c in cases([group])]


def _case(case_id: str) -> FaultCase:
    return next(c for c in cases() if c.id == case_id)


@pytest.fixture
def run_fault(tmp_path: Path) -> Callable[..., Outcome]:
    """``run_fault("zip-bomb")``: the case's outcome; skips only when ../shared is missing."""

    def run(case_id: str, via: str = "reader") -> Outcome:
        env = RunEnv(tmp_path, scale="test", via=via)  # type: ignore[arg-type]
        out = run_case(_case(case_id), env)
        if out.skipped:
            pytest.skip(out.skipped)
        return out

    return run


def explain(out: Outcome) -> str:
    """The assertion message: every broken expectation, one per line."""
    return f"outcome {out.outcome!r}, {out.items_lost} items lost:\n" + "\n".join(out.problems)
