"""Run the benchmarks, write bench/out/results.json (``python3 dev.py bench``).

    python bench/run_all.py [--quick] [--only ingest,memory] [--fresh]

Every module ``bench/bench_<name>.py`` that defines ``run(quick=False) -> dict`` and
``rows(result) -> list[dict]`` is a benchmark (see ``bench/_util.py``); nothing else needs
registering. Each benchmark's result and benchmarks-page rows are stored under its name in
results.json with when, where and at which commit it ran; benchmarks not run this time
keep their last entry (``--fresh`` drops them). Each benchmark runs in an interpreter of
its own, so none measures what another left behind. ``bench/render_docs.py`` then writes the
docs/benchmarks.md's tables from the file. A benchmark that fails is recorded with its traceback and
the run exits 1; the others still run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from _util import OUT, ROOT, table

BENCH = Path(__file__).resolve().parent
RESULTS = OUT / "results.json"
# Cheap ones first; the rest in name order.
FIRST = ("startup", "ingest", "memory", "search", "fine")
ROW_KEYS = {"table", "label", "measured", "target", "met", "note"}
# Optional: {"column": "figure", ...}, a row of several figures (one table column each).
OPTIONAL_KEYS = {"columns"}


def discover() -> list[str]:
    """The benchmark names: bench_<name>.py files, FIRST's order, then by name."""
    names = sorted(p.stem.removeprefix("bench_") for p in BENCH.glob("bench_*.py"))
    return sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), n))


def load(name: str) -> Any:
    module = importlib.import_module(f"bench_{name}")
    missing = [f for f in ("run", "rows") if not callable(getattr(module, f, None))]
    if missing:
        raise TypeError(f"bench/bench_{name}.py does not define {' and '.join(missing)}")
    return module


def check_rows(name: str, rows: Any) -> list[dict[str, Any]]:
    """The rows as the page renderer needs them; a malformed row is the benchmark's bug."""
    if not isinstance(rows, list):
        raise TypeError(f"bench_{name}.rows() returned {type(rows).__name__}, not a list")
    for r in rows:
        if not isinstance(r, dict) or not ROW_KEYS <= set(r) <= ROW_KEYS | OPTIONAL_KEYS:
            raise TypeError(
                f"bench_{name}.rows(): a row must have exactly the keys "
                f"{sorted(ROW_KEYS)} (and may have {sorted(OPTIONAL_KEYS)}), got {r!r}"
            )
        if "columns" in r and not (
            isinstance(r["columns"], dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in r["columns"].items())
        ):
            raise TypeError(f"bench_{name}.rows(): 'columns' must map names to strings: {r!r}")
        if r["met"] not in (True, False, None):
            raise TypeError(f"bench_{name}.rows(): 'met' must be True, False or None: {r!r}")
    return rows


def environment() -> dict[str, Any]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
        dirty = bool(
            subprocess.run(
                ["git", "status", "--porcelain"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout.strip()
        )
    except OSError:
        commit, dirty = "", False
    try:
        load1 = round(os.getloadavg()[0], 2)
    except OSError:
        load1 = None
    return {
        "commit": commit,
        "dirty": dirty,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "load_before": load1,
    }


def run_one(name: str, quick: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "quick": quick,
        **environment(),
    }
    started = time.perf_counter()
    try:
        module = load(name)
        entry["result"] = module.run(quick=quick)
        entry["rows"] = check_rows(name, module.rows(entry["result"]))
        entry["error"] = None
    except Exception:  # noqa: BLE001 - recorded; the other benchmarks still run
        entry["result"], entry["rows"] = None, []
        entry["error"] = traceback.format_exc()
        print(entry["error"], file=sys.stderr, flush=True)
    entry["seconds"] = round(time.perf_counter() - started, 1)
    return entry


def run_isolated(name: str, quick: bool) -> dict[str, Any]:
    """:func:`run_one` in a fresh interpreter. Run in one process, a benchmark inherited what
    the previous ones left: after the search benchmark, a 1.8 GB process with its stores'
    objects, LanceDB's threads and caches, under which the next one's timings are taken."""
    with tempfile.TemporaryDirectory(prefix="omnireader-bench-") as tmp:
        out = Path(tmp) / "entry.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--one", name, "--to", str(out)]
        code = subprocess.run(cmd + (["--quick"] if quick else []), cwd=BENCH).returncode
        if out.is_file():
            return json.loads(out.read_text())
    entry = {"when": time.strftime("%Y-%m-%d %H:%M"), "quick": quick, **environment()}
    return entry | {
        "result": None,
        "rows": [],
        "seconds": None,
        "error": f"bench_{name} ended with exit status {code} before its result",
    }


def main(argv: list[str] | None = None) -> int:
    names = discover()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--only", default="", help=f"comma list of {', '.join(names)}")
    ap.add_argument(
        "--fresh", action="store_true", help="drop the results of benchmarks not run this time"
    )
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: one benchmark, in this process
    ap.add_argument("--to", type=Path, help=argparse.SUPPRESS)  # where --one writes its entry
    args = ap.parse_args(argv)
    if args.one:
        entry = run_one(args.one, args.quick)
        args.to.write_text(json.dumps(entry, indent=2, default=str) + "\n")
        return 0
    chosen = [b.strip() for b in args.only.split(",") if b.strip()] or names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        ap.error(f"unknown benchmark(s) {unknown}; choose from {', '.join(names)}")

    old: dict[str, Any] = {}
    if RESULTS.is_file() and not args.fresh:
        old = json.loads(RESULTS.read_text()).get("benchmarks", {})
    results = {"benchmarks": {k: v for k, v in old.items() if k in names}}
    for name in chosen:
        print(f"\n=== bench_{name}{' (quick)' if args.quick else ''}", flush=True)
        results["benchmarks"][name] = run_isolated(name, args.quick)
        OUT.mkdir(parents=True, exist_ok=True)  # written after each: a crash keeps the rest
        RESULTS.write_text(json.dumps(results, indent=2, default=str) + "\n")

    lines = []
    for name in chosen:
        entry = results["benchmarks"][name]
        if entry["error"]:
            lines.append([name, "FAILED", "", entry["error"].strip().splitlines()[-1]])
        for r in entry["rows"]:
            met = {True: "met", False: "MISSED", None: ""}[r["met"]]
            measured = r["measured"] or " ".join(
                f"{k} {v}" for k, v in r.get("columns", {}).items()
            )
            lines.append([name, r["label"][:60], measured, f"{r['target']} {met}".strip()])
    print("\n" + table(["bench", "figure", "measured (median, range)", "target"], lines))
    print(
        f"\nwritten to {RESULTS.relative_to(ROOT)}; render docs/benchmarks.md with "
        "python bench/render_docs.py"
    )
    return 1 if any(results["benchmarks"][n]["error"] for n in chosen) else 0


if __name__ == "__main__":
    sys.exit(main())
