"""Inputs of the wrong shape: a clear InvalidInputError naming what is wrong, no traceback."""

from __future__ import annotations

import pytest

from .conftest import case_ids, explain


@pytest.mark.parametrize("case", case_ids("api"))
def test_a_wrongly_shaped_input_gets_an_error_naming_the_mistake(run_fault, case: str) -> None:
    out = run_fault(case)
    assert out.passed, explain(out)
