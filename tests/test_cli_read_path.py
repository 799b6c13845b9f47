"""What a cold ``stats`` and ``search`` load: the store's reading parts, not its writing,
deleting or chat-backend modules (speed only: their output is pinned by the CLI's tests);
and the store's and LLM package's names, loaded on first use, all still there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.warm_processes import ROOT, small_store

#: modules only a write, a delete or a chat request needs (and numpy.ma: pyarrow asks for it
#: when it is handed a numpy array)
WRITING = (
    "omnireader.store.detach",
    "omnireader.store.row_writes",
    "omnireader.store.embed_text",
    "omnireader.store.ledger",
    "omnireader.store.reembedding",
    "omnireader.llm.base",
    "omnireader.llm.openai_backend",
    "omnireader.llm.ollama_backend",
    "numpy.ma",
)


@pytest.mark.parametrize(
    "argv",
    [["stats"], ["search", "quarterly revenue ferry"], ["search", "harbour.txt ferry"]],
    ids=["stats", "search", "search-naming-a-file"],
)
def test_a_cold_read_loads_no_writing_module(tmp_path: Path, argv: list[str]) -> None:
    db = small_store(tmp_path)
    code = (
        "import sys; from omnireader.cli.main import main\n"
        f"code = main({[*argv, '--db', str(db)]!r})\n"
        f"print(code, [m for m in {WRITING!r} if m in sys.modules], file=sys.stderr)\n"
    )
    got = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "OMNIREADER_WARM": "0"},
        timeout=300,
    )
    assert got.stderr.strip().endswith("0 []"), got.stderr
    assert "harbour.txt" in got.stdout or "items" in got.stdout


@pytest.mark.parametrize("package", ["omnireader.store", "omnireader.llm"])
def test_the_packages_names_load_on_first_use(package: str) -> None:
    code = (
        f"import {package} as p\n"
        "names = {n: getattr(p, n) for n in p.__all__}\n"
        "assert set(p.__all__) <= set(dir(p))\n"
        f"star = {{}}; exec('from {package} import *', star)\n"
        "assert all(star[n] is names[n] for n in p.__all__)\n"
        "try:\n    p.no_such_name\nexcept AttributeError:\n    print('ok')\n"
    )
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert got.stdout.strip() == "ok", got.stderr
