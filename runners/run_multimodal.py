#!/usr/bin/env python3
"""Run every sample case through omnireader and print the items.

    python -m runners.run_multimodal --example all --mode fast --format text
    python runners/run_multimodal.py --example all --mode fast   # the same, as a file
    python runners/run_multimodal.py --example tool --mode fine --llm openai:gpt-4o-mini

--format json prints one record per case: name, description, duration, item count, items.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runners import _common  # noqa: E402
from samples.cases import CASE_SETS, load_cases  # noqa: E402
from samples.make_samples import make_all  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--example", default="all", choices=["all", *CASE_SETS])
    ap.add_argument("--mode", default="fast", choices=["fast", "fine"])
    ap.add_argument("--format", default="text", choices=["text", "json"])
    _common.add_llm_args(ap)
    args = ap.parse_args()

    from omnireader import Reader

    llm = _common.make_llm(args)
    if args.mode == "fine" and llm is None:
        print(
            "fine mode needs an LLM: pass --llm openai:MODEL or --llm ollama:MODEL", file=sys.stderr
        )
        return 2
    make_all()
    reader = Reader(llm=llm)
    records = []
    failed = 0
    for case in load_cases(args.example):
        started = time.perf_counter()
        result = reader.read_report(case.input, info=case.info, mode=args.mode)
        seconds = time.perf_counter() - started
        failed += bool(result.failures)
        if args.format == "json":
            records.append(
                {
                    "name": case.name,
                    "description": case.description,
                    "duration": round(seconds, 4),
                    "item_count": len(result.items),
                    "items": [i.model_dump(mode="json") for i in result.items],
                    "failures": [f.model_dump() for f in result.failures],
                }
            )
            continue
        print(
            f"\n=== {case.name}: {case.description} "
            f"({len(result.items)} items, {seconds * 1000:.0f} ms)"
        )
        _common.show(result.items)
        for f in result.failures:
            print(f"  ✗ [{f.error}] {f.message}")
    if args.format == "json":
        print(json.dumps(records, ensure_ascii=False, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
