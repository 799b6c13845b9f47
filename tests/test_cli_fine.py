"""Fine mode from the command line and the runners, against a real HTTP LLM server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import LLMServer, default_responder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


@pytest.fixture()
def env(server: LLMServer) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OMNIREADER_", "OLLAMA"))}
    clean["OMNIREADER_WARM"] = "0"  # the suite starts no warm process (tests/conftest.py)
    return {
        **clean,
        "OPENAI_BASE_URL": server.openai_base_url,
        "OPENAI_API_KEY": "test-key",
        "OMNIREADER_LLM_TIMEOUT": "10",
    }


def run(args: list[object], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc


def omni(*args: object, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run(["-m", "omnireader", *args], env)


def test_refine_upgrades_stored_fast_items_and_keeps_them(
    sample_files: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    db = tmp_path / "db.lance"
    omni(
        "ingest",
        sample_files / "team_notes.md",
        sample_files / "chat_tokyo_trip.json",
        "--db",
        db,
        env=env,
    )
    before = json.loads(omni("stats", "--db", db, "--format", "json", env=env).stdout)
    assert before["by_mode"]["fast"] >= 3  # the note, and the chat's messages one by one
    out = omni("refine", "--db", db, "--llm", "openai:test-model", env=env).stdout
    assert "refined into" in out and "0 left fast" in out
    stats = json.loads(omni("stats", "--db", db, "--format", "json", env=env).stdout)
    assert stats["by_mode"]["fast"] == before["by_mode"]["fast"] and stats["by_mode"]["fine"] >= 2
    fine = json.loads(
        omni("search", "Tokyo", "--db", db, "--mode", "fine", "--format", "json", env=env).stdout
    )
    assert fine and all(r["item"]["metadata"]["mode"] == "fine" for r in fine)
    again = omni("refine", "--db", db, "--llm", "openai:test-model", env=env).stdout
    assert again.startswith("0 fast items")


def test_ingest_in_fine_mode_writes_fine_items(
    sample_files: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    db = tmp_path / "db.lance"
    omni(
        "ingest",
        sample_files / "quarterly_report.pdf",
        "--db",
        db,
        "--mode",
        "fine",
        "--llm",
        "openai:test-model",
        "--report",
        tmp_path / "r.json",
        env=env,
    )
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["mode"] == "fine" and report["items_inserted"] >= 3
    exported = [json.loads(x) for x in omni("export", "--db", db, env=env).stdout.splitlines()]
    pages = {
        s["page"]
        for i in exported
        if i["metadata"]["mode"] == "fine"
        for s in i["metadata"]["sources"]
    }
    assert pages == {1, 2, 3}


def test_run_multimodal_in_fine_mode_gives_fine_items_for_every_case(env: dict[str, str]) -> None:
    out = run(
        [
            ROOT / "runners" / "run_multimodal.py",
            "--example",
            "all",
            "--mode",
            "fine",
            "--format",
            "json",
            "--llm",
            "openai:test-model",
        ],
        env,
    ).stdout
    records = json.loads(out)
    assert records and all(r["item_count"] > 0 for r in records)
    modes = {i["metadata"]["mode"] for r in records for i in r["items"]}
    assert "fine" in modes


def test_run_simple_runs_fast_fine_and_transfer(env: dict[str, str]) -> None:
    out = run([ROOT / "runners" / "run_simple.py", "--llm", "openai:test-model"], env).stdout
    assert "== fast" in out and "== fine" in out and "== transfer" in out


def test_fine_mode_with_the_llm_down_says_so_once_and_creates_nothing(
    sample_files: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path / "db.lance"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "omnireader",
            "ingest",
            sample_files / "team_notes.md",
            "--db",
            db,
            "--mode",
            "fine",
            "--llm",
            "ollama:qwen2.5:7b",
        ],
        cwd=ROOT,
        env={**env, "OLLAMA_HOST": f"http://127.0.0.1:{port}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.count(f"cannot connect to 127.0.0.1:{port} (is Ollama running?)") == 1
    assert "Traceback" not in proc.stderr and not db.exists()


def test_read_in_fine_mode_counts_items_left_fast_and_exits_1(
    tmp_path: Path, env: dict[str, str]
) -> None:
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text("Alice moved to Berlin in May 2024.\n", encoding="utf-8")
    bad.write_text("Bob keeps bees on the roof.\n", encoding="utf-8")
    with LLMServer() as srv:
        # Bob's note always gets an answer that is not JSON: it stays fast, as bad_json.
        srv.responder = lambda req: (
            "Sure! Bob keeps bees." if "Bob" in req.data_text else default_responder(req)
        )
        proc = subprocess.run(
            [sys.executable, "-m", "omnireader", "read", good, bad, "--mode", "fine"]
            + ["--llm", "openai:test-model", "--format", "json"],
            cwd=ROOT,
            env={**env, "OPENAI_BASE_URL": srv.openai_base_url},
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "read 2 inputs: 2 items, 0 errors; 1 item fine, 1 left fast: bad_json" in proc.stderr
    data = json.loads(proc.stdout)
    assert data["refine"] == {"fine_items": 1, "left_fast": 1, "reasons": {"bad_json": 1}}
    [left] = [i for i in data["items"] if i["metadata"]["mode"] == "fast"]
    assert left["memory"].startswith("Bob keeps bees")
    assert left["metadata"]["refine_status"] == "failed"


def test_read_in_fine_mode_with_every_item_refined_exits_0(
    tmp_path: Path, env: dict[str, str]
) -> None:
    note = tmp_path / "note.md"
    note.write_text("Alice moved to Berlin in May 2024.\n", encoding="utf-8")
    proc = omni("read", note, "--mode", "fine", "--llm", "openai:test-model", env=env)
    assert "read 1 input: 1 item, 0 errors" in proc.stderr and "left fast" not in proc.stderr
