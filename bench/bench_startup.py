"""`omnireader --help` start-up time (target ≤ 0.5 s), against a bare interpreter.

    python bench/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _util import table


def _median_seconds(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run(runs: int = 7) -> dict[str, Any]:
    exe = Path(sys.executable).with_name("omnireader")
    cli = [str(exe)] if exe.exists() else [sys.executable, "-m", "omnireader"]
    bare = _median_seconds([sys.executable, "-c", "pass"], runs)
    help_s = _median_seconds([*cli, "--help"], runs)
    print(table(["command", "median s", "ratio to bare python", "target"],
                [["python -c pass", bare, 1.0, ""],
                 ["omnireader --help", help_s, help_s / bare, "≤ 0.5 s"]]))
    return {"bare_s": bare, "help_s": help_s, "ratio": help_s / bare}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    run(ap.parse_args().runs)
