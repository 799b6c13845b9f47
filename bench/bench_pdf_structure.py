"""PDF structure on public pages: opendataloader-bench's dev half, scored by its own evaluator,
with the seven published engines in the same table.

    python bench/bench_pdf_structure.py [--quick] [--bench DIR] [--python PY] [--jobs N]

Runs ``score.py`` of the dev half (default ``../shared/bench/pdf-structure-dev`` beside the
repository; ``--bench`` or ``OMNIREADER_PDF_STRUCTURE``) with this interpreter's omnireader
(``python -m omnireader.cli.main`` with this checkout first on ``PYTHONPATH``), reads the JSON
it writes and reports, per engine, overall / NID (reading order) / TEDS (tables) / MHS
(headings). Targets for omnireader (issue 37): overall ≥ 0.90, NID ≥ 0.92, TEDS ≥ 0.93,
MHS ≥ 0.85. The published engines' figures come from their published Markdown, scored in
the same run by the same code. ``--quick`` has no smaller size: the 100 pages are the measure.

The evaluator needs apted, beautifulsoup4, lxml and rapidfuzz at the versions it was
published with (``SCORER_PINS``), which are not the project's own pins, so it runs in a
Python of its own, found in this order:

1. ``--python`` or ``OMNIREADER_SCORE_PYTHON``;
2. ``bench/out/scorevenv`` (made by an earlier run);
3. this interpreter, if it has the four modules;
4. otherwise ``bench/out/scorevenv`` is created with ``SCORER_PINS`` (pip, four wheels).

Skipped with a message (an empty result, no rows) when the dev half is absent. The Markdown
of the run is kept in ``bench/out/pdf_structure/md``, the scores in
``bench/out/pdf_structure/scores.json`` and the log in ``.../score.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._util import row

DEFAULT_BENCH = ROOT.parent / "shared" / "bench" / "pdf-structure-dev"
OUT = HERE / "out" / "pdf_structure"
SCOREVENV = HERE / "out" / "scorevenv"
SCORER_PINS = ("apted==1.0.3", "beautifulsoup4==4.14.3", "lxml==6.0.2", "rapidfuzz==3.14.3")
SCORER_MODULES = ("apted", "bs4", "lxml", "rapidfuzz")
ENGINE = "omnireader"
# (score.py's aggregate key, column name, target)
METRICS = (
    ("overall_mean", "overall", 0.90),
    ("nid_mean", "NID", 0.92),
    ("teds_mean", "TEDS", 0.93),
    ("mhs_mean", "MHS", 0.85),
)
TABLE = "PDF structure (opendataloader-bench dev half, 100 pages)"


def bench_dir(given: str | Path | None = None) -> Path:
    return Path(given or os.environ.get("OMNIREADER_PDF_STRUCTURE") or DEFAULT_BENCH)


def _venv_python(where: Path) -> Path:
    return where / ("Scripts" if os.name == "nt" else "bin") / "python"


def _has_scorer_modules(python: Path | str) -> bool:
    probe = "import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in %r))"
    done = subprocess.run(
        [str(python), "-c", probe % (SCORER_MODULES,)], capture_output=True, timeout=120
    )
    return done.returncode == 0


def scorer_python(given: str | Path | None = None) -> Path:
    """A Python that can run the evaluator (see the module's docstring for the order)."""
    chosen = given or os.environ.get("OMNIREADER_SCORE_PYTHON")
    if chosen:
        if not _has_scorer_modules(chosen):
            raise RuntimeError(
                f"{chosen} lacks the evaluator's modules: "
                f"{chosen} -m pip install {' '.join(SCORER_PINS)}"
            )
        return Path(chosen)
    own = _venv_python(SCOREVENV)
    if own.exists() and _has_scorer_modules(own):
        return own
    if _has_scorer_modules(sys.executable):
        return Path(sys.executable)
    print(f"creating {SCOREVENV} for the evaluator ({', '.join(SCORER_PINS)})", flush=True)
    venv.EnvBuilder(with_pip=True, clear=SCOREVENV.exists()).create(SCOREVENV)
    subprocess.run([str(own), "-m", "pip", "install", "-q", *SCORER_PINS], check=True)
    return own


def omnireader_cmd() -> str:
    """This interpreter's omnireader, this checkout's code (PYTHONPATH is set by run())."""
    return f"{sys.executable} -m omnireader.cli.main"


def peer_versions(bench: Path) -> dict[str, str]:
    out = {}
    for summary in sorted((bench / "predictions").glob("*/summary.json")):
        data = json.loads(summary.read_text())
        out[summary.parent.name] = str(data.get("engine_version", ""))
    return out


def summarize(scores: dict[str, Any], versions: dict[str, str]) -> dict[str, Any]:
    """The figures this benchmark keeps from score.py's JSON: per engine, the four means."""
    engines = {}
    for name, agg in scores["aggregates"].items():
        s = agg["score"]
        engines[name] = {key: s.get(key) for key, _, _ in METRICS} | {
            "version": versions.get(name, ""),
            "pages": agg.get("n"),
        }
    runs = scores.get("runs") or []
    not_ok = [f"{r['id']}: {r['status']}" for r in runs if r.get("status") != "ok"]
    return {
        "engine_under_test": scores.get("engine_under_test"),
        "pages": scores.get("pages"),
        "engines": engines,
        "not_ok": not_ok,
        "worst": scores.get("worst", {}),
        "seconds_per_page": (
            round(sum(r["seconds"] for r in runs) / len(runs), 3) if runs else None
        ),
    }


def run(
    quick: bool = False,
    bench: str | Path | None = None,
    python: str | Path | None = None,
    jobs: int = 2,
) -> dict[str, Any]:
    where = bench_dir(bench)
    if not (where / "score.py").is_file():
        print(f"{where} has no score.py (the dev half is absent): nothing to measure")
        return {}
    scorer = scorer_python(python)
    OUT.mkdir(parents=True, exist_ok=True)
    scores_json, log = OUT / "scores.json", OUT / "score.log"
    scores_json.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    cmd = [
        str(scorer),
        "score.py",
        "--omnireader-cmd",
        omnireader_cmd(),
        "--name",
        ENGINE,
        "--jobs",
        str(jobs),
        "--save",
        str(OUT / "md"),
        "--out",
        str(scores_json),
    ]
    with log.open("w") as sink:
        done = subprocess.run(cmd, cwd=where, env=env, stdout=sink, stderr=subprocess.STDOUT)
    print(log.read_text())
    if done.returncode or not scores_json.is_file():
        raise RuntimeError(f"score.py ended with exit status {done.returncode}: see {log}")
    result = summarize(json.loads(scores_json.read_text()), peer_versions(where))
    result["scorer_python"] = str(scorer)
    (OUT / "summary.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    if not result:
        return []
    ours = result.get("engine_under_test")
    engines = result["engines"]
    order = sorted(engines, key=lambda e: -(engines[e]["overall_mean"] or 0))
    target = ", ".join(f"{col} ≥ {goal:.2f}" for _, col, goal in METRICS)
    out = []
    for name in order:
        e = engines[name]
        columns = {col: "–" if e[key] is None else f"{e[key]:.3f}" for key, col, _ in METRICS}
        if name == ours:
            met = {col: e[key] is not None and e[key] >= goal for key, col, goal in METRICS}
            missed = [col for col, ok in met.items() if not ok]
            note = ("missed: " + ", ".join(missed)) if missed else ""
            if result.get("not_ok"):
                note = "; ".join(
                    s for s in (note, f"{len(result['not_ok'])} pages failed to convert") if s
                )
            label = f"**{name}** (this run)"
            out.append(row(TABLE, label, "", target, not missed, note=note) | {"columns": columns})
        else:
            label = f"{name} {e['version']}".strip() + " (published output)"
            out.append(row(TABLE, label, "", "", None) | {"columns": columns})
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the same 100 pages (no smaller size)")
    ap.add_argument("--bench", help="the dev half's folder (default ../shared/...)")
    ap.add_argument("--python", help="a Python with the evaluator's modules")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    res = run(a.quick, a.bench, a.python, a.jobs)
    for r in rows(res):
        print(r["label"], r["columns"], r["met"], r["note"])
