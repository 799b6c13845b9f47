"""An ingest report as a job counts it (shared by the service and its writer processes), and
the job's totals with it added."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from omnireader.server.schemas import JobState

__all__ = ["counts_of", "added_counts"]


def counts_of(report: Any, path: Path | None) -> dict[str, Any]:
    """An ingest report as a job counts it: items written, failures (named by upload), and
    the items left fast in fine mode by reason."""
    failures = []
    for f in report.failures:
        data = f.model_dump(mode="json")
        if path is not None:  # clients know their upload by name, not by spool path
            for key in ("input", "message"):
                if isinstance(data.get(key), str):
                    data[key] = _unspool(data[key], str(path))
        failures.append(data)
    return {
        "items": report.items_inserted + report.items_updated,
        "failures": failures,
        # fine mode: items stored fast because the LLM failed on them, and why
        "refine_failed": report.refine_failed,
        "refine_reasons": dict(report.refine_reasons),
    }


def added_counts(job: JobState, got: dict[str, Any]) -> dict[str, Any]:
    """The job's totals with the counts ``got`` (:func:`counts_of`) of one more group added."""
    reasons = dict(job.refine_reasons)
    for reason, n in (got.get("refine_reasons") or {}).items():
        reasons[reason] = reasons.get(reason, 0) + n
    return {
        "items_written": job.items_written + got["items"],
        "failures": [*job.failures, *got["failures"]],
        "refine_failed": job.refine_failed + int(got.get("refine_failed") or 0),
        "refine_reasons": reasons,
    }


def _unspool(text: str, files_dir: str) -> str:
    """``<spool>/jobs/<id>/files/0003/report.pdf`` -> ``report.pdf`` in a failure's text."""
    return re.sub(re.escape(files_dir) + r"/\d{4}/", "", text)
