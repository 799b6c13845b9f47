"""Cold start-up of the CLI: ``--help``, ``stats`` and ``search`` on a small store, ``read`` of
a CSV, each against the floors measured in the same run (interleaved, several repetitions).

    python bench/bench_startup.py [--runs 7] [--quick]

Floors: a bare interpreter, and ``import lancedb`` (every store command needs it; its import
pulls in pyarrow.dataset, pandas and the generated lance_namespace client, which this
project cannot defer without patching LanceDB). Targets: ``--help`` ≤ 0.5 s, ``search`` /
``stats`` ≤ 1.0 s, ``read`` of a CSV ≤ 1.0 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGETS = {"help": 0.5, "stats": 1.0, "search": 1.0, "read_csv": 1.0}
LABELS = {
    "help": "`omnireader --help` start-up",
    "stats": "`omnireader stats` cold, 13-item store",
    "search": "`omnireader search` cold, 13-item store",
    "read_csv": "`omnireader read x.csv` cold",
}


def _cli() -> list[str]:
    exe = Path(sys.executable).with_name("omnireader")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "omnireader"]


def _once(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def _stat(samples: list[float]) -> dict[str, Any]:
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples),
            "runs": [round(s, 4) for s in samples]}


def run(quick: bool = False, runs: int | None = None) -> dict[str, Any]:
    runs = runs or (3 if quick else 7)
    root = Path(__file__).resolve().parents[1]
    cli = _cli()
    with tempfile.TemporaryDirectory(prefix="omnireader-startup-") as tmp:
        db = Path(tmp) / "db.lance"
        samples = root / "samples" / "files"
        subprocess.run([*cli, "ingest", str(samples), "--db", str(db), "-q"], check=True)
        csv = Path(tmp) / "table.csv"
        csv.write_text("city,visits\nLisbon,12\nOslo,7\n", encoding="utf-8")
        commands = {
            "bare": [sys.executable, "-c", "pass"],
            "lancedb_import": [sys.executable, "-c", "import lancedb"],
            "help": [*cli, "--help"],
            "stats": [*cli, "stats", "--db", str(db)],
            "search": [*cli, "search", "quarterly revenue", "--db", str(db)],
            "read_csv": [*cli, "read", str(csv)],
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        _once(commands["stats"])  # warm the file cache once
        for _ in range(runs):  # interleaved: every command in every round
            for name, cmd in commands.items():
                times[name].append(_once(cmd))
    out = {name: _stat(t) for name, t in times.items()}
    floor = out["lancedb_import"]["median"]
    out["ratios_to_lancedb_import"] = {k: out[k]["median"] / floor for k in ("stats", "search")}
    return out


def _fmt(s: dict[str, Any]) -> str:
    return f"{s['median']:.2f} s ({s['min']:.2f}–{s['max']:.2f})"


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, label in LABELS.items():
        s = result[key]
        out.append({"table": "start-up", "label": label, "measured": _fmt(s),
                    "target": f"≤ {TARGETS[key]} s", "met": s["median"] <= TARGETS[key],
                    "note": ""})
    floor = result["lancedb_import"]
    out.append({"table": "start-up", "label": "floor: `python -c 'import lancedb'`",
                "measured": _fmt(floor), "target": "", "met": None,
                "note": "every store command imports LanceDB"})
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=None)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    res = run(a.quick, a.runs)
    for r in rows(res):
        print(f"{r['label']:45} {r['measured']:28} {r['target']:10} {r['met']}")
