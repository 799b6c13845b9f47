"""The spool limit's count of bytes on disk: unfinished jobs' files from their records, uploads
still arriving from the disk, finished jobs not at all."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from omnireader.server.jobs import JobManager
from omnireader.server.schemas import JobFile, JobState


def _job_with_file(jobs: JobManager, size: int) -> JobState:
    job_id, folder = jobs.new_folder()
    (folder / "files").mkdir()
    (folder / "files" / "0000").write_bytes(b"x" * size)
    return JobState(id=job_id, files=[JobFile(name="a.txt", path="files/0000", size=size)])


def test_spooled_bytes_count_unfinished_jobs_and_arriving_uploads_only(tmp_path: Path) -> None:
    release = threading.Event()

    def ingest_file(job: JobState, paths: list[Path]) -> dict[str, Any]:
        release.wait(30)
        return {"items": len(paths), "failures": []}

    jobs = JobManager(tmp_path, 4, ingest_file, lambda job: {"items": 0, "failures": []})
    try:
        running = _job_with_file(jobs, 3000)
        jobs.submit(running)
        arriving, folder = jobs.new_folder()  # an upload still being received: no job yet
        (folder / "part").write_bytes(b"y" * 500)
        assert jobs.spooled_bytes() == 3000 + 500

        release.set()
        while (state := jobs.get(running.id)) is None or state.status != "done":
            jobs.wait_change(running.id, state.version if state else 0, 5)
        assert jobs.spooled_bytes() == 500  # the finished job counts no more
    finally:
        release.set()
        jobs.shutdown()
