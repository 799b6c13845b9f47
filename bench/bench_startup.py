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

The cold rows run in-process (``OMNIREADER_WARM=0``, as every benchmark does): the first call
on a store. ``search`` / ``stats`` handed over are later calls, answered by the store's warm
process (:mod:`omnireader.cli.warm_server`, in a private directory of this run, started
before the rounds and stopped after); for them the client's CPU and the warm process's CPU
per call are reported too (wall time on a shared machine is noise). "``search`` first call"
is a cold call with the warm process on: in-process, plus starting the warm process (which
is then waited for, untimed, and stopped, so it never runs beside another command).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _util import at_most, fmt, interleaved, ratios, row, seconds, spread, table

TARGETS = {
    "help": 0.5,
    "stats": 0.6,
    "search": 0.6,
    "read_csv": 1.0,
    "search_first": 0.6,
    "search_warm": 0.6,
    "stats_warm": 0.6,
}
LABELS = {
    "help": "`omnireader --help`",
    "stats": "`omnireader stats` cold, 13-item store",
    "search": "`omnireader search` cold, 13-item store",
    "read_csv": "`omnireader read x.csv` cold",
    "search_first": "`omnireader search` first call (cold, starts the warm process)",
    "search_warm": "`omnireader search` handed over to the warm process",
    "stats_warm": "`omnireader stats` handed over to the warm process",
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


def _warm_env(folder: Path) -> dict[str, str]:
    return {**os.environ, "OMNIREADER_WARM": "1", "OMNIREADER_WARM_DIR": str(folder)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _process_cpu(pid: int) -> float:
    """CPU seconds a process used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _warm_pid(folder: Path, timeout: float = 120.0) -> int:
    """The pid of the warm process in ``folder``, once it listens."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for pid_file in folder.glob("*.pid"):
            if pid_file.with_suffix(".sock").exists() and pid_file.read_text().strip():
                return int(pid_file.read_text())
        time.sleep(0.05)
    raise RuntimeError(f"no warm process started in {folder}")


def _handed_over(
    cmd: list[str], folder: Path, cpu: dict[str, list[float]], name: str
) -> Callable[[], float]:
    """A measure: the wall seconds of a handed-over call; its client's and its warm
    process's CPU seconds go to ``cpu``."""
    env = _warm_env(folder)

    def measure() -> float:
        pid = _warm_pid(folder)
        client, server = _children_cpu(), _process_cpu(pid)
        started = time.perf_counter()
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env
        )
        wall = time.perf_counter() - started
        cpu.setdefault(f"{name}_client_cpu", []).append(_children_cpu() - client)
        cpu.setdefault(f"{name}_server_cpu", []).append(_process_cpu(pid) - server)
        return wall

    return measure


def _first_call(cmd: list[str], cli: list[str], folder: Path) -> Callable[[], float]:
    """A measure: a call with no warm process yet (it runs in-process and starts one);
    the process is then waited for and stopped, untimed."""
    env = _warm_env(folder)

    def measure() -> float:
        started = time.perf_counter()
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env
        )
        wall = time.perf_counter() - started
        _warm_pid(folder)
        subprocess.run([*cli, "warm", "stop", "-q"], check=True, env=env)
        return wall

    return measure


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
        measures = {k: _command(c) for k, c in commands.items()}
        # The warm rows: their own private directories (short paths: AF_UNIX limits them).
        warm = Path(tempfile.mkdtemp(prefix="ow-"))
        first = Path(tempfile.mkdtemp(prefix="ow-"))
        cpu: dict[str, list[float]] = {}
        measures["search_first"] = _first_call(commands["search"], cli, first)
        subprocess.run(commands["stats"], check=True, env=_warm_env(warm), capture_output=True)
        _warm_pid(warm)
        for key in ("search", "stats"):
            measures[f"{key}_warm"] = _handed_over(commands[key], warm, cpu, key)
        try:
            got = interleaved(measures, repeat=runs, warmup=1)
        finally:
            for folder in (warm, first):
                subprocess.run([*cli, "warm", "stop", "-q"], env=_warm_env(folder))
                shutil.rmtree(folder, ignore_errors=True)
        # (the warm-up round's CPU figures are dropped with it)
        got.update({k: v[-runs:] for k, v in cpu.items()})
    out: dict[str, Any] = {name: spread(t) for name, t in got.items()}
    out["ratios_to_lancedb_import"] = {
        k: spread(ratios(got[k], got["lancedb_import"])) for k in ("stats", "search")
    }
    out["ratios_warm_to_cold"] = {
        k: spread(ratios(got[f"{k}_warm"], got[k])) for k in ("stats", "search")
    }
    print(
        table(
            ["command", "seconds (median, range)", "target"],
            [
                [LABELS.get(k, k), out[k], f"≤ {TARGETS[k]} s" if k in TARGETS else ""]
                for k in out
                if "median" in out[k]
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
        if key in result  # results from before the warm process have no warm rows
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
    for key in ("search", "stats"):
        if f"{key}_client_cpu" not in result:  # runs before the warm process have none
            continue
        out.append(
            row(
                "Start-up",
                f"`{key}` handed over: CPU of the client / of the warm process",
                f"{fmt(result[f'{key}_client_cpu'], ' s')} / "
                f"{fmt(result[f'{key}_server_cpu'], ' s')}",
                note="information: the client is Python's start, argparse and one round trip "
                "(no LanceDB, no pydantic); the warm process opens the store and runs the command",
            )
        )
        out.append(
            row(
                "Start-up",
                f"`{key}` handed over / cold",
                result["ratios_warm_to_cold"][key],
                unit="×",
                note="information: the same command, same rounds",
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
