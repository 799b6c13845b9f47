"""The fault matrix tested on itself: with PDF text cut short on purpose (the ``pdf_cut``
plant, loaded through PYTHONPATH by a child process), the rows whose controls include a PDF
fail on that PDF's text; as the code is, the same rows pass.

The suite's version reads in-process (``via reader``) to stay quick;
``tests/faultkit/selftest.py`` runs the whole matrix through the batch ingest, where the
plant is in every worker too."""

from __future__ import annotations

from pathlib import Path

from tests.faultkit.harness import RunEnv, run_case
from tests.faultkit.registry import cases
from tests.faultkit.selftest import MUST_FAIL, PDF_CONTROL, judge, run_matrix


def test_rows_with_a_pdf_control_fail_when_pdf_text_is_cut_short_and_pass_when_not(
    tmp_path: Path,
) -> None:
    planted = run_matrix(list(MUST_FAIL), scale="test", via="reader", planted=True)
    clean = []
    for case in cases(list(MUST_FAIL)):
        out = run_case(case, RunEnv(tmp_path / case.id, scale="test", via="reader"))
        clean.append({"id": case.id, "status": out.status, **out.model_dump()})

    verdicts = judge(clean, planted)

    assert [v["id"] for v in verdicts] == list(MUST_FAIL)
    assert all(v["pdf_control"] for v in verdicts), verdicts
    assert [v["clean"] for v in verdicts] == ["pass"] * len(MUST_FAIL), verdicts
    assert [v["planted"] for v in verdicts] == ["FAIL"] * len(MUST_FAIL), verdicts
    assert all(v["ok"] and PDF_CONTROL in v["why"] for v in verdicts), verdicts
