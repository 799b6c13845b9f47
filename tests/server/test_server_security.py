"""Path and SSRF refusals, upload names, and the limits (413 / 429) of `omnireader serve`."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from pathlib import Path

from .conftest import Running, wait_job


def test_local_paths_are_never_read(serve: Callable[..., Running], tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0 the server's own file")
    server = serve()
    with server.client() as c:
        for part in (
            {"type": "file", "file": {"path": str(secret)}},
            {"type": "input_file", "path": str(secret)},
            {"type": "image_url", "image_url": {"url": f"file://{secret}"}},
        ):
            r = c.post("/v1/read", json={"inputs": [part]})
            assert r.status_code == 400, (part, r.text)
            assert "root:x" not in r.text
        # Plain strings that name files are read as the text they are, never opened.
        for text in (str(secret), "../" * 6 + str(secret).lstrip("/"), "/etc/passwd"):
            r = c.post("/v1/read", json={"inputs": text})
            assert r.status_code == 200
            assert all("root:x" not in i["memory"] for i in r.json()["items"])
        r = c.post("/v1/read", json={"inputs": f"file://{secret}"})
        assert r.status_code == 400
        # Ingest's JSON inputs go through the same rules.
        r = c.post(
            "/v1/ingest",
            json={
                "inputs": [
                    {"role": "user", "content": [{"type": "file", "file": {"path": str(secret)}}]}
                ]
            },
        )
        assert r.status_code == 400
        job = c.post("/v1/ingest", json={"inputs": [str(secret)], "wait": True}).json()
        assert job["status"] == "done"
        hits = c.post("/v1/search", json={"query": "root server file"}).json()["results"]
        assert all("root:x" not in h["text"] for h in hits)


def test_urls_go_through_the_address_guard(serve: Callable[..., Running]) -> None:
    server = serve()
    with server.client() as c:
        # The server itself is on loopback: a URL pointing at it is refused, not fetched.
        r = c.post("/v1/read", json={"inputs": f"{server.url}/healthz"})
        assert r.status_code == 200
        body = r.json()
        assert body["items"] == []
        assert body["failures"][0]["error"] == "blocked_url"


def test_upload_names_are_labels_not_paths(serve: Callable[..., Running], tmp_path: Path) -> None:
    server = serve()
    with server.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[
                ("files", ("../../escaped.txt", b"A note about otters.", "text/plain")),
                ("files", ("/etc/cron.d/x.txt", b"A note about beavers.", "text/plain")),
            ],
        )
        job = wait_job(c, r.json()["job_id"])
        assert job["status"] == "done"
        assert [f["name"] for f in job["files"]] == ["escaped.txt", "x.txt"]
    assert not (tmp_path.parent / "escaped.txt").exists()
    assert not (tmp_path / "escaped.txt").exists()
    spool = server.config.spool_dir / "jobs"
    assert not any(p.is_file() and p.name != "job.json" for p in spool.rglob("*"))  # cleaned


def test_size_and_count_limits_are_413(serve: Callable[..., Running]) -> None:
    server = serve(
        limits={
            "max_request_bytes": 4096,
            "max_upload_bytes": 2000,
            "max_files_per_request": 2,
            "max_spool_bytes": 10_000_000,
        }
    )
    with server.client() as c:
        r = c.post("/v1/search", json={"query": "x" * 5000})
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        r = c.post(
            "/v1/read",
            content=json.dumps({"inputs": "y" * 8000}).encode(),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 413
        r = c.post("/v1/ingest", files=[("files", ("big.txt", b"z" * 3000, "text/plain"))])
        assert r.status_code == 413 and "big.txt" in r.json()["message"]
        r = c.post(
            "/v1/ingest", files=[("files", (f"f{n}.txt", b"small", "text/plain")) for n in range(3)]
        )
        assert r.status_code == 413 and "more than 2 files" in r.json()["message"]
        # Nothing of the refused uploads is left in the spool.
        assert not list((server.config.spool_dir / "jobs").iterdir())
        assert c.get("/healthz").status_code == 200  # and the server is fine


def test_spool_total_is_limited(serve: Callable[..., Running]) -> None:
    server = serve(limits={"max_upload_bytes": 100_000, "max_spool_bytes": 5000})
    with server.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[
                ("files", ("a.txt", b"a" * 3000, "text/plain")),
                ("files", ("b.txt", b"b" * 3000, "text/plain")),
            ],
        )
        assert r.status_code == 413 and "spool" in r.json()["message"]
        ok = c.post("/v1/ingest", files=[("files", ("a.txt", b"fits " * 100, "text/plain"))])
        assert ok.status_code == 202
        assert wait_job(c, ok.json()["job_id"])["status"] == "done"


def test_rate_limit_is_429_per_key(serve: Callable[..., Running]) -> None:
    server = serve(
        keys={"alice-key-0001": "alice", "bob-key-000002": "bob"}, limits={"rate_per_minute": 5}
    )
    with server.client({"X-API-Key": "alice-key-0001"}) as alice:
        codes = [alice.get("/v1/stats").status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        r = alice.get("/v1/stats")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    with server.client({"X-API-Key": "bob-key-000002"}) as bob:  # another key, its own rate
        assert bob.get("/v1/stats").status_code == 200


def test_concurrent_jobs_limit_is_429(serve: Callable[..., Running]) -> None:
    server = serve(limits={"max_concurrent_jobs": 1})
    files = [
        ("files", (f"n{n}.txt", f"note number {n} about herons".encode(), "text/plain"))
        for n in range(4)
    ]
    with server.client() as c:
        first = c.post("/v1/ingest", files=files)
        assert first.status_code == 202
        second = c.post("/v1/ingest", files=files[:1])
        assert second.status_code == 429 and second.json()["error"] == "too_many_jobs"
        assert wait_job(c, first.json()["job_id"])["files_done"] == 4
        third = c.post("/v1/ingest", files=files[:1])
        assert third.status_code == 202


def test_a_full_queue_says_when_to_retry_from_how_fast_jobs_end(
    serve: Callable[..., Running],
) -> None:
    server = serve(limits={"max_concurrent_jobs": 2})
    jobs = server.app.state.service.jobs
    one = [("files", ("n.txt", b"note about herons", "text/plain"))]
    with server.client() as c:
        with jobs._burst:  # the jobs stay queued while the test holds this
            assert all(c.post("/v1/ingest", files=one).status_code == 202 for _ in range(2))
            r = c.post("/v1/ingest", files=one)
            assert r.status_code == 429 and r.headers["Retry-After"] == "5"  # nothing ended yet
        for job in list(jobs._jobs):
            wait_job(c, job)
        with jobs._burst:
            assert all(c.post("/v1/ingest", files=one).status_code == 202 for _ in range(2))
            r = c.post("/v1/ingest", files=one)
            # two jobs ended moments ago: a slot frees about that often
            assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) < 5, r.headers


def test_base64_file_part_is_read(serve: Callable[..., Running]) -> None:
    server = serve()
    data = base64.b64encode(b"Quarterly revenue grew by nine percent.").decode()
    with server.client() as c:
        r = c.post(
            "/v1/read",
            json={"inputs": [{"type": "file", "file": {"filename": "q.txt", "file_data": data}}]},
        )
        assert r.status_code == 200, r.text
        assert "nine percent" in r.json()["items"][0]["memory"]


def test_search_stays_fast_while_a_job_runs(serve: Callable[..., Running]) -> None:
    """A running ingest job does not hold up /v1/search (it runs off the event loop)."""
    server = serve()
    files = [
        ("files", (f"d{n}.txt", f"document {n} about cranes".encode() * 50, "text/plain"))
        for n in range(6)
    ]
    with server.client() as c:
        c.post("/v1/ingest", json={"inputs": ["warm up the store"], "wait": True})
        job = c.post("/v1/ingest", files=files).json()["job_id"]
        answered = []

        def search() -> None:
            answered.append(c.post("/v1/search", json={"query": "cranes"}).status_code)

        t = threading.Thread(target=search)
        t.start()
        t.join(timeout=30)
        assert answered == [200]
        status = c.get(f"/v1/jobs/{job}").json()["status"]
        assert status in ("queued", "running", "done")
        assert wait_job(c, job)["files_done"] == 6


def test_a_bad_upload_fails_alone_and_is_named(serve: Callable[..., Running]) -> None:
    server = serve()
    with server.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[
                ("files", ("broken.pdf", b"%PDF-1.7 this is not really a PDF", "application/pdf")),
                ("files", ("good.txt", b"Flamingos stand on one leg.", "text/plain")),
            ],
        )
        job = wait_job(c, r.json()["job_id"])
        assert job["status"] == "done" and job["files_done"] == 2
        assert len(job["failures"]) == 1
        failure = job["failures"][0]
        assert "broken.pdf" in failure["input"] and "spool" not in json.dumps(failure)
        assert c.post("/v1/search", json={"query": "flamingos"}).json()["results"]


def test_the_web_page_is_served_and_self_contained(serve: Callable[..., Running]) -> None:
    server = serve()
    with server.client() as c:
        page = c.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for needed in ("/v1/ingest", "/v1/search", "/v1/items/", "status_url"):
            assert needed in page.text
        assert "http://" not in page.text and "https://" not in page.text  # works offline
