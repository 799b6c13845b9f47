"""PDF ingest through ``--engine ray`` against local ingest, same run, same machine.

    python bench/bench_ray.py [--quick] [--files 200] [--pages 20] [--repeat 3]

Both use 2 workers: local ingest its worker processes, Ray a local one-node cluster with 2
CPUs (started once, before the timed runs, as a cluster that is already up; its start is
reported apart). Each Ray ingest still pays for its Ray Data workers (actors) starting and
importing the parsers, and for moving each file's items through the object store.

The scaling estimate (docs/ray.md, "How it scales") is computed from costs measured here, per
file of this corpus: parse (``p``, one core, in this process), commit (``c``, the single
committer's ``merge_insert`` of one file's items, in batches of the ingest's default size)
and the final index build (``I``, for this store). With ``N`` nodes of ``k`` workers the
parse side reads ``N·k/p`` files per second and the committer at most ``1/c``: the
throughput is ``min(N·k/p, 1/c)``, and adding nodes stops helping at ``N·k = p/c``. A run
of ``F`` files then takes about ``F / min(N·k/p, 1/c) + I`` (the index build grows with the
store; it is measured here for this store only).
"""

from __future__ import annotations

import argparse
import math
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from _util import OUT, at_least, interleaved, ratios, row, seconds, spread, table
from make_corpus import make_pdf_folder

from omnireader import IngestOptions, ingest

RAY_VS_LOCAL = 0.7  # Ray ingest throughput / local ingest throughput, 2 workers each
WORKERS = 2


def _ingest(paths: list[Path], engine: str) -> Any:
    from omnireader import Reader, Store

    db = Path(tempfile.mkdtemp(prefix="omni-bench-ray-")) / "store.lance"
    try:
        # OCR off, as bench_ingest: the timed work is text PDFs.
        return ingest(
            paths,
            Store.open(db),
            reader=Reader(ocr="off"),
            options=IngestOptions(workers=WORKERS, engine=engine),
        )
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def _start_cluster() -> float:
    import ray

    from omnireader.batch.ray_quiet import quiet_environment

    started = time.perf_counter()
    with quiet_environment():
        ray.init(
            num_cpus=WORKERS,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            log_to_driver=False,
            logging_level="WARNING",
        )
    return time.perf_counter() - started


def per_file_costs(paths: list[Path]) -> dict[str, float]:
    """p (parse s/file, one core), c (commit s/file), I (index build s) on this corpus."""
    from omnireader import Reader, Store
    from omnireader.batch.file_task import parse_file

    reader = Reader(ocr="off")
    ctx = reader.context(None, "fast").model_dump(exclude={"refiner"})
    db = Path(tempfile.mkdtemp(prefix="omni-bench-ray-")) / "store.lance"
    try:
        store = Store.open(db)
        # Parsed and embedded as a Ray worker does it (the default local embedder).
        t0 = time.perf_counter()
        parsed = [parse_file(str(p), ctx, store.embedder.name) for p in paths]
        parse = (time.perf_counter() - t0) / len(paths)
        items = [i for r in parsed for i in r["items"]]
        import numpy as np

        vectors = np.concatenate([r["vectors"] for r in parsed if r["items"]])
        t0 = time.perf_counter()
        for start in range(0, len(items), 2048):  # the writer's default batch
            store.add(
                items[start : start + 2048], vectors=vectors[start : start + 2048], refresh=False
            )
        commit = (time.perf_counter() - t0) / len(paths)
        t0 = time.perf_counter()
        store.optimize()
        index = time.perf_counter() - t0
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)
    return {
        "parse_s": parse,
        "commit_s": commit,
        "index_s": index,
        "items_per_file": len(items) / len(paths),
    }


