"""The warm process, run as users run it: real CLI processes, a real LanceDB store, real unix
sockets. Each test has its own private directory of warm processes and stops (or kills)
every one it started; the rest of the suite runs with ``OMNIREADER_WARM=0``."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.warm_processes import ROOT, Warm, private_warm, small_store
from tests.support.warm_processes import alive as _alive

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no unix sockets")


@pytest.fixture
def warm() -> Iterator[Warm]:
    with private_warm() as w:
        yield w


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return small_store(tmp_path)


def _same(a: subprocess.CompletedProcess[str], b: subprocess.CompletedProcess[str]) -> None:
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


def test_handed_over_calls_print_exactly_what_in_process_calls_do(
    warm: Warm, store: Path, tmp_path: Path
) -> None:
    first = warm.cli("stats", "--db", store)
    assert first.returncode == 0, first.stderr
    warm.ready()
    commands = [
        ["search", "quarterly revenue", "--db", store],
        ["search", "tomatoes", "--db", store, "--format", "json", "--k", "1"],
        ["search", "zzzz-nothing", "--db", store, "--view", "fts"],  # "no results" on stderr
        ["stats", "--db", store],
        ["stats", "--db", store, "--format", "json"],
        ["history", "no-such-id", "--db", store],
        # errors: one raised in the command there (a bad --output, 2), one by the parser here
        ["search", "ferry", "--db", store, "-o", tmp_path / "missing" / "out.txt"],
        ["stats", "--db", store, "--format", "yaml"],
    ]
    for argv in commands:
        before = warm.calls(store)
        here = warm.cli(*argv, "--no-warm")
        there = warm.cli(*argv)
        _same(here, there)
        if "yaml" not in argv:  # a usage error never leaves the client
            assert warm.calls(store) == before + 1, argv
    assert here.returncode == 2 and "invalid choice" in here.stderr
    # -o FILE relative to the caller's directory, written there
    out = warm.cli("search", "ferry", "--db", store, "-o", "hits.txt", cwd=tmp_path)
    assert out.returncode == 0 and "harbour.txt" in (tmp_path / "hits.txt").read_text()


def test_calls_at_once_wait_their_turn(warm: Warm, store: Path) -> None:
    warm.cli("stats", "--db", store)
    (pid,) = warm.ready()
    expected = warm.cli("search", "harbour ferry", "--db", store, "--no-warm")
    argv = [sys.executable, "-m", "omnireader", "search", "harbour ferry", "--db", str(store)]
    procs = [
        subprocess.Popen(
            argv, cwd=ROOT, env=warm.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert (p.returncode, out, err) == (0, expected.stdout, expected.stderr)
    assert _alive(pid) and warm.calls(store) == 4  # all four answered there, none waited out


def test_a_search_after_an_ingest_finds_the_new_items(
    warm: Warm, store: Path, tmp_path: Path
) -> None:
    warm.cli("stats", "--db", store)
    warm.ready()
    assert "marmalade" not in warm.cli("search", "marmalade octopus", "--db", store).stdout
    new = tmp_path / "octopus.txt"
    new.write_text("The marmalade octopus convention meets in Tallinn every spring.\n")
    assert warm.cli("ingest", new, "--db", store, "-q").returncode == 0  # never handed over
    calls = warm.calls(store)
    got = warm.cli("search", "marmalade octopus", "--db", store, "--k", "1")
    assert warm.calls(store) == calls + 1  # answered by the warm process
    assert "octopus.txt" in got.stdout
    _same(warm.cli("stats", "--db", store, "--no-warm"), warm.cli("stats", "--db", store))


def test_another_version_never_uses_the_process_and_changed_code_retires_it(
    warm: Warm, store: Path, tmp_path: Path
) -> None:
    # A second install of omnireader, another version: a copy of the package.
    other = tmp_path / "other"
    shutil.copytree(
        ROOT / "omnireader", other / "omnireader", ignore=shutil.ignore_patterns("__pycache__")
    )
    (other / "omnireader" / "_version.py").write_text('__version__ = "0.0.1+other"\n')
    other_env = {**warm.env, "PYTHONPATH": str(other)}
    # (run from its folder: `python -m` looks in the working directory first)
    assert warm.cli("stats", "--db", store, env=other_env, cwd=other).returncode == 0
    (other_pid,) = warm.ready(1)
    assert "0.0.1+other" in warm.cli("warm", "status").stdout
    # Ours does not use it: it runs in-process and starts its own.
    _same(warm.cli("stats", "--db", store, "--no-warm"), warm.cli("stats", "--db", store))
    (ours,) = warm.ready(1, exclude=(other_pid,))
    assert _alive(other_pid) and ours != other_pid
    # The other install's code changes on disk: its process refuses the next call and exits;
    # the call itself runs in-process, correctly.
    time.sleep(0.05)
    (other / "omnireader" / "cli" / "output.py").touch()
    _same(
        warm.cli("stats", "--db", store, "--no-warm", env=other_env, cwd=other),
        warm.cli("stats", "--db", store, env=other_env, cwd=other),
    )
    end = time.monotonic() + 30
    while _alive(other_pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(other_pid)


def test_a_killed_or_hung_process_falls_back_in_process(warm: Warm, store: Path) -> None:
    warm.cli("stats", "--db", store)
    (pid,) = warm.ready()
    expected = warm.cli("search", "harbour", "--db", store, "--no-warm")
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    _same(expected, warm.cli("search", "harbour", "--db", store))  # its socket is stale
    (pid,) = warm.ready(exclude=(pid,))  # ... and was replaced by a new process
    assert warm.calls(store) == 0
    os.kill(pid, signal.SIGSTOP)  # hung: accepts connections, answers nothing
    try:
        started = time.monotonic()
        _same(expected, warm.cli("search", "harbour", "--db", store))
        assert time.monotonic() - started < 60
        end = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _alive(pid)  # the client killed it
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_the_process_exits_when_idle_and_on_warm_stop(store: Path, warm: Warm) -> None:
    idle = Warm(warm.folder, OMNIREADER_WARM_IDLE="1")
    idle.cli("stats", "--db", store)
    (pid,) = idle.ready()
    end = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(pid) and not list(warm.folder.glob("*.sock"))
    warm.cli("stats", "--db", store)
    (pid,) = warm.ready()
    stop = warm.cli("warm", "stop")
    assert stop.returncode == 0 and f"stopped: pid {pid}" in stop.stdout
    assert not list(warm.folder.glob("*.sock"))
    assert "no warm process running" in warm.cli("warm", "status").stdout


def test_the_process_leaves_when_its_store_or_socket_is_gone(
    warm: Warm, store: Path, tmp_path: Path
) -> None:
    # A temporary store deleted (a test's, a scratch run's): no one can want its process.
    scratch = tmp_path / "scratch.lance"
    shutil.copytree(store, scratch)
    warm.cli("stats", "--db", scratch)
    (pid,) = warm.ready()
    shutil.rmtree(scratch)
    end = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(pid)
    # Its socket removed (a cleaned directory): no call can reach it any more.
    warm.cli("stats", "--db", store)
    (pid,) = warm.ready()
    for sock in warm.folder.glob("*.sock"):
        sock.unlink()
    end = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(pid)


def test_disabled_by_the_variable_or_the_flag(warm: Warm, store: Path) -> None:
    assert warm.cli("stats", "--db", store, "--no-warm").returncode == 0
    off = {**warm.env, "OMNIREADER_WARM": "0"}
    assert warm.cli("search", "ferry", "--db", store, env=off).returncode == 0
    assert warm.cli("ingest", ROOT / "README.md", "--db", store, "-q").returncode == 0
    time.sleep(1.0)
    assert not list(warm.folder.glob("*.sock")) and not warm.pids()


def test_a_handed_over_call_imports_neither_lancedb_nor_pydantic(warm: Warm, store: Path) -> None:
    warm.cli("stats", "--db", store)
    warm.ready()
    code = (
        "import sys; from omnireader.cli.main import main; "
        f"code = main(['stats', '--db', {str(store)!r}]); "
        "print(code, sorted(m for m in ('lancedb', 'pyarrow', 'pydantic', 'numpy') "
        "if m in sys.modules), file=sys.stderr)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=warm.env, capture_output=True, text=True
    )
    assert proc.stderr.strip().endswith("0 []"), proc.stderr
    assert "items" in proc.stdout


def test_a_private_directory_only(tmp_path: Path, store: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    open_dir = Warm(shared)
    _same(open_dir.cli("stats", "--db", store, "--no-warm"), open_dir.cli("stats", "--db", store))
    time.sleep(0.5)
    assert not list(shared.iterdir())  # nothing started, nothing written there
