"""Ingest runs at a lower CPU priority than searches: the job threads, the writer threads and
parser processes they start, and the index upkeep thread; the server's own threads do not."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from omnireader.niceness import lower_this_thread, thread_nice

from .conftest import Running, wait_job

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="per-thread priorities are a Linux feature"
)


def _in_thread(fn):  # type: ignore[no-untyped-def]
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join(timeout=120)
    return out[0]


def test_a_lowered_thread_passes_its_priority_to_threads_and_worker_processes() -> None:
    from omnireader.batch.workers import Job, WorkerPool

    before = thread_nice()

    def lowered() -> tuple[int, int, list[int]]:
        mine = lower_this_thread(before + 7)
        child = _in_thread(thread_nice)
        # A fork-server worker does not descend from this thread: it is told the value.
        pool = WorkerPool(thread_nice, 1, timeout=60, memory_mb=None)
        workers = [r.value for r in pool.run([Job(key="a", args={}), Job(key="b", args={})])]
        return mine, child, workers

    mine, child, workers = _in_thread(lowered)
    assert mine == before + 7 and child == before + 7
    assert workers == [before + 7, before + 7]
    assert thread_nice() == before  # the calling thread is untouched


def test_server_ingest_threads_run_niced_and_search_threads_do_not(serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(ingest_nice=9)
    with running.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[("files", ("a.txt", b"The heron nests by the lagoon.", "text/plain"))],
        )
        assert r.status_code == 202, r.text
        assert wait_job(c, r.json()["job_id"])["status"] == "done"
        service = running.app.state.service
        job_threads = list(service.jobs._pool._threads)
        assert job_threads
        for t in [*job_threads, service.job_store._thread]:
            assert os.getpriority(os.PRIO_PROCESS, t.native_id) == 9, t.name
        # Searches run in the server's request threads, at the process's own priority.
        assert os.getpriority(os.PRIO_PROCESS, running.thread.native_id) == thread_nice()
        hits = c.post("/v1/search", json={"query": "heron lagoon", "k": 3}).json()["results"]
        assert hits and "heron" in hits[0]["item"]["memory"]
