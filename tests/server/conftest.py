"""A real omnireader server per test module: uvicorn on a free 127.0.0.1 port, in a thread,
over a real LanceDB store in tmp_path; tests talk to it with httpx."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra (omnireader[server]) is not installed")

KEYS = {"alice-key-0001": "alice", "bob-key-000002": "bob"}
ALICE = {"Authorization": "Bearer alice-key-0001"}
BOB = {"X-API-Key": "bob-key-000002"}


class Running:
    def __init__(self, url: str, server: Any, thread: threading.Thread, config: Any) -> None:
        self.url, self.server, self.thread, self.config = url, server, thread, config

    def client(self, headers: dict[str, str] | None = None) -> Any:
        import httpx

        return httpx.Client(base_url=self.url, headers=headers or {}, timeout=60)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def start_server(db: Path, **settings: Any) -> Running:
    import uvicorn

    from omnireader.server.app import create_app
    from omnireader.server.config import Limits, ServerConfig

    limits = Limits(**settings.pop("limits", {}))
    llm = settings.pop("llm", None)  # a chat backend: fine-mode reads and jobs
    config = ServerConfig(db=db, limits=limits, **settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # Accepted connections inherit this. uvicorn's own listener gets it from asyncio; a
    # socket handed in does not, and then every keep-alive response waits ~40 ms for the
    # client's delayed ACK (Nagle) - a harness artefact `omnireader serve` does not have.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(config, llm)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    running = Running(f"http://127.0.0.1:{port}", server, thread, config)
    running.app = app
    return running


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Running]]:
    """Start servers (each over its own store in tmp_path); all are stopped after the test."""
    started: list[Running] = []

    def make(name: str = "db", **settings: Any) -> Running:
        running = start_server(tmp_path / f"{name}.lance", **settings)
        started.append(running)
        return running

    yield make
    for running in started:
        running.stop()


def wait_job(client: Any, job_id: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish: {job}")
