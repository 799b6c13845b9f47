"""A warm process while it starts (it holds its store's lock and imports LanceDB, but does
not listen yet): ``warm status`` lists it, ``warm stop`` stops it.

The order is forced, not hoped for: the real server module runs, but its import of LanceDB
waits for a gate file the test creates (a finder put first on ``sys.meta_path`` before the
module runs), so the process is held exactly where a real one spends its start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from omnireader.cli import warm_place as place
from tests.support.warm_processes import ROOT, Warm, alive, private_warm, small_store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no unix sockets")

# The real `python -m omnireader.cli.warm_server STORE KEY`, its LanceDB import held at a gate.
_HELD = r"""
import importlib.abc, os, runpy, sys, time

class Gate(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "lancedb":
            open(os.environ["GATE"] + ".reached", "w").close()
            end = time.monotonic() + 120  # never forever, should the test die
            while not os.path.exists(os.environ["GATE"]) and time.monotonic() < end:
                time.sleep(0.02)
        return None

sys.meta_path.insert(0, Gate())
sys.argv = ["warm_server", *sys.argv[1:]]
runpy.run_module("omnireader.cli.warm_server", run_name="__main__", alter_sys=True)
"""


@pytest.fixture
def warm() -> Iterator[Warm]:
    with private_warm() as w:
        yield w


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return small_store(tmp_path)


class Held:
    """A warm process of ``store`` held in its start until :meth:`release`."""

    def __init__(self, warm: Warm, store: Path, gate: Path) -> None:
        self.key = place.key_of(place.identity(store))
        self.folder, self.gate = warm.folder, gate
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _HELD, str(store), self.key],
            cwd=ROOT,
            env={**warm.env, "GATE": str(gate)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.pid = self.proc.pid
        reached = gate.with_name(gate.name + ".reached")
        end = time.monotonic() + 60
        while not reached.exists():  # it holds the lock, imports LanceDB: waits at the gate
            if self.proc.poll() is not None or time.monotonic() > end:
                self.end()
                raise AssertionError("the warm process did not reach its LanceDB import")
            time.sleep(0.02)

    def file(self, suffix: str) -> Path:
        return self.folder / f"{self.key}{suffix}"

    def release(self) -> None:
        self.gate.touch()

    def end(self) -> None:
        self.release()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


@pytest.fixture
def held(warm: Warm, store: Path, tmp_path: Path) -> Iterator[Held]:
    h = Held(warm, store, tmp_path / "gate")
    try:
        yield h
    finally:
        h.end()


def test_warm_status_lists_a_process_that_is_still_starting(
    warm: Warm, store: Path, held: Held, tmp_path: Path
) -> None:
    assert not held.file(".sock").exists()  # held before it listens
    status = warm.cli("warm", "status")
    assert status.returncode == 0
    assert f"starting: pid {held.pid} · {store.resolve()}" in status.stdout
    assert "no warm process" not in status.stdout
    assert f"starting: pid {held.pid}" in warm.cli("warm", "status", "--db", store).stdout
    other = tmp_path / "other.lance"
    other.mkdir()
    assert "no warm process running" in warm.cli("warm", "status", "--db", other).stdout
    # Let it go: it listens, and is listed as running (once, not as starting too).
    held.release()
    (pid,) = warm.ready()
    assert pid == held.pid
    status = warm.cli("warm", "status").stdout
    assert f"running: pid {pid}" in status and "starting" not in status
    assert not held.file(".starting").exists()


def test_warm_stop_stops_a_process_that_is_still_starting(
    warm: Warm, store: Path, held: Held
) -> None:
    stop = warm.cli("warm", "stop", "--db", store)
    assert stop.returncode == 0
    assert f"stopped: pid {held.pid} · {store.resolve()}" in stop.stdout
    assert held.proc.wait(timeout=10) == 0  # gone, before it ever listened
    assert not any(held.file(s).exists() for s in (".starting", ".sock", ".pid"))
    assert "no warm process running" in warm.cli("warm", "status").stdout
    # The next call runs in-process and starts a process again, as after any stop.
    first = warm.cli("stats", "--db", store)
    assert first.returncode == 0 and "items" in first.stdout
    (pid,) = warm.ready()
    assert pid != held.pid


def test_a_process_killed_while_starting_is_not_listed(warm: Warm, held: Held) -> None:
    held.proc.kill()
    held.proc.wait(timeout=10)
    assert held.file(".starting").exists()  # SIGKILL: it could not take its marker away
    assert "no warm process running" in warm.cli("warm", "status").stdout
    stop = warm.cli("warm", "stop")
    assert "no warm process to stop" in stop.stdout


def test_sigterm_stops_a_listening_process_cleanly(warm: Warm, store: Path) -> None:
    warm.cli("stats", "--db", store)
    (pid,) = warm.ready()
    os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 30
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.05)
    assert not alive(pid)
    # As `warm stop` over the socket: its socket and pid file taken away as it exits.
    assert not list(warm.folder.glob("*.sock")) and not warm.pids()
