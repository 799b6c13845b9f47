"""An ingest report as a job counts it: shared by the service and its writer processes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

__all__ = ["counts_of"]


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


def _unspool(text: str, files_dir: str) -> str:
    """``<spool>/jobs/<id>/files/0003/report.pdf`` -> ``report.pdf`` in a failure's text."""
    return re.sub(re.escape(files_dir) + r"/\d{4}/", "", text)
