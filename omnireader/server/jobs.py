"""Ingest jobs: uploads on disk first, a job id at once, the work in a background thread.

Each job is a folder in the spool (:mod:`.job_folders`). The job file is written before the
id is returned, so a job is never lost: when the server starts it resumes every job left queued or running (its
files are still on disk; re-reading a file is an upsert, so nothing is duplicated), reports
one whose files are gone as failed with the files named, and removes folders of uploads
that never became a job. A finished job's uploads are deleted; its report stays.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from omnireader.server.job_bursts import claim_burst
from omnireader.server.job_counts import added_counts
from omnireader.server.job_folders import read_job, resume_or_fail, save_job
from omnireader.server.job_pace import JobPace
from omnireader.server.schemas import Delivery, JobState

__all__ = ["JobManager"]

_DONE = ("done", "failed")


GroupIngest = Callable[[list[tuple[JobState, list[Path]]]], dict[str, dict[str, Any]]]


class JobManager:
    """Runs jobs through ``ingest_file(job, paths) -> {"items", "failures"}`` per group of
    files and ``ingest_inputs(job)`` for their JSON inputs.

    With ``ingest_jobs`` (``[(job, paths)] -> {job id: {"items", "failures"}}``), the
    upload-only jobs queued when one starts that ``joinable(job)`` allows and that share its
    mode and info are run with it as one call (up to ``burst_files`` files,
    :mod:`.job_bursts`): a burst of one-file uploads becomes one batch ingest and one commit
    instead of one each.
    """

    def __init__(
        self,
        spool: Path,
        max_jobs: int,
        ingest_file: Callable[[JobState, list[Path]], dict[str, Any]],
        ingest_inputs: Callable[[JobState], dict[str, Any]],
        group: int = 8,
        nice: int = 0,
        ingest_jobs: GroupIngest | None = None,
        joinable: Callable[[JobState], bool] | None = None,
        burst_files: int = 256,
    ) -> None:
        self.group = max(1, group)
        self._ingest_jobs = ingest_jobs
        self._joinable = joinable or (lambda job: False)
        self.burst_files = burst_files
        # one burst at a time: the next one takes every job queued while this one ran
        self._burst = threading.Lock()
        self._taken: set[str] = set()  # jobs a pool thread (or a burst) has started
        self._pace = JobPace()  # when recent jobs ended
        self.root = spool / "jobs"
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_jobs = max_jobs
        self._ingest_file = ingest_file
        self._ingest_inputs = ingest_inputs
        self._jobs: dict[str, JobState] = {}
        # told each job id as the job ends (under the jobs' lock: it must only hand it on)
        self.on_finished: Callable[[str], None] | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        # Jobs beyond two wait their turn: they would only queue on the store's write lock
        # and take cores from searches. They run at a lower priority (``nice``), and so do
        # the writer threads and parser processes they start.
        from omnireader.niceness import lower_this_thread

        self._pool = ThreadPoolExecutor(
            max_workers=min(max_jobs, 2),
            thread_name_prefix="omnireader-job",
            initializer=lower_this_thread,
            initargs=(nice,),
        )

    # ------------------------------------------------------------------ lifecycle

    def recover(self) -> list[str]:
        """Resume or report what a killed server left; return the ids resumed."""
        resumed: list[str] = []
        for folder in sorted(self.root.iterdir()):
            job = read_job(folder)
            if job is None:
                continue
            if job.status in _DONE:
                with self._lock:
                    self._jobs[job.id] = job
                shutil.rmtree(folder / "files", ignore_errors=True)
                continue
            # Changed and saved before it is in ``_jobs``, under the lock: a burst started by
            # a job resumed earlier in this loop takes queued jobs from there and saves them.
            with self._lock:
                resumable = resume_or_fail(folder, job)
                save_job(self.root, job)
                self._jobs[job.id] = job
            if not resumable:
                continue
            resumed.append(job.id)
            self._pool.submit(self._run, job.id)
        return resumed

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ jobs

    def new_folder(self) -> tuple[str, Path]:
        job_id = uuid.uuid4().hex
        folder = self.root / job_id
        folder.mkdir()
        return job_id, folder

    def active(self) -> int:
        with self._lock:
            return sum(1 for j in self._jobs.values() if j.status not in _DONE)

    def retry_after(self, unknown: int = 5) -> int:
        """Seconds a client refused for a full queue should wait (:mod:`.job_pace`)."""
        return self._pace.retry_after(unknown)

    def spooled_bytes(self) -> int:
        """Bytes of the uploads on disk: the files of unfinished jobs (their sizes are in the
        jobs' records, and a file is deleted once done) and the folders of uploads still
        arriving (walked: nothing records them yet). Walking every job's folder, as the spool
        limit first did, cost each upload ~50 ms of the interpreter lock by the end of a
        200-upload run, and walking the unfinished ones still ~5% of the server's samples
        under upload load (py-spy, ``bench_server.py``)."""
        from omnireader.server.spool import spool_bytes

        with self._lock:
            known = set(self._jobs)
            total = sum(
                f.size
                for j in self._jobs.values()
                if j.status not in _DONE
                for f in j.files
                if not f.done
            )
        with os.scandir(self.root) as entries:
            for entry in entries:
                if entry.name not in known and entry.is_dir():
                    total += spool_bytes(Path(entry.path))
        return total

    def submit(self, job: JobState) -> None:
        """Record the job on disk, then start it (the caller returns its id after this)."""
        with self._lock:
            # Saved under the lock, as every update is: a running burst takes queued jobs
            # from ``_jobs`` and saves them, and two saves of one job at once race on its
            # temporary file (a bench run caught it as a 500 on an upload).
            self._jobs[job.id] = job
            save_job(self.root, job)
        self._pool.submit(self._run, job.id)

    def get(self, job_id: str) -> JobState | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return job.model_copy(deep=True) if job else None

    def all(self) -> list[JobState]:
        with self._lock:
            return [j.model_copy(deep=True) for j in self._jobs.values()]

    def record_delivery(self, job_id: str, delivery: Delivery) -> None:
        """Set the job's webhook record, tell the waiters, and save it (it survives restarts)."""
        with self._changed:
            job = self._jobs.get(job_id)
            if job is None or not (self.root / job_id).is_dir():
                return
            job.callback = delivery
            job.version += 1
            save_job(self.root, job)
            self._changed.notify_all()

    def wait_change(self, job_id: str, version: int, timeout: float) -> JobState | None:
        """The job once its version is past ``version`` (or after ``timeout``)."""
        with self._changed:
            self._changed.wait_for(
                lambda: (j := self._jobs.get(job_id)) is None or j.version > version, timeout
            )
            job = self._jobs.get(job_id)
            return job.model_copy(deep=True) if job else None

    # ------------------------------------------------------------------ running

    def _run(self, job_id: str) -> None:
        job = self._jobs[job_id]
        if self._ingest_jobs is not None and self._burst_member(job):
            # Inside the lock: the jobs arriving while this burst runs wait for the next.
            with self._burst:
                burst = self._claim(job)
                if len(burst) > 1:
                    self._run_burst(burst)
                elif burst:
                    self._run_alone(job)
            return
        with self._lock:
            if job.id in self._taken:
                return
            self._taken.add(job.id)
        self._run_alone(job)

    def _burst_member(self, job: JobState) -> bool:
        return not job.inputs and self._joinable(job)

    def _claim(self, first: JobState) -> list[JobState]:
        """``first`` and the queued jobs that can join it, marked taken; [] when another
        burst already took ``first``."""
        with self._lock:
            if first.id in self._taken:
                return []
            return claim_burst(
                first, self._jobs.values(), self._taken, self._burst_member, self.burst_files
            )

    def _run_burst(self, burst: list[JobState]) -> None:
        now = time.time()
        for job in burst:
            self._update(job, save=False, status="running", started=job.started or now)
        todo = {job.id: [f for f in job.files if not f.done] for job in burst}
        try:
            got = self._ingest_jobs(
                [(job, [self.root / job.id / f.path for f in todo[job.id]]) for job in burst]
            )  # type: ignore[misc]
        except Exception:  # noqa: BLE001 - each job alone: one's fault fails only that one
            for job in burst:
                self._run_alone(job)
            return
        for job in burst:
            folder = self.root / job.id
            for f in todo[job.id]:
                f.done = True
                (folder / f.path).unlink(missing_ok=True)
            self._update(
                job,
                files_done=job.files_done + len(todo[job.id]),
                **added_counts(job, got[job.id]),
                status="done",
                finished=time.time(),
            )
            shutil.rmtree(folder / "files", ignore_errors=True)

    def _run_alone(self, job: JobState) -> None:
        folder = self.root / job.id
        self._update(job, save=False, status="running", started=job.started or time.time())
        try:
            if job.inputs and not job.inputs_done:
                got = self._ingest_inputs(job)
                self._update(job, inputs_done=True, **added_counts(job, got))
            todo = [f for f in job.files if not f.done]
            # A few files per batch ingest: one worker pool and one index refresh for the
            # group, and progress after each group.
            for start in range(0, len(todo), self.group):
                group = todo[start : start + self.group]
                got = self._ingest_file(job, [folder / f.path for f in group])
                for f in group:
                    f.done = True
                    (folder / f.path).unlink(missing_ok=True)
                self._update(job, files_done=job.files_done + len(group), **added_counts(job, got))
            self._update(job, status="done", finished=time.time())
        except Exception as e:  # the job fails with its reason; the server goes on
            self._update(
                job, status="failed", finished=time.time(), error=f"{type(e).__name__}: {e}"
            )
        finally:
            if job.status in _DONE:
                shutil.rmtree(folder / "files", ignore_errors=True)

    def _update(self, job: JobState, *, save: bool = True, **changes: Any) -> None:
        """Apply ``changes``, tell the waiters, and record the job on disk unless ``save`` is
        False: "running" is not recorded, since a restart resumes a queued job and a running one
        alike (each save is a file write and a rename, which under upload load held the
        interpreter lock that searches need: ~12% of the server's samples, py-spy)."""
        with self._changed:
            for k, v in changes.items():
                setattr(job, k, v)
            if changes.get("status") in _DONE:
                self._pace.ended()
            job.version += 1
            if save:
                save_job(self.root, job)
            self._changed.notify_all()
            if changes.get("status") in _DONE and self.on_finished is not None:
                self.on_finished(job.id)
