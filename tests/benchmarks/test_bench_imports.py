"""Every name a benchmark imports from omnireader exists. The benchmarks import inside
their functions (a script starts fast, a missing peer skips), so a name moved to another
module breaks a benchmark only when it runs, an hour into ``run_all``; this reads their
imports instead."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if p.is_file())


def _imports(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("omnireader")
        for alias in node.names
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_a_benchmarks_omnireader_imports_resolve(script: Path) -> None:
    missing = []
    for module, name in _imports(script):
        owner = importlib.import_module(module)
        if not hasattr(owner, name):
            try:  # a submodule imported by name ("from omnireader.store import search")
                importlib.import_module(f"{module}.{name}")
            except ModuleNotFoundError:
                missing.append(f"{module}.{name}")
    assert not missing, f"{script.name} imports names that are gone: {missing}"
