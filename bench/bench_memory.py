"""Peak memory ingesting one 500-page PDF (target ≤ 300 MB RSS).

    python bench/bench_memory.py [--pages 500]

Runs ``omnireader ingest`` on the PDF in a fresh process and watches the peak RSS
(``VmHWM``) of that process and of its parser worker through /proc, next to the peak RSS of
a fresh interpreter that only imported the same libraries (the baseline, same run).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _util import OUT, ROOT, table
from make_corpus import make_long_pdf


def _hwm_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []


def watch(cmd: list[str]) -> dict[int, float]:
    """Run ``cmd``; the peak RSS of it and of every child it starts, by pid."""
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peaks: dict[int, float] = {}
    while proc.poll() is None:
        for pid in [proc.pid, *_children(proc.pid)]:
            peaks[pid] = max(peaks.get(pid, 0.0), _hwm_mb(pid))
        time.sleep(0.02)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.read().decode()[-2000:] if proc.stderr else "failed")
    peaks.setdefault(proc.pid, 0.0)
    peaks["main"] = peaks.pop(proc.pid)  # type: ignore[index]
    return peaks


def run(pages: int = 500) -> dict[str, Any]:
    pdf = make_long_pdf(OUT / f"long_{pages}.pdf", pages=pages)
    base = watch([sys.executable, "-c",
                  "import time, lancedb, pypdfium2, pypdf, chonkie, omnireader.router; "
                  "time.sleep(0.3)"])["main"]
    with tempfile.TemporaryDirectory() as tmp:
        peaks = watch([sys.executable, "-m", "omnireader", "ingest", str(pdf),
                       "--db", str(Path(tmp) / "s.lance"), "--workers", "1"])
    writer = peaks.pop("main")  # type: ignore[call-overload]
    worker = max(peaks.values(), default=0.0)
    print(table(
        ["process", "peak RSS MB", "target"],
        [["baseline: interpreter + libraries", base, ""],
         ["ingest (writer)", writer, "≤ 300"],
         ["parser worker", worker, "≤ 300"]],
    ))
    return {"pages": pages, "writer_mb": writer, "worker_mb": worker, "baseline_mb": base,
            "peak_mb": max(writer, worker)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=500)
    run(ap.parse_args().pages)
