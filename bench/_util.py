"""Shared helpers for the benchmarks: repeated, interleaved measuring; spread; benchmarks-page rows.

Every benchmark module ``bench/bench_<name>.py`` exposes

- ``run(quick: bool = False) -> dict``: JSON-serialisable figures; each measured figure
  as a :func:`spread` (``{"median", "min", "max", "runs"}``);
- ``rows(result: dict) -> list[dict]``: its benchmarks-page rows, made with :func:`row`.

``bench/run_all.py`` finds such modules by name, runs them and writes
``bench/out/results.json``; ``bench/render_docs.py`` turns that into the tables of
``docs/benchmarks.md``.

A figure is measured several times, interleaved with its baseline (A B A B …), so that a
burst of load from something else on the machine hits both sides of a ratio alike, and the
median of the runs is reported with their range. A typical benchmark::

    runs = interleaved({"raw": seconds(lambda: raw(paths)),
                        "ours": seconds(lambda: ours(paths))}, repeat=5, warmup=1)
    speed = spread(ratios(runs["raw"], runs["ours"]))      # raw time / our time, per round
    row("Ingest", "ours / raw", speed, "≥ 0.6×", at_least(speed, 0.6), unit="×")
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
# Every command a benchmark times runs in-process (what it names); bench_startup.py turns
# the warm process on for its handed-over rows only, in its own directory.
os.environ["OMNIREADER_WARM"] = "0"

__all__ = [
    "ROOT",
    "OUT",
    "interleaved",
    "seconds",
    "spread",
    "ratios",
    "fmt",
    "row",
    "at_least",
    "at_most",
    "timed",
    "peak_rss_mb",
    "table",
]

Spread = dict[str, Any]  # {"median": x, "min": a, "max": b, "runs": [...]}
Measure = Callable[[], float]


def interleaved(
    measures: Mapping[str, Measure], repeat: int, *, warmup: int = 0
) -> dict[str, list[float]]:
    """Call every measure once per round, in order, for ``repeat`` rounds: A B C, A B C, ….

    A measure is a zero-argument function returning one figure (seconds from
    :func:`seconds`, a latency percentile, a ratio it computed itself…). ``warmup`` rounds
    run first and are thrown away (imports, page cache, a first-call model load).
    Returns each measure's figures, one per round, so round ``i`` of two measures can be
    paired (:func:`ratios`).
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, not {repeat}")
    for _ in range(warmup):
        for fn in measures.values():
            fn()
    runs: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(repeat):
        for name, fn in measures.items():
            runs[name].append(float(fn()))
    return runs


def seconds(fn: Callable[[], Any]) -> Measure:
    """A measure: the wall-clock seconds ``fn()`` takes."""

    def measure() -> float:
        started = time.perf_counter()
        fn()
        return time.perf_counter() - started

    return measure


def spread(values: Sequence[float]) -> Spread:
    """The median of ``values`` with their range, and the values themselves."""
    if not values:
        raise ValueError("no runs to summarise")
    vals = [float(v) for v in values]
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals), "runs": vals}


def ratios(numerator: Sequence[float], denominator: Sequence[float]) -> list[float]:
    """Round-by-round ratios of two interleaved measures (same length, paired by round)."""
    if len(numerator) != len(denominator):
        raise ValueError(f"{len(numerator)} runs against {len(denominator)}: not paired")
    return [a / b for a, b in zip(numerator, denominator)]


def fmt(stat: Spread | float | None, unit: str = "", digits: int = 2) -> str:
    """``0.61× (0.58–0.64)``: a spread's median and range; a single figure alone.

    ``unit`` is written as given after each number's median (``"×"``, ``" ms"``)."""
    if stat is None:
        return "–"
    if isinstance(stat, Mapping):
        med, lo, hi = stat["median"], stat["min"], stat["max"]
        if len(stat.get("runs", ())) <= 1 or f"{lo:.{digits}f}" == f"{hi:.{digits}f}":
            return f"{med:.{digits}f}{unit}"
        return f"{med:.{digits}f}{unit} ({lo:.{digits}f}–{hi:.{digits}f})"
    return f"{float(stat):.{digits}f}{unit}"


def at_least(stat: Spread | float, target: float) -> bool:
    """Whether the median (or the single figure) meets ``≥ target``."""
    return _median(stat) >= target


def at_most(stat: Spread | float, target: float) -> bool:
    """Whether the median (or the single figure) meets ``≤ target``."""
    return _median(stat) <= target


def _median(stat: Spread | float) -> float:
    return float(stat["median"]) if isinstance(stat, Mapping) else float(stat)


def row(
    table: str,
    label: str,
    stat: Spread | float | str | None,
    target: str = "",
    met: bool | None = None,
    *,
    unit: str = "",
    digits: int = 2,
    note: str = "",
) -> dict[str, Any]:
    """One benchmarks-page row: ``table`` is the section it goes under; ``met`` None means the row
    has no target (information only). A string ``stat`` is shown as it is."""
    measured = stat if isinstance(stat, str) else fmt(stat, unit, digits)
    return {
        "table": table,
        "label": label,
        "measured": measured,
        "target": target,
        "met": met,
        "note": note,
    }


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """``(seconds, value)`` of one call."""
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def peak_rss_mb() -> float:
    """Peak resident memory of this process (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain-text table for the terminal."""
    cells = [[str(h) for h in headers]] + [[_cell(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths)) for r in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, Mapping) and "median" in v:
        return fmt(v, digits=3)
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"
    return str(v)
