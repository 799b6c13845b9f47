"""Job webhooks against real HTTP receivers on 127.0.0.1 (started here): signed bodies,
retries with backoff, a hanging receiver, an unreachable one, a refusing one, the URL
guard, and a delivery left pending by a stopped server that the next one finishes."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from .conftest import ALICE, BOB, KEYS, Running

FAST = {
    "allow_private_urls": True,
    "webhook_backoff": 0.05,
    "webhook_timeout": 0.5,
    "webhook_attempts": 3,
}


class Receiver:
    """A real HTTP server that records every POST and answers ``statuses`` in turn (the
    last one from then on); ``hang`` seconds of silence before answering."""

    def __init__(self, statuses: list[int], hang: float = 0.0) -> None:
        self.statuses, self.hang = list(statuses), hang
        self.calls: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.calls.append(
                        {"headers": dict(self.headers), "body": body, "at": time.time()}
                    )
                    n = len(receiver.calls)
                if receiver.hang:
                    time.sleep(receiver.hang)
                status = receiver.statuses[min(n, len(receiver.statuses)) - 1]
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def receiver() -> Iterator[Callable[..., Receiver]]:
    made: list[Receiver] = []

    def make(statuses: list[int] | None = None, hang: float = 0.0) -> Receiver:
        made.append(Receiver(statuses or [200], hang))
        return made[-1]

    yield make
    for r in made:
        r.close()


def closed_port_url() -> str:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


def ingest(
    client: Any,
    callback_url: str,
    text: str = "The ferry to Inishmore leaves at nine from the stone pier.",
    **extra: Any,
) -> dict[str, Any]:
    r = client.post("/v1/ingest", json={"inputs": [text], "callback_url": callback_url, **extra})
    assert r.status_code in (200, 202), r.text
    return r.json()


def settled(client: Any, job_id: str, timeout: float = 30) -> dict[str, Any]:
    """The job once its delivery is no longer pending."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed") and job["callback"]["state"] != "pending":
            return job
        time.sleep(0.05)
    raise AssertionError(f"the delivery of job {job_id} did not settle: {job}")


def verify(call: dict[str, Any], secret: str) -> None:
    stamp = call["headers"]["X-OmniReader-Timestamp"]
    want = hmac.new(
        secret.encode(), stamp.encode() + b"." + call["body"], hashlib.sha256
    ).hexdigest()
    assert call["headers"]["X-OmniReader-Signature"] == f"sha256={want}"
    assert abs(int(stamp) - time.time()) < 120


