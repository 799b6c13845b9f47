"""Run a script in a fresh interpreter with this checkout importable: for what a process
sees only at start (a package made unimportable, an environment variable read once)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["run_python"]

ROOT = Path(__file__).resolve().parents[2]


def run_python(
    script: str, *args: str, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -c script args…`` with the repository first on the path; raises if it fails
    or outlives ``timeout`` seconds."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=timeout,
        check=True,
    )
