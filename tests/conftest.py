"""Shared fixtures: the repository's sample files and the shared corpus."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
# No warm processes from the suite: every CLI call (and every process it starts) runs
# in-process. tests/test_cli_warm.py turns them on for its own calls, in its own directory,
# and stops what it started.
os.environ["OMNIREADER_WARM"] = "0"
# Make `samples` and `tests.support` importable as packages from the repo root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def sample_files() -> Path:
    """samples/files, generated once per test session (real PDF, DOCX, JPEG, WAV, ...)."""
    import fcntl

    from samples.make_samples import make_all

    out = ROOT / "samples" / "files"
    # Under pytest-xdist every worker asks for the samples: one writes them (once per run),
    # the others wait for it, so no test reads a file while it is being rewritten.
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    stamp = out.parent / ".samples-made-for-run"
    out.mkdir(parents=True, exist_ok=True)
    with open(out.parent / ".samples.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (stamp.exists() and stamp.read_text() == run):
            make_all(out)
            stamp.write_text(run)
    return out


@pytest.fixture(scope="session")
def corpus() -> Path:
    """../shared/corpus; tests using it skip when the folder is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


@pytest.fixture(scope="session")
def llama_server() -> Iterator[Any]:
    """A real llama.cpp server (llama-cpp-python) serving SmolLM2-135M-Instruct on
    127.0.0.1, once per session; the tests using it skip, naming the install command, where
    it is not installed."""
    from tests.support.llama_server import LlamaServer, missing

    why = missing()
    if why:
        pytest.skip(why)
    with LlamaServer() as srv:
        yield srv
