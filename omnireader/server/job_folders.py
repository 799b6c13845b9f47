"""An ingest job on disk: its folder in the spool, ``job.json`` and ``files/``.

Each job is a folder in the spool: ``job.json`` (its state, rewritten atomically as it
goes) and ``files/`` (the uploads). A folder without a
readable ``job.json`` is an upload that never became a job.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from omnireader.server.schemas import JobFile, JobState

__all__ = ["save_job", "read_job", "lost_uploads", "resume_or_fail", "job_files"]


def save_job(root: Path, job: JobState) -> None:
    """Write ``job.json`` of ``job`` in its folder under ``root``."""
    folder = root / job.id
    tmp = folder / "job.json.tmp"
    tmp.write_text(job.model_dump_json())
    os.replace(tmp, folder / "job.json")  # a reader never sees half a file


def read_job(folder: Path) -> JobState | None:
    """The job a folder holds; None, with the folder removed, for an upload that never
    became a job (no ``job.json``, or one that does not read)."""
    state_file = folder / "job.json"
    if not state_file.exists():
        shutil.rmtree(folder, ignore_errors=True)  # an upload that never became a job
        return None
    try:
        return JobState.model_validate_json(state_file.read_text())
    except ValueError:
        shutil.rmtree(folder, ignore_errors=True)
        return None


def lost_uploads(folder: Path, job: JobState) -> list[str]:
    """The names of the job's files not done whose uploads are gone from its folder."""
    return [f.name for f in job.files if not f.done and not (folder / f.path).exists()]


def resume_or_fail(folder: Path, job: JobState) -> bool:
    """Set an unfinished job a stopped server left to queued again (True), or to failed
    with the lost uploads named when some are gone (False)."""
    missing = lost_uploads(folder, job)
    if missing:
        job.status = "failed"
        job.error = (
            "the server stopped during this job and these uploads were lost: "
            + ", ".join(missing)
            + "; upload them again"
        )
        return False
    job.resumed += 1
    job.status = "queued"
    return True


def job_files(spooled: list[Any], folder: Path) -> list[JobFile]:
    """The job's record of its spooled uploads, their paths relative to its folder."""
    return [
        JobFile(name=s.name, path=str(s.path.relative_to(folder)), size=s.size) for s in spooled
    ]
