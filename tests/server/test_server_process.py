"""`omnireader serve` as a process: the missing-extra line, the bind rule, and kill -9 in the
middle of a job followed by a restart (the job resumes; nothing is lost or duplicated)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from omnireader.server.schemas import JobFile, JobState

ENV = {**os.environ, "ORT_DISABLE_TELEMETRY": "1"}


def _cli(
    *args: str, env: dict[str, str] | None = None, pre: str = ""
) -> subprocess.CompletedProcess[str]:
    code = f"import sys; {pre}from omnireader.cli.main import main; sys.exit(main({list(args)!r}))"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env or ENV, timeout=120
    )


def test_without_the_extra_serve_says_what_to_install(tmp_path: Path) -> None:
    got = _cli("serve", "--db", str(tmp_path / "db"), pre="sys.modules['fastapi'] = None; ")
    assert got.returncode == 1
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'omnireader[server]'" in lines[0], got.stderr


def test_no_keys_means_loopback_only(tmp_path: Path) -> None:
    env = {k: v for k, v in ENV.items() if k != "OMNIREADER_API_KEYS"}
    got = _cli("serve", "--db", str(tmp_path / "db"), "--host", "0.0.0.0", env=env)
    assert got.returncode == 2
    assert "--insecure-no-auth" in got.stderr and "OMNIREADER_API_KEYS" in got.stderr
    bad = _cli(
        "serve",
        "--db",
        str(tmp_path / "db"),
        "--host",
        "0.0.0.0",
        env={**env, "OMNIREADER_API_KEYS": "short:alice"},
    )
    assert bad.returncode == 2 and "shorter than 8" in bad.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "omnireader",
            "serve",
            "--db",
            str(db),
            "--port",
            str(port),
            "--quiet",
        ],
        env=ENV,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise AssertionError(log.read_text())
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not start: " + log.read_text())


def _writers_of(server: int, timeout: float = 60) -> list[int]:
    """The server's ingest child processes (started in the background at server start)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = []
        for p in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = Path(f"/proc/{p}/stat").read_text()
                cmd = Path(f"/proc/{p}/cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == server and b"writer_proc" in cmd:
                found.append(int(p))
        if found:
            return found
        time.sleep(0.2)
    return []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_mid_job_then_restart_resumes(tmp_path: Path) -> None:
    db, log = tmp_path / "db.lance", tmp_path / "server.log"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    n = 12
    proc = _start(db, port, log)
    try:
        files = [
            (
                "files",
                (f"f{i:02d}.txt", f"Unique fact {i}: zebra{i} eats clover.".encode(), "text/plain"),
            )
            for i in range(n)
        ]
        r = httpx.post(f"{url}/v1/ingest", files=files, timeout=30)
        assert r.status_code == 202
        job_id = r.json()["job_id"]
        writers = _writers_of(proc.pid)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    # The ingest child notices its server is gone (its stdin closes) and exits by itself.
    assert writers, "fast-mode jobs run in a writer child process"
    deadline = time.monotonic() + 120
    while any(Path(f"/proc/{w}").exists() and _state(w) != "Z" for w in writers):
        assert time.monotonic() < deadline, "the ingest child outlived its server"
        time.sleep(0.2)
    jobs = db.parent / f".{db.name}.spool" / "jobs"
    state = json.loads((jobs / job_id / "job.json").read_text())
    assert state["status"] in ("queued", "running")  # killed before it finished
    # What else a crash can leave: an upload that never became a job, and a job whose
    # uploads were lost. The first goes; the second is reported with its files named.
    (jobs / "half-upload" / "files" / "0001").mkdir(parents=True)
    (jobs / "half-upload" / "files" / "0001" / "x.txt").write_text("partial")
    lost = JobState(
        id="lostjob", status="running", files=[JobFile(name="gone.pdf", path="files/0001/gone.pdf")]
    )
    (jobs / "lostjob").mkdir()
    (jobs / "lostjob" / "job.json").write_text(lost.model_dump_json())

    proc = _start(db, port, log)
    try:
        deadline = time.monotonic() + 120
        while (job := httpx.get(f"{url}/v1/jobs/{job_id}").json())["status"] not in (
            "done",
            "failed",
        ) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert job["status"] == "done", job
        assert job["resumed"] == 1 and job["files_done"] == n and job["failures"] == []
        assert httpx.get(f"{url}/v1/stats").json()["items"] == n  # each file exactly once
        for i in (0, n - 1):
            hits = httpx.post(
                f"{url}/v1/search", json={"query": f"zebra{i}", "view": "fts", "k": 3}
            ).json()["results"]
            assert f"zebra{i} " in hits[0]["text"]
        gone = httpx.get(f"{url}/v1/jobs/lostjob").json()
        assert gone["status"] == "failed" and "gone.pdf" in gone["error"]
        assert not (jobs / "half-upload").exists()
        assert not (jobs / job_id / "files").exists()  # uploads deleted after ingest
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_keys_file_and_environment_are_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omnireader.errors import ConfigError
    from omnireader.server.config import keys_from

    keys = tmp_path / "keys.txt"
    keys.write_text("# one key a line\nalice-key-0001:alice\nbob-key-000002 : bob  # team b\n")
    monkeypatch.setenv("OMNIREADER_API_KEYS", "carol-key-003:carol")
    assert keys_from(keys) == {
        "alice-key-0001": "alice",
        "bob-key-000002": "bob",
        "carol-key-003": "carol",
    }
    keys.write_text("no-user-here\n")
    with pytest.raises(ConfigError, match="KEY:USER_ID"):
        keys_from(keys)
    with pytest.raises(ConfigError, match="cannot read"):
        keys_from(tmp_path / "missing.txt")
