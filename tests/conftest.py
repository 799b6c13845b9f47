"""Shared fixtures: the repository's sample files and the shared corpus."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
# Make `samples` and `tests.support` importable as packages from the repo root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def sample_files() -> Path:
    """samples/files, generated once per test session (real PDF, DOCX, JPEG, WAV, ...)."""
    from samples.make_samples import make_all

    out = ROOT / "samples" / "files"
    make_all(out)
    return out


@pytest.fixture(scope="session")
def corpus() -> Path:
    """../shared/corpus; tests using it skip when the folder is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS
