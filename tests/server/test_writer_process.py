"""Fast-mode ingest runs in a child process: searches keep the server's interpreter lock and
cores. A child that dies mid-call is replaced and the call retried, and nothing is lost or
written twice; the child runs niced in every thread; the server's jobs go through it."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from omnireader.server.writer_proc import WriterDiedError, WriterPool, WriterProcess
from omnireader.store import Store

from .conftest import Running, wait_job

linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="per-thread priorities are a Linux feature"
)


def _files(root: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        d = root / "files" / f"{i + 1:04d}"
        d.mkdir(parents=True)
        f = d / f"note{i:02d}.txt"
        f.write_text(f"Note {i}: the unique token walrus{i} sleeps on the ice.")
        out.append(f)
    return out


def _keys(db: Path) -> list[str]:
    return sorted(i.metadata.key for i in Store.open(db, create=False).iter_items())


def test_a_writer_killed_mid_call_is_replaced_and_nothing_doubles(tmp_path: Path) -> None:
    db = tmp_path / "db.lance"
    Store.open(db, create=True)
    files = _files(tmp_path / "job", 80)
    pool = WriterPool({"db": str(db), "nice": 0, "workers": 1})
    try:
        pool.ingest({"paths": [str(files[0])], "info": {}, "mode": "fast"})  # warm child
        first = pool.pids()
        assert len(first) == 1
        result: dict[str, object] = {}

        def call() -> None:
            try:
                result["got"] = pool.ingest(
                    {"paths": [str(f) for f in files], "info": {}, "mode": "fast"}
                )
            except Exception as e:  # noqa: BLE001 - the test reads it
                result["error"] = e

        t = threading.Thread(target=call)
        t.start()
        time.sleep(0.05)  # the request is sent; the child is on it (80 files take seconds)
        os.kill(first[0], signal.SIGKILL)
        t.join(timeout=300)
        assert "error" not in result, result
        assert pool.restarts == 1
        assert pool.pids() and pool.pids() != first  # a new child did the work
        # every file once, whatever the killed child had committed
        assert _keys(db) == sorted(f.name for f in files)
    finally:
        pool.close()
    assert pool.pids() == []


def test_a_writer_that_dies_twice_fails_the_call_with_the_reason(tmp_path: Path) -> None:
    pool = WriterPool({"db": str(tmp_path / "db.lance"), "nice": 0, "workers": 1})
    files = [str(f) for f in _files(tmp_path / "job", 80)]
    killed: list[int] = []

    def kill_each_child_it_sees(times: int) -> None:  # the first child, then its replacement
        deadline = time.monotonic() + 120
        while len(killed) < times and time.monotonic() < deadline:
            for pid in pool.pids():
                if pid not in killed:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            time.sleep(0.005)

    killer = threading.Thread(target=kill_each_child_it_sees, args=(2,))
    killer.start()
    try:
        with pytest.raises(WriterDiedError, match="exit status -9"):
            pool.ingest({"paths": files, "info": {}, "mode": "fast"})
        killer.join()
        assert len(killed) == 2 and pool.restarts == 1
        # the pool still works afterwards
        got = pool.ingest({"paths": files[:1], "info": {}, "mode": "fast"})
        assert got["items"] == 1 and got["failures"] == []
    finally:
        pool.close()


def test_a_writer_that_cannot_open_the_store_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    writer = WriterProcess({"db": str(blocker / "db.lance"), "nice": 0})
    with pytest.raises(WriterDiedError, match="did not start"):
        writer.start()
    assert not writer.alive()


def _nice(pid: int) -> list[int]:
    return [os.getpriority(os.PRIO_PROCESS, int(t)) for t in os.listdir(f"/proc/{pid}/task")]


@linux
def test_server_jobs_run_in_a_niced_child_and_searches_see_them(serve) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(ingest_nice=7)
    service = running.app.state.service
    with running.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[("files", ("a.txt", b"The heron nests by the lagoon.", "text/plain"))],
        )
        assert r.status_code == 202, r.text
        job = wait_job(c, r.json()["job_id"], timeout=120)
        assert job["status"] == "done" and job["items_written"] == 1, job
        pids = service.writers.pids()
        assert len(pids) == 1 and pids[0] != os.getpid()
        base = os.getpriority(os.PRIO_PROCESS, 0)
        # LanceDB's native threads included: they started after the value was set
        assert set(_nice(pids[0])) == {min(19, base + 7)}
        hits = c.post("/v1/search", json={"query": "heron lagoon", "k": 3}).json()["results"]
        assert hits and "heron" in hits[0]["item"]["memory"]
        # kill the child between jobs: the next job starts a new one
        os.kill(pids[0], signal.SIGKILL)
        r = c.post(
            "/v1/ingest", files=[("files", ("b.txt", b"An otter swims in the cove.", "text/plain"))]
        )
        job = wait_job(c, r.json()["job_id"], timeout=120)
        assert job["status"] == "done" and job["items_written"] == 1, job
        assert service.writers.pids() and service.writers.pids() != pids
        assert c.get("/v1/stats").json()["items"] == 2


def test_uploads_queued_together_are_one_ingest_and_each_job_keeps_its_counts(serve) -> None:  # type: ignore[no-untyped-def]
    """A burst of one-file uploads becomes one batch ingest (one commit to the items table,
    not one each: every commit is a fragment each search scans until the next compaction),
    and each job still reports its own items and failures; a job of another user or mode
    is not joined."""
    running: Running = serve(ingest_nice=0)
    service = running.app.state.service
    store = service.store
    with running.client() as c:
        first = c.post(
            "/v1/ingest", files=[("files", ("warm.txt", b"A warm-up note.", "text/plain"))]
        )
        wait_job(c, first.json()["job_id"], timeout=120)  # the child is up
        before = service.writers.calls
        ids: dict[str, str] = {}
        with service.jobs._burst:  # the writer is "busy": these uploads queue meanwhile
            for i in range(9):
                r = c.post(
                    "/v1/ingest",
                    files=[
                        (
                            "files",
                            (f"n{i}.txt", f"Note {i}: the token kiwi{i}.".encode(), "text/plain"),
                        )
                    ],
                )
                assert r.status_code == 202, r.text
                ids[f"n{i}.txt"] = r.json()["job_id"]
            r = c.post(
                "/v1/ingest",
                files=[("files", ("bad.pdf", b"%PDF-1.7 not really a pdf", "application/pdf"))],
            )
            ids["bad.pdf"] = r.json()["job_id"]
            r = c.post(
                "/v1/ingest",
                data={"info": '{"session_id": "other"}'},
                files=[
                    ("files", ("s.txt", b"Another session's note about a walrus.", "text/plain"))
                ],
            )
            ids["s.txt"] = r.json()["job_id"]
        jobs = {name: wait_job(c, job_id, timeout=120) for name, job_id in ids.items()}
        for i in range(9):
            job = jobs[f"n{i}.txt"]
            assert job["status"] == "done" and job["items_written"] == 1, job
            assert job["failures"] == [] and job["files_done"] == 1
        bad = jobs["bad.pdf"]
        assert bad["status"] == "done" and bad["items_written"] == 0
        assert len(bad["failures"]) == 1 and "bad.pdf" in bad["failures"][0]["input"]
        assert "/jobs/" not in str(bad["failures"])  # spool paths never reach a client
        assert jobs["s.txt"]["items_written"] == 1
        # the ten uploads of one info were one ingest; the other session's, its own
        assert service.writers.calls - before == 2
        keys = sorted(i.metadata.key for i in store.iter_items())
        assert keys == sorted(["warm.txt", "s.txt", *(f"n{i}.txt" for i in range(9))])
    spool = Path(running.config.spool_dir) / "jobs"
    assert not any(spool.glob("*/files/*/*"))  # every upload deleted after ingest
