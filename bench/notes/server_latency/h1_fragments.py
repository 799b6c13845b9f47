"""Hypothesis 1 (issue 13, server latency): do ~200 one-row commits slow a search down?

    python bench/notes/server_latency/h1_fragments.py [--prefill 100000] [--uploads 200]

One searcher, in process, no uploads running, over a copy of one prefilled store:
  A. the optimised store;
  B. the same after ``uploads`` one-row commits (as the writer child makes, one per upload);
  C. B after ``optimize`` (its wall and CPU time reported: what a compaction costs);
  D. the optimised store after the same rows in ONE commit (a grouped burst).
Also: the cost of the first search after a new version lands (interleaved add/search).
Reports wall and process-CPU ms per search (CPU counts LanceDB's native threads too).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_server import WORDS, _prefill  # noqa: E402


def measure(store, n: int = 60) -> dict[str, float]:
    walls, cpus = [], []
    for i in range(n):
        t, c = time.perf_counter(), time.process_time()
        store.search(f"{WORDS[i % 20]} report", k=10)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    walls.sort()
    return {"p50_ms": 1000 * statistics.median(walls), "p95_ms": 1000 * walls[int(0.95 * (n - 1))],
            "cpu_ms": 1000 * statistics.mean(cpus)}


def one_row_items(names):
    from omnireader import Reader

    reader = Reader()
    return [reader.read([f"Upload {n}: the unique token {n.replace('.', '_')} is here."],
                        info={"user_id": "u"})[0] for n in names]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefill", type=int, default=100_000)
    ap.add_argument("--uploads", type=int, default=200)
    ap.add_argument("--base", default="/tmp/13p/base.lance")
    a = ap.parse_args()
    from omnireader.store import Store

    base = Path(f"{a.base}.{a.prefill}")
    if not base.exists():
        t = time.perf_counter()
        _prefill(base, a.prefill)
        print(f"prefill {a.prefill}: {time.perf_counter() - t:.0f} s", flush=True)
    work = Path("/tmp/13p/h1.lance")
    names = [f"file{n:04d}.txt" for n in range(a.uploads)]
    items = one_row_items(names)

    for label in ("one-row commits", "one commit"):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(base, work)
        store = Store.open(work, create=False)
        measure(store, 10)  # warm caches
        print("A optimised:", measure(store), flush=True)
        t, c = time.perf_counter(), time.process_time()
        firsts = []
        if label == "one-row commits":
            for k, item in enumerate(items):
                store.add([item], refresh=False)
                if k % 10 == 0:  # the first search after a version lands
                    s = time.perf_counter()
                    store.search(f"{WORDS[k % 20]} report", k=10)
                    firsts.append(time.perf_counter() - s)
        else:
            store.add(items, refresh=False)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        print(f"writes ({label}): {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU"
              + (f"; first search after a commit median {1000 * statistics.median(firsts):.1f} ms"
                 if firsts else ""), flush=True)
        print(f"  fragments={store.table.stats()['fragment_stats']['num_fragments']} "
              f"version={store.table.version}")
        print(f"B after {label}:", measure(store), flush=True)
        t, c = time.perf_counter(), time.process_time()
        store.optimize()
        print(f"optimize: {time.perf_counter() - t:.2f} s wall, "
              f"{time.process_time() - c:.2f} s CPU", flush=True)
        print(f"  fragments={store.table.stats()['fragment_stats']['num_fragments']}")
        print(f"C after optimize:", measure(store), flush=True)


if __name__ == "__main__":
    main()