def run(
    quick: bool = False,
    files: int | None = None,
    pages: int | None = None,
    repeat: int | None = None,
) -> dict[str, Any]:
    import ray

    files = files or (20 if quick else 200)
    pages = pages or (10 if quick else 20)
    repeat = repeat or (2 if quick else 3)
    paths = make_pdf_folder(OUT / f"pdfs_{files}x{pages}", files=files, pages=pages)
    cluster_s = _start_cluster()
    try:
        _ingest(paths[:2], "local")  # imports, page cache, Ray Data's driver side
        _ingest(paths[:2], "ray")
        got = interleaved(
            {
                "local": seconds(lambda: _ingest(paths, "local")),
                "ray": seconds(lambda: _ingest(paths, "ray")),
            },
            repeat=repeat,
        )
    finally:
        ray.shutdown()
    costs = per_file_costs(paths)
    p, c = costs["parse_s"], costs["commit_s"]
    res: dict[str, Any] = {
        "files": len(paths),
        "pages": files * pages,
        "repeat": repeat,
        "cluster_start_s": cluster_s,
        "seconds": {k: spread(v) for k, v in got.items()},
        # throughput ratio ray / local = local seconds / ray seconds, round by round
        "ratio_ray_vs_local": spread(ratios(got["local"], got["ray"])),
        **costs,
        # nodes of WORKERS workers at which the single committer becomes the limit
        "committer_bound_nodes": math.ceil(p / (WORKERS * c)) if c > 0 else None,
        "files_per_s_committer_max": 1 / c if c > 0 else None,
    }
    print(
        table(
            ["measure", "value"],
            [
                ["local ingest, 2 workers (s)", res["seconds"]["local"]],
                ["ray ingest, 2 workers (s)", res["seconds"]["ray"]],
                ["ray / local throughput", res["ratio_ray_vs_local"]],
                ["cluster start (s, not timed above)", round(cluster_s, 2)],
                ["parse per file p (ms, one core)", round(p * 1000, 1)],
                ["commit per file c (ms)", round(c * 1000, 2)],
                ["index build I (s)", round(costs["index_s"], 2)],
                ["nodes (2 workers) where the committer limits", res["committer_bound_nodes"]],
            ],
        )
    )
    return res


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    t = "Ray engine"
    r = result["ratio_ray_vs_local"]
    p, c, idx = result["parse_s"], result["commit_s"], result["index_s"]
    n_bound = result["committer_bound_nodes"]
    what = f"PDF ingest ({result['files']} files, {result['pages']} pages)"
    est = [f"N={n}: {min(n * WORKERS / p, 1 / c):.0f} files/s" for n in (1, 4, 16, 64)]
    return [
        row(
            t,
            f"{what}, `--engine ray` on a local 2-CPU cluster / local ingest, 2 workers "
            "each (throughput)",
            r,
            f"≥ {RAY_VS_LOCAL}×",
            at_least(r, RAY_VS_LOCAL),
            unit="×",
        ),
        row(
            t,
            "starting the local Ray cluster (once, not in the ratio)",
            result["cluster_start_s"],
            unit=" s",
            digits=1,
        ),
        row(t, "p: parse per file, one core (scaling input)", p * 1000, unit=" ms", digits=1),
        row(
            t,
            "c: single committer per file, `merge_insert` (scaling input)",
            c * 1000,
            unit=" ms",
            digits=2,
        ),
        row(
            t,
            "I: FTS + vector index build at the end, this store (scaling input)",
            idx,
            unit=" s",
            digits=2,
        ),
        row(
            t,
            f"estimate min(N·{WORKERS}/p, 1/c) for N nodes of {WORKERS} workers",
            "; ".join(est),
            note=f"the committer limits from N ≈ {n_bound} nodes",
        ),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--files", type=int)
    ap.add_argument("--pages", type=int)
    ap.add_argument("--repeat", type=int, help="interleaved rounds")
    a = ap.parse_args()
    res = run(a.quick, a.files, a.pages, a.repeat)
    for r in rows(res):
        print(r)
