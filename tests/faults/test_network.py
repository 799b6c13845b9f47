"""URLs to internal addresses are refused before connecting; slow downloads are cut."""

from __future__ import annotations

import pytest

from .conftest import case_ids, explain


@pytest.mark.parametrize("case", case_ids("network"))
def test_a_hostile_url_is_refused_or_cut_and_the_rest_of_the_message_is_kept(
    run_fault, case: str
) -> None:
    out = run_fault(case)
    assert out.passed, explain(out)
