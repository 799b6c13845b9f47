"""Broken, disguised and hostile files: reported under their code, and nothing else lost."""

from __future__ import annotations

import pytest

from .conftest import case_ids, explain

FILE_CASES = [c for c in case_ids("files") if c not in ("all-files-one-ingest", "unreadable-file")]


@pytest.mark.parametrize("case", FILE_CASES)
def test_a_bad_file_is_reported_under_its_code_and_the_rest_of_its_folder_is_read(
    run_fault, case: str
) -> None:
    out = run_fault(case)
    assert out.passed, explain(out)


def test_a_file_the_user_may_not_read_is_unreadable_and_the_others_are_read(run_fault) -> None:
    out = run_fault("unreadable-file")
    assert out.passed, explain(out)


def test_every_bad_file_in_one_ingest_leaves_exactly_the_readable_items_in_the_store(
    run_fault,
) -> None:
    out = run_fault("all-files-one-ingest", via="ingest")
    assert out.via == "ingest"
    assert out.passed, explain(out)
