"""Warm processes in tests: a private warm directory and the environment that uses it, a
small real store, and whether a process is alive. Used by the warm tests
(``tests/test_cli_warm*.py``), whose fixtures ``warm`` and ``store`` are these."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["ROOT", "Warm", "alive", "private_warm", "small_store"]


class Warm:
    """A private warm directory and the environment that uses it."""

    def __init__(self, folder: Path, **extra: str) -> None:
        self.folder = folder
        self.env = {**os.environ, "OMNIREADER_WARM": "1", "OMNIREADER_WARM_DIR": str(folder)}
        self.env.update(extra)

    def cli(self, *args: object, env: dict[str, str] | None = None, cwd: Path = ROOT):
        return subprocess.run(
            [sys.executable, "-m", "omnireader", *map(str, args)],
            cwd=cwd,
            env=env or self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def pids(self) -> list[int]:
        return [int(p.read_text()) for p in self.folder.glob("*.pid") if p.read_text().strip()]

    def ready(self, count: int = 1, exclude: tuple[int, ...] = (), timeout: float = 120.0):
        """The pids of ``count`` live, listening warm processes (not those in ``exclude``)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pids = [
                int(p.read_text())
                for p in self.folder.glob("*.pid")
                if p.read_text().strip() and p.with_suffix(".sock").exists()
            ]
            live = [p for p in pids if p not in exclude and alive(p)]
            if len(live) >= count:
                return live
            time.sleep(0.1)
        raise AssertionError(f"no warm process listens in {self.folder}")

    def calls(self, db: Path) -> int:
        """The calls the store's warm process has answered (``warm status``)."""
        out = self.cli("warm", "status", "--db", db).stdout
        return int(out.split(" calls")[0].rsplit("· ", 1)[1]) if "calls" in out else -1


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes (its parent, the CLI, has exited).
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


@contextmanager
def private_warm() -> Iterator[Warm]:
    """A private warm directory; every warm process left in it stopped (or killed) after."""
    folder = Path(tempfile.mkdtemp(prefix="owarm-"))  # short: AF_UNIX paths are ~100 bytes
    w = Warm(folder)
    try:
        yield w
    finally:
        w.cli("warm", "stop", "-q")
        for pid in w.pids():  # one that did not stop (hung, stopped by a test): killed
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(folder, ignore_errors=True)


def small_store(tmp_path: Path) -> Path:
    """A real store of two small documents, ingested by the CLI."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "harbour.txt").write_text(
        "The harbour authority approved the quarterly revenue plan for the ferry line.\n"
    )
    (docs / "garden.md").write_text("# Garden\n\nTomatoes need sun and a deep watering.\n")
    db = tmp_path / "db.lance"
    proc = subprocess.run(
        [sys.executable, "-m", "omnireader", "ingest", str(docs), "--db", str(db), "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return db