def test_callback_gets_the_signed_final_status(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(keys=KEYS, **FAST)
    hook = receiver()
    with running.client(ALICE) as c:
        job_id = ingest(c, hook.url)["job_id"]
        job = settled(c, job_id)
        secret = c.get("/v1/webhooks/secret").json()["secret"]
    assert job["status"] == "done" and job["items_written"] >= 1
    record = job["callback"]
    assert record["state"] == "delivered" and record["attempts"] == 1
    assert record["last_status"] == 200 and record["last_error"] is None
    assert record["delivered_at"] >= job["finished"]
    assert len(hook.calls) == 1
    call = hook.calls[0]
    body = json.loads(call["body"])
    assert body["event"] == "job.done" and body["job"]["id"] == job_id
    assert body["job"]["status"] == "done"
    assert body["job"]["items_written"] == job["items_written"]
    assert "callback" not in body["job"] and "key_id" not in body["job"]
    assert call["headers"]["X-OmniReader-Job"] == job_id
    assert call["headers"]["X-OmniReader-Event"] == "job.done"
    verify(call, secret)
    # The secret is derived from the key as documented, so its holder can compute it too.
    key = next(k for k, u in KEYS.items() if u == "alice")
    derived = hmac.new(key.encode(), b"omnireader webhook secret v1", hashlib.sha256)
    assert secret == derived.hexdigest()
    with running.client(BOB) as c:
        assert c.get("/v1/webhooks/secret").json()["secret"] not in (secret, None)
        assert c.get(f"/v1/jobs/{job_id}").status_code == 404  # not bob's job


def test_a_receiver_that_fails_twice_is_retried_until_it_answers(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(**{**FAST, "webhook_backoff": 0.3})
    hook = receiver([500, 500, 200])
    with running.client() as c:
        job = settled(c, ingest(c, hook.url)["job_id"])
        secret = c.get("/v1/webhooks/secret").json()["secret"]
    assert job["callback"]["state"] == "delivered"
    assert job["callback"]["attempts"] == 3 and job["callback"]["last_status"] == 200
    assert [x["headers"]["X-OmniReader-Attempt"] for x in hook.calls] == ["1", "2", "3"]
    assert len({x["body"] for x in hook.calls}) == 1  # the same body every time
    for call in hook.calls:
        verify(call, secret)  # each attempt signed with its own timestamp
    # Backoff: 0.3 s, then 0.6 s. Only lower bounds (a loaded machine makes waits longer,
    # never shorter), less 0.1 s for the time each call took to arrive.
    gaps = [b["at"] - a["at"] for a, b in zip(hook.calls, hook.calls[1:])]
    assert gaps[0] >= 0.2 and gaps[1] >= 0.5, gaps


def test_a_hanging_receiver_never_holds_up_the_job(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(**{**FAST, "webhook_attempts": 2, "webhook_timeout": 1.0})
    hook = receiver([200], hang=3.0)
    with running.client() as c:
        # wait=true answers when the job ends, long before the two 1 s attempts are over
        done = ingest(c, hook.url, wait="true")
        assert done["status"] == "done" and done["callback"]["state"] == "pending"
        job = settled(c, done["id"])
    record = job["callback"]
    assert record["state"] == "failed" and record["attempts"] == 2
    assert record["last_status"] is None and "no answer within 1 s" in record["last_error"]
    assert record["delivered_at"] is None
    assert job["status"] == "done" and job["items_written"] >= 1


def test_an_unreachable_receiver_is_marked_failed_and_the_job_done(serve) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(**FAST)
    with running.client() as c:
        job = settled(c, ingest(c, closed_port_url())["job_id"])
    assert job["status"] == "done" and job["items_written"] >= 1
    record = job["callback"]
    assert record["state"] == "failed" and record["attempts"] == 3
    assert "cannot connect" in record["last_error"]


def test_a_refusal_is_final(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(**FAST)
    hook = receiver([410])
    with running.client() as c:
        job = settled(c, ingest(c, hook.url)["job_id"])
    assert job["callback"]["state"] == "failed" and job["callback"]["attempts"] == 1
    assert job["callback"]["last_status"] == 410 and len(hook.calls) == 1


def test_the_url_guard_refuses_loopback_without_allow_private_urls(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve()  # allow_private_urls is off
    hook = receiver()
    port = hook.url.rsplit(":", 1)[1].split("/")[0]
    with running.client() as c:
        for url in (hook.url, f"http://localhost:{port}/hook", f"http://[::1]:{port}/"):
            r = c.post("/v1/ingest", json={"inputs": ["some text"], "callback_url": url})
            assert r.status_code == 400, r.text
            assert r.json()["error"] == "blocked_url"
            assert "--allow-private-urls" in r.json()["message"]
        for bad in ("ftp://example.org/x", "not a url", "http://" + "a" * 3000 + ".org/"):
            r = c.post("/v1/ingest", json={"inputs": ["some text"], "callback_url": bad})
            assert r.status_code == 400, r.text
        assert c.get("/readyz").json()["jobs_active"] == 0  # no job was made
        # Multipart uploads take the same field.
        r = c.post(
            "/v1/ingest",
            data={"callback_url": hook.url},
            files=[("files", ("a.txt", b"some text", "text/plain"))],
        )
        assert r.status_code == 400 and r.json()["error"] == "blocked_url"
    time.sleep(0.2)
    assert hook.calls == []


def test_a_pending_delivery_survives_a_restart(serve, receiver) -> None:  # type: ignore[no-untyped-def]
    # The first server gets a 503 and would retry only in ten minutes; it is stopped.
    slow = {**FAST, "webhook_backoff": 600.0, "webhook_attempts": 5}
    first: Running = serve("kept", **slow)
    hook = receiver([503, 200])
    with first.client() as c:
        job_id = ingest(c, hook.url)["job_id"]
        deadline = time.monotonic() + 30
        while (rec := c.get(f"/v1/jobs/{job_id}").json()["callback"])["attempts"] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert rec["state"] == "pending" and rec["last_status"] == 503
    assert rec["next_attempt_at"] > time.time() + 500
    first.stop()
    # The next server over the same store and spool sends it again at start.
    second: Running = serve("kept", **slow)
    with second.client() as c:
        job = settled(c, job_id)
    assert job["callback"]["state"] == "delivered" and job["callback"]["attempts"] == 2
    assert len(hook.calls) == 2 and hook.calls[0]["body"] == hook.calls[1]["body"]
