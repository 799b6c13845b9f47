"""Hypothesis 3 (part): the spool-limit check walked every job folder on each upload.

    python bench/notes/server_latency/h3_spool_walk.py

A spool with ``done`` finished jobs (their job.json left) and 20 queued one-file jobs: the
old check (``spool_bytes`` over the whole spool) against ``JobManager.spooled_bytes``
(unfinished jobs' folders only). Both in CPU ms per call, alone (no other load).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from omnireader.server.jobs import JobManager
from omnireader.server.schemas import JobFile, JobState
from omnireader.server.spool import spool_bytes


def main(done: int = 200, queued: int = 20) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spool = Path(tmp)
        jm = JobManager(spool, 64, lambda j, p: {}, lambda j: {})
        for n in range(done + queued):
            job_id, folder = jm.new_folder()
            (folder / "files" / "0001").mkdir(parents=True)
            f = folder / "files" / "0001" / "a.txt"
            f.write_text("x" * 60)
            job = JobState(id=job_id, files=[JobFile(name="a.txt", path="files/0001/a.txt",
                                                     size=60)],
                           status="done" if n < done else "queued")
            jm._jobs[job_id] = job
            jm._save(job)
            if n < done:
                f.unlink()
        for name, fn in (("walk the whole spool", lambda: spool_bytes(spool)),
                         ("unfinished jobs only", jm.spooled_bytes)):
            c = time.process_time()
            for _ in range(50):
                got = fn()
            print(f"{name}: {1000 * (time.process_time() - c) / 50:.2f} ms CPU a call "
                  f"({got} bytes)")
        jm.shutdown()


if __name__ == "__main__":
    main()
