#!/usr/bin/env python3
"""Read a chat and a document in fast mode, then (with an LLM) in fine mode, then upgrade
the fast items (fast→fine transfer).

    python -m runners.run_simple                       # fast only (no LLM needed)
    python runners/run_simple.py --llm openai:gpt-4o-mini
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runners import _common  # noqa: E402
from samples.make_samples import CHAT_LOG, make_all  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _common.add_llm_args(ap)
    args = ap.parse_args()

    from omnireader import Reader

    files = Path(make_all()[0]).parent
    inputs = [CHAT_LOG, files / "quarterly_report.pdf"]
    info = {"user_id": "alice", "session_id": "simple"}

    print("== fast")
    fast_items = Reader().read(inputs, info=info, mode="fast")
    _common.show(fast_items)

    llm = _common.make_llm(args)
    if llm is None:
        print("\n(fine mode and transfer skipped: pass --llm openai:MODEL or ollama:MODEL)")
        return 0
    reader = Reader(llm=llm)
    print("\n== fine")
    _common.show(reader.read(inputs, info=info, mode="fine"))
    print("\n== transfer (fast → fine)")
    _common.show(reader.refine(fast_items))
    return 0


if __name__ == "__main__":
    sys.exit(main())
