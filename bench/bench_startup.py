"""`omnireader --help` start-up time (target ≤ 0.5 s), against a bare interpreter.

    python bench/bench_startup.py [--runs 15]

The two commands run in turns (bare, --help, bare, --help, …); the median of each and its
range are reported, and the ratio to the bare interpreter round by round.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from _util import at_most, interleaved, ratios, row, seconds, spread, table

TARGET_S = 0.5


def _command(cmd: list[str]) -> Any:
    return seconds(lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, check=True))


def run(quick: bool = False, runs: int | None = None) -> dict[str, Any]:
    runs = runs or (5 if quick else 15)
    exe = Path(sys.executable).with_name("omnireader")
    cli = [str(exe)] if exe.exists() else [sys.executable, "-m", "omnireader"]
    got = interleaved({"bare": _command([sys.executable, "-c", "pass"]),
                       "help": _command([*cli, "--help"])}, repeat=runs, warmup=1)
    res = {"bare_s": spread(got["bare"]), "help_s": spread(got["help"]),
           "ratio_to_bare": spread(ratios(got["help"], got["bare"]))}
    print(table(["command", "seconds (median, range)", "target"],
                [["python -c pass", res["bare_s"], ""],
                 ["omnireader --help", res["help_s"], f"≤ {TARGET_S} s"],
                 ["ratio --help / bare", res["ratio_to_bare"], ""]]))
    return res


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    help_s = result["help_s"]
    return [
        row("Start-up", "`omnireader --help`", help_s, f"≤ {TARGET_S} s",
            at_most(help_s, TARGET_S), unit=" s"),
        row("Start-up", "the same / a bare `python -c pass`", result["ratio_to_bare"],
            unit="×", note="information: the interpreter's own start-up is the floor"),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    run(a.quick, a.runs)
