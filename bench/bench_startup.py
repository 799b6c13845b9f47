"""Cold start-up of the CLI: ``--help``, ``stats`` and ``search`` on a small store, ``read`` of
a CSV, each against the floors measured in the same run (interleaved, several repetitions).

    python bench/bench_startup.py [--runs 7] [--quick]

Floors: a bare interpreter, and ``import lancedb`` (every store command needs it; a bare
import pulls in pyarrow.dataset, pandas and the generated lance_namespace client). omnireader
imports it as ``omnireader/store/lance_import.py`` says, without pandas, the REST client's
``__init__`` and the building of its models (the row "LanceDB imported as omnireader does").
Targets: ``--help`` ≤ 0.5 s, ``search`` / ``stats`` ≤ 0.6 s (issue 38; 1.0 s before it),
``read`` of a CSV ≤ 1.0 s. The commands run in turns (bare, import lancedb,
--help, stats, search, read, bare, …); the median of each and its range are reported, and
the store commands' ratio to the ``import lancedb`` floor round by round.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _util import at_most, interleaved, ratios, row, seconds, spread, table

TARGETS = {"help": 0.5, "stats": 0.6, "search": 0.6, "read_csv": 1.0}
LABELS = {
    "help": "`omnireader --help`",
    "stats": "`omnireader stats` cold, 13-item store",
    "search": "`omnireader search` cold, 13-item store",
    "read_csv": "`omnireader read x.csv` cold",
}


def _cli() -> list[str]:
    exe = Path(sys.executable).with_name("omnireader")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "omnireader"]


def _command(cmd: list[str]) -> Any:
    return seconds(
        lambda: subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
        )
    )


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
            "lancedb_deferred": [
                sys.executable,
                "-c",
                "from omnireader.store.lance_import import import_lancedb; import_lancedb()",
            ],
            "help": [*cli, "--help"],
            "stats": [*cli, "stats", "--db", str(db)],
            "search": [*cli, "search", "quarterly revenue", "--db", str(db)],
            "read_csv": [*cli, "read", str(csv)],
        }
        got = interleaved({k: _command(c) for k, c in commands.items()}, repeat=runs, warmup=1)
    out: dict[str, Any] = {name: spread(t) for name, t in got.items()}
    out["ratios_to_lancedb_import"] = {
        k: spread(ratios(got[k], got["lancedb_import"])) for k in ("stats", "search")
    }
    print(
        table(
            ["command", "seconds (median, range)", "target"],
            [
                [LABELS.get(k, k), out[k], f"≤ {TARGETS[k]} s" if k in TARGETS else ""]
                for k in commands
            ],
        )
    )
    return out


def _floor_note(result: dict[str, Any], key: str) -> str:
    """What stops a store command's missed target in this run: the LanceDB import it pays
    (measured alone, same run) and its own share of that floor."""
    if key not in result.get("ratios_to_lancedb_import", {}) or at_most(result[key], TARGETS[key]):
        return ""
    floor = result["lancedb_import"]["median"]
    share = result["ratios_to_lancedb_import"][key]["median"]
    return (
        f"what stops it in this run: `import lancedb` alone took {floor:.2f} s on this machine "
        f"(`--help` {result['help']['median']:.2f} s); the command takes {share:.2f}× that floor"
    )


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    out = [
        row(
            "Start-up",
            label,
            result[key],
            f"≤ {TARGETS[key]} s",
            at_most(result[key], TARGETS[key]),
            unit=" s",
            note=_floor_note(result, key),
        )
        for key, label in LABELS.items()
    ]
    out.append(
        row(
            "Start-up",
            "floor: `python -c 'import lancedb'`",
            result["lancedb_import"],
            unit=" s",
            note="every store command imports LanceDB",
        )
    )
    if "lancedb_deferred" in result:  # runs before it was measured do not have it
        out.append(
            row(
                "Start-up",
                "LanceDB imported as omnireader does (REST client deferred)",
                result["lancedb_deferred"],
                unit=" s",
                note="information: `omnireader/store/lance_import.py` (no pandas, no REST "
                "client, its models built on first use)",
            )
        )
    for key in ("stats", "search"):
        out.append(
            row(
                "Start-up",
                f"`{key}` / the `import lancedb` floor",
                result["ratios_to_lancedb_import"][key],
                unit="×",
                note="information: how much the command adds to its floor",
            )
        )
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    run(a.quick, a.runs)
