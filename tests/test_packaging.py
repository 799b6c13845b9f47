"""The package as it would be published: an sdist and a wheel built offline from a copy of
the tree (``python -m build --no-isolation``, the test extra brings build and setuptools),
checked by twine and by what they hold; the version kept in one place."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import omnireader
from omnireader.formats.layout import pdfium_calls

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "omnireader"
EXTRAS = {"server", "ray", "local-embed", "local-llm", "langchain", "llama-index", "test"}
# What the sdist is built from (pyproject's readme and license files, MANIFEST.in).
TREE = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in")
# The compiled loops (the layout's, the language guess's): their C sources ship in the sdist,
# the built modules in the wheel.
COMPILED = ("omnireader/formats/layout/_loops", "omnireader/text/_scan")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/ with the sdist and the wheel (built from the sdist, as a publish does)."""
    src = tmp_path_factory.mktemp("src")
    for name in TREE:
        shutil.copy2(ROOT / name, src / name)
    # A copy, so the build's egg-info and build/ never land in the working tree.
    shutil.copytree(
        PACKAGE,
        src / "omnireader",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd"),
    )
    out = src / "dist"
    run = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


def _one(dist: Path, pattern: str) -> Path:
    [found] = dist.glob(pattern)
    return found


def _source_files(pattern: str) -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob(pattern)
        if "__pycache__" not in p.parts
    }


def test_twine_accepts_both(dist: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("PASSED") == 2, run.stdout


def test_the_wheel_holds_the_package_its_data_and_its_licence(dist: Path) -> None:
    # Built for this Python and platform when the compiled loops were built, else pure.
    wheel = _one(dist, f"omnireader-{omnireader.__version__}-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    if pdfium_calls.loops is not None:  # this machine compiles: so did the build
        for module in COMPILED:
            built = [n for n in names if n.startswith(f"{module}.")]
            assert [n for n in built if n.endswith((".so", ".pyd"))], (module, built)
        assert "-py3-none-any" not in wheel.name
    info = f"omnireader-{omnireader.__version__}.dist-info"
    assert "omnireader/py.typed" in names
    assert "omnireader/server/static/index.html" in names
    prompts = {n for n in _source_files("*.txt") if n.startswith("omnireader/prompts/")}
    assert prompts and prompts <= names  # every prompt template the package loads
    # every word list and lexicon the readers and the store load (formats/data, store/data…)
    data = {n for n in _source_files("*.txt") if "/data/" in n}
    assert "omnireader/store/data/english_stop_words.txt" in data and data <= names
    assert "omnireader/refine/guard_words.json" in names  # the fine-mode guard's words
    assert "omnireader/llm/models/minilm-l6-v2/tokenizer.json" in names  # --embedder minilm
    for model in ("potion-base-8m", "minilm-l6-static-256"):  # the default's rows; the first
        assert {f"omnireader/llm/models/{model}/{f}" for f in ("vectors.npy", "LICENSE")} <= names
    assert "omnireader/llm/models/potion-base-8m-letters/config.json" in names  # the default
    assert _source_files("*.py") <= names  # every module, the adapters among them
    assert "omnireader/integrations/langchain.py" in names
    assert f"{info}/licenses/LICENSE" in names
    assert not [n for n in names if n.startswith(("tests/", "samples/", "bench/"))]
    assert not [n for n in names if n.endswith(".pyc")]

    meta = Parser().parsestr(zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode())
    assert meta["Version"] == omnireader.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    assert set(meta.get_all("Provides-Extra")) == EXTRAS
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert {u.split(",")[0] for u in meta.get_all("Project-URL")} >= {"Repository", "Changelog"}
    assert meta["Description-Content-Type"] == "text/markdown"
    points = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode()
    assert "omnireader = omnireader.cli.main:main" in points


def test_the_sdist_holds_what_a_build_needs(dist: Path) -> None:
    sdist = _one(dist, f"omnireader-{omnireader.__version__}.tar.gz")
    top = f"omnireader-{omnireader.__version__}/"
    with tarfile.open(sdist) as tar:
        names = {n.removeprefix(top) for n in tar.getnames()}
    assert set(TREE) <= names
    assert {
        "omnireader/py.typed",
        "omnireader/server/static/index.html",
        "omnireader/_version.py",
    } <= names
    assert _source_files("*.py") <= names
    assert {f"{module}.c" for module in COMPILED} <= names


def test_the_version_lives_in_one_place() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "omnireader._version.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?", omnireader.__version__)
    # No other module spells the version out (cli, server and MCP info import it).
    literal = re.compile(rf"""["']{re.escape(omnireader.__version__)}["']""")
    spelled = [
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name != "_version.py" and literal.search(p.read_text(encoding="utf-8"))
    ]
    assert spelled == []
    run = subprocess.run(
        [sys.executable, "-m", "omnireader", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.stdout.strip() == f"omnireader {omnireader.__version__}", run.stderr
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert changelog.startswith("# Changelog") and "## [Unreleased]" in changelog
