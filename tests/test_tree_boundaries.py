"""The test tree and the benchmarks stay apart (issue 24).

- Nothing under ``tests/`` imports the benchmarks, except ``tests/benchmarks/``, whose job
  is to test the benchmarks' own helpers (the tables, the ratios, the memory instrument).
- ``bench/`` imports from ``tests`` only ``tests.support``: the test-side tools a bench
  needs too (the LLM test server on 127.0.0.1, the drawn OCR pages, large text inputs).
  The fault kit and the plants are test machinery and live in ``tests/``.

Imports inside functions count: the walk covers every ``import`` node of a module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
TESTS = ROOT / "tests"
# bench/ runs its modules as scripts with bench/ on sys.path, so they import each other
# as top-level names (``from _util import ...``): those names are bench modules too.
BENCH_NAMES = {"bench"} | {p.stem for p in BENCH.glob("*.py")}


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            # ``from tests import faultkit`` names the submodule in the alias.
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _py(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if ".venv" not in p.parts)


def test_bench_names_are_found() -> None:
    # A walk that finds no bench module would pass every check below for nothing.
    assert {"_util", "bench_ocr", "run_all"} <= BENCH_NAMES


def test_tests_do_not_import_the_benchmarks() -> None:
    bad = [
        f"{p.relative_to(ROOT)}:{line}: {name}"
        for p in _py(TESTS)
        if TESTS / "benchmarks" not in p.parents
        for line, name in _imports(p)
        if name.split(".")[0] in BENCH_NAMES
    ]
    assert not bad, "tests import bench (move the shared part to tests/support):\n" + "\n".join(bad)


def test_bench_imports_only_tests_support() -> None:
    found = [
        (p, line, name)
        for p in _py(BENCH)
        for line, name in _imports(p)
        if name.split(".")[0] == "tests"
    ]
    # The benches do use tests.support (the LLM server, the OCR pages): the walk sees them.
    assert any(name.startswith("tests.support") for _, _, name in found)
    bad = [
        f"{p.relative_to(ROOT)}:{line}: {name}"
        for p, line, name in found
        if name != "tests"
        and not name.startswith("tests.support")
        and name.split(".")[:2] != ["tests", "support"]
    ]
    assert not bad, "bench imports test machinery beyond tests.support:\n" + "\n".join(bad)


def test_tests_support_stands_alone() -> None:
    # bench may import tests.support, so tests.support must not pull the rest of tests
    # (the fault kit, the plants) or bench in behind it.
    support = TESTS / "support"
    bad = [
        f"{p.relative_to(ROOT)}:{line}: {name}"
        for p in _py(support)
        for line, name in _imports(p)
        if name.split(".")[0] in BENCH_NAMES
        or (
            name.split(".")[0] == "tests"
            and name != "tests"
            and name.split(".")[:2] != ["tests", "support"]
        )
    ]
    assert not bad, "tests.support imports beyond itself:\n" + "\n".join(bad)
