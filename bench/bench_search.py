"""Search latency and vector-index recall of the store at 10k and 100k items.

    python bench/bench_search.py [--sizes 10000,100000] [--queries 200] [--keep DIR]

For each size it builds a store of synthetic but realistic items (sentences of Zipf-
distributed words plus per-topic vocabulary, several users, sessions, files and pages) with
the default embedder, optimises it (which builds the vector index once the table is large
enough), then measures p50 / p95 latency of ``vector``, ``fts`` and ``hybrid`` search over
``--queries`` queries each (plus hybrid under a user filter, and hybrid filling a 6,000-character
budget with ``max_chars``), and recall@10 of the indexed
vector search against exact (flat) search. Prints a table; ``run()`` returns the numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from omnireader.models import MemoryItem, MemoryMetadata, Source  # noqa: E402
from omnireader.store import Store  # noqa: E402
from omnireader.store.maintenance import has_vector_index  # noqa: E402

SYLLABLES = ("ka lo mi ra te su no vi de pa ri zo ba ne lu fo gi he ju ma or an el is um ex ar "
             "on et il st tr pl qu en in").split()
VOCABULARY, TOPICS, TOPIC_WORDS, USERS = 30_000, 300, 250, 20


def synthetic_texts(n: int, seed: int = 0) -> list[str]:
    """``n`` texts of 3–8 sentences; 35% of each text's words come from its topic."""
    rng = np.random.default_rng(seed)
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(SYLLABLES, size=rng.integers(1, 5))))
    vocab = np.array(sorted(words))
    rng.shuffle(vocab)  # Zipf rank unrelated to spelling
    zipf = 1.0 / np.arange(1, VOCABULARY + 1) ** 1.05
    topics = rng.integers(0, VOCABULARY, size=(TOPICS, TOPIC_WORDS))
    lengths = rng.integers(30, 120, size=n)
    total = int(lengths.sum())
    common = rng.choice(VOCABULARY, size=total, p=zipf / zipf.sum())
    topic_of = np.repeat(rng.integers(0, TOPICS, size=n), lengths)
    topical = topics[topic_of, rng.integers(0, TOPIC_WORDS, size=total)]
    ids = np.where(rng.random(total) < 0.35, topical, common)
    tokens = vocab[ids]
    ends = rng.random(total) < 0.1  # a sentence ends after ~10 words
    texts, start = [], 0
    for length in lengths:
        chunk = tokens[start : start + length]
        stops = ends[start : start + length]
        start += length
        sentence = [w + "." if s else w for w, s in zip(chunk, stops)]
        texts.append(" ".join(sentence).capitalize() + ".")
    return texts


def make_items(texts: list[str]) -> list[MemoryItem]:
    items = []
    for i, text in enumerate(texts):
        source = Source(kind="file", path=f"/corpus/dir{i % 50}/doc{i // 20}.pdf", page=i % 20,
                        chunk_index=0, content_hash=f"{i // 20:032x}")
        meta = MemoryMetadata(user_id=f"user{i % USERS}", session_id=f"s{i % 97}", sources=[source],
                              timestamp=f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T12:00:00Z")
        items.append(MemoryItem(id=f"item-{i}", memory=text, metadata=meta))
    return items


def percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]


def timed(fn: Any, queries: list[str]) -> tuple[float, float]:
    for q in queries[:10]:  # warm caches: the first queries load index files
        fn(q)
    samples = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def exact_recall(store: Store, queries: list[str], k: int = 10) -> float:
    """recall@k of the store's vector view against exact cosine search over every vector."""
    data = store.table.search().select(["id", "vector"]).limit(None).to_arrow()
    ids = np.array(data.column("id").to_pylist())
    matrix = data.column("vector").combine_chunks().flatten().to_numpy().reshape(len(ids), -1)
    matrix = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    scores = []
    for q in queries:
        exact = set(ids[np.argsort(-(matrix @ store.embedder.embed_query(q)))[:k]])
        found = {r.item.id for r in store.search(q, k=k, view="vector")}
        scores.append(len(exact & found) / k)
    return float(np.mean(scores))


def bench_size(n: int, n_queries: int, where: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    texts = synthetic_texts(n, seed=n)
    items = make_items(texts)
    t1 = time.perf_counter()
    store = Store.open(where / f"bench-{n}.lance")
    store.add(items)  # default batches of 1024, index refresh policy as in an ingest
    t2 = time.perf_counter()
    store.optimize()
    t3 = time.perf_counter()

    rng = np.random.default_rng(1)
    picks = rng.choice(n, size=n_queries, replace=False)
    queries = [" ".join(rng.choice(texts[i].rstrip(".").split(), size=rng.integers(3, 7)))
               for i in picks]
    row: dict[str, Any] = {
        "items": store.count(),
        "generate_s": round(t1 - t0, 1),
        "add_s": round(t2 - t1, 1),
        "optimize_s": round(t3 - t2, 1),
        "vector_index": has_vector_index(store.table),
    }
    for view in ("vector", "fts", "hybrid"):
        p50, p95 = timed(lambda q, v=view: store.search(q, k=10, view=v), queries)
        row[f"{view}_p50_ms"], row[f"{view}_p95_ms"] = round(p50, 1), round(p95, 1)
    p50, p95 = timed(lambda q: store.search(q, k=10, filters={"user_id": "user3"}), queries)
    row["hybrid_user_filter_p50_ms"], row["hybrid_user_filter_p95_ms"] = round(p50, 1), round(p95, 1)
    # What an agent asks for: as many passages as fit in 6,000 characters.
    p50, p95 = timed(lambda q: store.search(q, k=50, max_chars=6000), queries)
    row["hybrid_max_chars_p50_ms"], row["hybrid_max_chars_p95_ms"] = round(p50, 1), round(p95, 1)
    row["vector_recall_at_10"] = round(exact_recall(store, queries), 3)
    return row


def run(sizes: list[int], n_queries: int = 200, keep: Path | None = None) -> dict[int, dict[str, Any]]:
    """Benchmark every size; returns {size: numbers}."""
    results: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="omnireader-bench-") as tmp:
        where = keep or Path(tmp)
        for n in sizes:
            results[n] = bench_size(n, n_queries, where)
            print(f"built and measured {n} items", file=sys.stderr, flush=True)
    return results


def print_table(results: dict[int, dict[str, Any]]) -> None:
    cols = ["vector_p50_ms", "vector_p95_ms", "fts_p50_ms", "fts_p95_ms", "hybrid_p50_ms",
            "hybrid_p95_ms", "hybrid_user_filter_p50_ms", "hybrid_max_chars_p50_ms",
            "hybrid_max_chars_p95_ms", "vector_recall_at_10", "vector_index",
            "add_s", "optimize_s"]
    print(f"{'metric':28}" + "".join(f"{n:>12}" for n in results))
    for c in cols:
        print(f"{c:28}" + "".join(f"{str(r[c]):>12}" for r in results.values()))
    print("targets: hybrid p50 <= 30 ms at 100k items; vector recall@10 >= 0.95")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated item counts")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--keep", type=Path, default=None, help="build stores here and keep them")
    parser.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = parser.parse_args()
    results = run([int(s) for s in args.sizes.split(",")], args.queries, args.keep)
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
