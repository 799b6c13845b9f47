"""Peak memory ingesting one 500-page PDF (target ≤ 300 MB RSS).

    python bench/bench_memory.py [--pages 500]

Runs the ingest in a fresh process and reports the peak RSS of that process and of its
parser worker (the two together are what the machine pays), next to the peak RSS of an
idle interpreter that imported the same modules (the baseline).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _util import OUT, ROOT, table
from make_corpus import make_long_pdf

CHILD = r"""
import json, resource, sys, tempfile
sys.path.insert(0, {root!r})
from pathlib import Path
from omnireader import Reader, Store
import omnireader.router, pypdfium2, lancedb  # the baseline imports these too
if {ingest}:
    store = Store.open(Path(tempfile.mkdtemp()) / "s.lance")
    rep = Reader().ingest([Path({pdf!r})], store=store, workers=1)
    items = rep.items_inserted
else:
    items = 0
self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
kids_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({{"self": self_mb, "worker": kids_mb, "items": items}}))
"""


def measure(pdf: Path, ingest: bool) -> dict[str, Any]:
    code = CHILD.format(root=str(ROOT), pdf=str(pdf), ingest=ingest)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(pages: int = 500) -> dict[str, Any]:
    pdf = make_long_pdf(OUT / f"long_{pages}.pdf", pages=pages)
    base = measure(pdf, ingest=False)
    got = measure(pdf, ingest=True)
    peak = max(got["self"], got["worker"])
    print(table(
        ["process", "peak RSS MB", "baseline MB", "target"],
        [
            ["ingest (writer)", got["self"], base["self"], "≤ 300"],
            ["parser worker", got["worker"], "", "≤ 300"],
        ],
    ))
    print(f"{pages}-page PDF → {got['items']} items")
    return {"pages": pages, "writer_mb": got["self"], "worker_mb": got["worker"],
            "baseline_mb": base["self"], "peak_mb": peak, "items": got["items"]}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=500)
    run(ap.parse_args().pages)
