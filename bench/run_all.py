"""Run every benchmark and print one summary table (``python3 dev.py bench``).

    python bench/run_all.py [--quick] [--only ingest,memory,search,startup,fine,retrieval]

Each benchmark measures its baseline in the same run and reports ratios; the numbers are
also written to bench/out/results.json. --quick uses smaller sizes (a smoke run).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

from _util import OUT, table

ALL = ("startup", "ingest", "memory", "search", "fine", "retrieval")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--only", default=",".join(ALL), help=f"comma list of {', '.join(ALL)}")
    args = ap.parse_args()
    chosen = [b.strip() for b in args.only.split(",") if b.strip()]
    unknown = set(chosen) - set(ALL)
    if unknown:
        ap.error(f"unknown benchmark(s) {sorted(unknown)}; choose from {', '.join(ALL)}")

    results: dict[str, Any] = {"when": time.strftime("%Y-%m-%d %H:%M"),
                               "python": platform.python_version(), "quick": args.quick}
    rows: list[list[Any]] = []
    if "startup" in chosen:
        import bench_startup

        r = results["startup"] = bench_startup.run()
        rows.append(["omnireader --help", f"{r['help_s']:.3f} s", "≤ 0.5 s", r["help_s"] <= 0.5])
    if "ingest" in chosen:
        import bench_ingest

        files, pages = (20, 10) if args.quick else (200, 20)
        r = results["ingest"] = bench_ingest.run(files, pages, 3 if args.quick else 10)
        rows += [
            ["ingest 1 worker / raw pypdfium2", f"{r['ratio_w1_vs_raw']:.2f}×", "≥ 0.5×",
             r["ratio_w1_vs_raw"] >= 0.5],
            ["ingest 2 workers / 1 worker", f"{r['speedup_w2_vs_w1']:.2f}×", "≥ 1.7×",
             r["speedup_w2_vs_w1"] >= 1.7],
            ["ingest 1 worker / MarkItDown", f"{r['ratio_vs_markitdown']:.0f}×", "≥ 100×",
             r["ratio_vs_markitdown"] >= 100],
            ["ingest 2 workers / MarkItDown", f"{r['ratio_vs_markitdown_w2']:.0f}×", "≥ 100×",
             r["ratio_vs_markitdown_w2"] >= 100],
        ]
    if "memory" in chosen:
        import bench_memory

        r = results["memory"] = bench_memory.run(100 if args.quick else 500)
        rows.append([f"peak RSS, {r['pages']}-page PDF", f"{r['peak_mb']:.0f} MB", "≤ 300 MB",
                     r["peak_mb"] <= 300])
    if "search" in chosen:
        import bench_search

        sizes = [10_000] if args.quick else [10_000, 100_000]
        r = results["search"] = bench_search.run(sizes)
        top = r[max(r)]
        rows.append([f"hybrid p50 at {max(r)} items", f"{top['hybrid_p50_ms']:.1f} ms",
                     "≤ 30 ms", top["hybrid_p50_ms"] <= 30])
        rows.append([f"vector recall@10 at {max(r)} items", f"{top['vector_recall_at_10']:.3f}",
                     "≥ 0.95", top["vector_recall_at_10"] >= 0.95])
    if "fine" in chosen:
        import bench_fine

        r = results["fine"] = bench_fine.run()
        for name in ("documents", "chats"):
            part = r[name]
            rows.append([f"fine mode, {name}: wall / ideal", f"{part['ratio']:.2f}×", "≤ 1.15×",
                         part["ratio"] <= 1.15])
        # One chat makes fewer calls than the concurrency: only whole round trips can bound it.
        rows.append(["fine mode, 1 chat: wall / round trips", f"{r['chat']['ratio_to_floor']:.2f}×",
                     "(info)", ""])

    if "retrieval" in chosen:
        import bench_retrieval

        r = results["retrieval"] = bench_retrieval.run(quick=args.quick)
        bench_retrieval.print_tables(r)
        rows += [[row["label"], row["measured"], row["target"], row["met"]]
                 for row in bench_retrieval.rows(r)]

    print("\n" + table(["benchmark", "measured", "target", "met"], rows))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps(results, indent=2, default=str))
    print(f"\nnumbers written to {OUT / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
