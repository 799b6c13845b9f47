"""Every runner and parser demo runs to completion from a fresh checkout, both as a file
(`python runners/run_simple.py`) and as a module (`python -m runners.run_simple`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "runners" / "parser_demos").glob("demo_*.py"))


FORMS = ["file", "module"]


def command(script: Path, form: str) -> list[str]:
    """`python runners/x.py` or `python -m runners.x`, the two ways the README shows."""
    if form == "file":
        return [sys.executable, str(script)]
    module = ".".join(script.relative_to(ROOT).with_suffix("").parts)
    return [sys.executable, "-m", module]


def run(script: Path, *args: str, form: str = "file", env: dict[str, str] | None = None) -> str:
    # Neither form may lean on PYTHONPATH: a user runs them from a plain checkout.
    env = dict(env if env is not None else os.environ)
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        [*command(script, form), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_there_is_a_demo_for_every_parser() -> None:
    from omnireader.intake.router import route  # noqa: F401  (registers the parsers)
    from omnireader.parsers.base import parser_names

    assert {p.stem.removeprefix("demo_") for p in DEMOS} == set(parser_names())


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_each_parser_demo_shows_source_rebuild_and_items(demo: Path, form: str) -> None:
    out = run(demo, form=form)
    assert "source :" in out and "rebuilt:" in out and "fast   :" in out


@pytest.mark.parametrize("form", FORMS)
def test_run_multimodal_gives_one_json_record_per_case_with_items(form: str) -> None:
    records = json.loads(
        run(
            ROOT / "runners" / "run_multimodal.py",
            *("--example", "all", "--mode", "fast", "--format", "json"),
            form=form,
        )
    )
    from samples.cases import load_cases

    assert [r["name"] for r in records] == [c.name for c in load_cases("all")]
    for r in records:
        assert r["item_count"] == len(r["items"]) > 0, r["name"]
        assert r["duration"] >= 0 and r["description"]


@pytest.mark.parametrize("form", FORMS)
def test_run_simple_runs_fast_mode_without_an_llm(form: str) -> None:
    out = run(ROOT / "runners" / "run_simple.py", form=form)
    assert "== fast" in out and "fine mode and transfer skipped" in out
