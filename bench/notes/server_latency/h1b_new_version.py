"""Hypothesis 1b: what the first search after another writer's commit or optimize costs.

    python bench/notes/server_latency/h1b_new_version.py [--prefill 100000]

A searcher's Store and a separate writer's Store (as the server and its ingest child) over a
copy of the prefilled store made by h1_fragments.py. Per round: the writer commits one row
(or optimises), then the searcher searches twice; the first search loads the new version.
Wall and CPU ms, medians over the rounds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_server import WORDS  # noqa: E402


def timed(store, q):
    t, c = time.perf_counter(), time.process_time()
    store.search(q, k=10)
    return 1000 * (time.perf_counter() - t), 1000 * (time.process_time() - c)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefill", type=int, default=100_000)
    a = ap.parse_args()
    from omnireader.models import MemoryItem, MemoryMetadata
    from omnireader.store import Store

    work = Path("/tmp/13p/h1b.lance")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(Path(f"/tmp/13p/base.lance.{a.prefill}"), work)
    searcher, writer = Store.open(work, create=False), Store.open(work, create=False)
    for i in range(10):
        timed(searcher, f"{WORDS[i % 20]} report")
    rows = {"after a commit": [], "second after a commit": [], "after an optimize": [],
            "second after an optimize": []}
    for r in range(12):
        writer.add([MemoryItem(id=f"x{r}", memory=f"upload {r} about herons",
                               metadata=MemoryMetadata())], refresh=False)
        rows["after a commit"].append(timed(searcher, f"{WORDS[r % 20]} report"))
        rows["second after a commit"].append(timed(searcher, f"{WORDS[(r + 1) % 20]} report"))
        if r % 4 == 3:
            writer.optimize()
            rows["after an optimize"].append(timed(searcher, f"{WORDS[r % 20]} report"))
            rows["second after an optimize"].append(
                timed(searcher, f"{WORDS[(r + 1) % 20]} report"))
    for k, v in rows.items():
        print(f"{k}: wall {statistics.median(x[0] for x in v):.1f} ms, "
              f"CPU {statistics.median(x[1] for x in v):.1f} ms (n={len(v)})")


if __name__ == "__main__":
    main()
