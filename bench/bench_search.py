"""Search latency and vector-index recall of the store at 10k and 100k items.

    python bench/bench_search.py [--quick] [--sizes 10000,100000] [--queries 200] [--repeat 5]
                                 [--keep DIR]

For each size it builds a store of synthetic but realistic items (sentences of Zipf-
distributed words plus per-topic vocabulary, several users, sessions, files and pages) with
the default embedder, optimises it (which builds the vector index once the table is large
enough), then measures p50 / p95 latency of ``vector``, ``fts`` and ``hybrid`` search over
``--queries`` queries each (plus hybrid under a user filter and
under path filters, and hybrid filling a 6,000-character budget with ``max_chars``), the views taking turns query
by query, for ``--repeat`` rounds (the median of the rounds' percentiles and their range are
reported), and recall@10 of the indexed vector search against exact (flat) search.
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
from _util import at_least, at_most, spread  # also puts the repository on sys.path
from _util import row as _row

from omnireader.llm.embedding import make_embedder
from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.store import Store
from omnireader.store.maintenance import has_vector_index

SYLLABLES = (
    "ka lo mi ra te su no vi de pa ri zo ba ne lu fo gi he ju ma or an el is um ex ar "
    "on et il st tr pl qu en in"
).split()
VOCABULARY, TOPICS, TOPIC_WORDS, USERS = 30_000, 300, 250, 20
P50_MS, RECALL = 30.0, 0.95  # targets at the largest size
CHAT_WEIGHT = 0.5  # the bundled model's weight on chat messages


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
        source = Source(
            kind="file",
            path=f"/corpus/dir{i % 50}/doc{i // 20}.pdf",
            page=i % 20,
            chunk_index=0,
            content_hash=f"{i // 20:032x}",
        )
        meta = MemoryMetadata(
            user_id=f"user{i % USERS}",
            session_id=f"s{i % 97}",
            sources=[source],
            timestamp=f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T12:00:00Z",
        )
        items.append(MemoryItem(id=f"item-{i}", memory=text, metadata=meta))
    return items


def percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]


def latencies(searches: dict[str, Any], queries: list[str], repeat: int) -> dict[str, Any]:
    """p50 / p95 ms of each search function over ``queries``, ``repeat`` rounds.

    Within a round the functions take turns query by query (q1: A B C, q2: A B C, …), so
    load from elsewhere falls on all alike; each round gives one p50 and one p95 per
    function, and the rounds' median and range are reported."""
    for q in queries[:10]:  # warm caches: the first queries load index files
        for fn in searches.values():
            fn(q)
    p50: dict[str, list[float]] = {k: [] for k in searches}
    p95: dict[str, list[float]] = {k: [] for k in searches}
    for _ in range(repeat):
        samples: dict[str, list[float]] = {k: [] for k in searches}
        for q in queries:
            for name, fn in searches.items():
                start = time.perf_counter()
                fn(q)
                samples[name].append(time.perf_counter() - start)
        for name, got in samples.items():
            a, b = percentiles(got)
            p50[name].append(a)
            p95[name].append(b)
    out: dict[str, Any] = {}
    for name in searches:
        out[f"{name}_p50_ms"], out[f"{name}_p95_ms"] = spread(p50[name]), spread(p95[name])
    return out


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


def bench_size(n: int, n_queries: int, where: Path, repeat: int) -> dict[str, Any]:
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
    queries = [
        " ".join(rng.choice(texts[i].rstrip(".").split(), size=rng.integers(3, 7))) for i in picks
    ]
    row: dict[str, Any] = {
        "items": store.count(),
        "queries": n_queries,
        "repeat": repeat,
        "generate_s": round(t1 - t0, 1),
        "add_s": round(t2 - t1, 1),
        "optimize_s": round(t3 - t2, 1),
        "vector_index": has_vector_index(store.table),
    }
    searches = {
        view: (lambda q, v=view: store.search(q, k=10, view=v))
        for view in ("vector", "fts", "hybrid")
    }
    searches["hybrid_user_filter"] = lambda q: store.search(q, k=10, filters={"user_id": "user3"})
    # Path filters: a folder (2% of the items) and one file (its pages), matched on the
    # path_keys list column (whole names or folders on a separator boundary).
    for name, path in (
        ("folder", "/corpus/dir7"),
        ("file", f"/corpus/dir7/doc{(7 + 50 * 3) // 20}.pdf"),
    ):
        searches[f"hybrid_{name}_filter"] = lambda q, p=path: store.search(
            q, k=10, filters={"path": p}
        )
    # What an agent asks for: as many passages as fit in 6,000 characters.
    searches["hybrid_max_chars"] = lambda q: store.search(q, k=50, max_chars=6000)
    # Items of a kind whose fusion weight is above 0 (chat messages, for the bundled model):
    # the vector query runs on every search, beside BM25's. The same items, searched as if
    # their kind were one of those (a second handle with its own embedder).
    by_kind = Store.open(store.path, embedder=make_embedder(store.embedder.name))
    by_kind.embedder.fusion_weight_by_kind = {"file": CHAT_WEIGHT}
    by_kind.embedder.rerank_kinds = frozenset()  # both views' candidates, as for chat
    searches["hybrid_by_kind"] = lambda q: by_kind.search(q, k=10)
    searches["hybrid_by_kind_max_chars"] = lambda q: by_kind.search(q, k=50, max_chars=6000)
    row.update(latencies(searches, queries, repeat))
    row["vector_recall_at_10"] = round(exact_recall(store, queries), 3)
    return row


def run(
    quick: bool = False,
    sizes: list[int] | None = None,
    n_queries: int = 200,
    keep: Path | None = None,
    repeat: int | None = None,
) -> dict[str, Any]:
    """Benchmark every size; returns {"sizes": {size: numbers}}."""
    sizes = sizes or ([10_000] if quick else [10_000, 100_000])
    repeat = repeat or (3 if quick else 5)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="omnireader-bench-") as tmp:
        where = keep or Path(tmp)
        for n in sizes:
            results[str(n)] = bench_size(n, n_queries, where, repeat)
            print(f"built and measured {n} items", file=sys.stderr, flush=True)
    print_table(results)
    return {"sizes": results}


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    sizes = result["sizes"]
    top = max(sizes, key=int)
    r = sizes[top]
    n = f"{int(top):,} items".replace(",", " ")
    p50 = r["hybrid_p50_ms"]
    return [
        _row(
            "Search",
            f"hybrid search p50 at {n}",
            p50,
            f"≤ {P50_MS:g} ms",
            at_most(p50, P50_MS),
            unit=" ms",
            digits=1,
        ),
        _row(
            "Search",
            f"hybrid search p95 at {n}",
            r["hybrid_p95_ms"],
            unit=" ms",
            digits=1,
            note="information",
        ),
        _row(
            "Search",
            f"hybrid search under a user filter, p50 at {n}",
            r["hybrid_user_filter_p50_ms"],
            unit=" ms",
            digits=1,
            note="information",
        ),
        _row(
            "Search",
            f"hybrid search under a folder filter (2 % of items), p50 at {n}",
            r["hybrid_folder_filter_p50_ms"],
            f"≤ {P50_MS:g} ms",
            at_most(r["hybrid_folder_filter_p50_ms"], P50_MS),
            unit=" ms",
            digits=1,
        ),
        _row(
            "Search",
            f"hybrid search filling a 6,000-character budget (`max_chars`), p50 at {n}",
            r["hybrid_max_chars_p50_ms"],
            f"≤ {P50_MS:g} ms",
            at_most(r["hybrid_max_chars_p50_ms"], P50_MS),
            unit=" ms",
            digits=1,
        ),
        _row(
            "Search",
            f"hybrid search of items whose kind weighs meaning (chat), p50 at {n}",
            r["hybrid_by_kind_p50_ms"],
            f"≤ {P50_MS:g} ms",
            at_most(r["hybrid_by_kind_p50_ms"], P50_MS),
            unit=" ms",
            digits=1,
            note=f"fusion weight {CHAT_WEIGHT} on every candidate: the vector query runs beside "
            "BM25's; filling 6,000 characters: "
            f"{r['hybrid_by_kind_max_chars_p50_ms']['median']:.1f} ms",
        ),
        _row(
            "Search",
            f"vector recall@10 at {n} (indexed vs exact)",
            r["vector_recall_at_10"],
            f"≥ {RECALL:g}",
            at_least(r["vector_recall_at_10"], RECALL),
            digits=2,
        ),
    ]


def print_table(results: dict[str, dict[str, Any]]) -> None:
    cols = [
        "vector_p50_ms",
        "vector_p95_ms",
        "fts_p50_ms",
        "fts_p95_ms",
        "hybrid_p50_ms",
        "hybrid_p95_ms",
        "hybrid_user_filter_p50_ms",
        "hybrid_folder_filter_p50_ms",
        "hybrid_file_filter_p50_ms",
        "hybrid_max_chars_p50_ms",
        "hybrid_max_chars_p95_ms",
        "hybrid_by_kind_p50_ms",
        "hybrid_by_kind_max_chars_p50_ms",
        "vector_recall_at_10",
        "vector_index",
        "add_s",
        "optimize_s",
    ]
    print(f"{'metric (median of rounds)':28}" + "".join(f"{n:>12}" for n in results))
    for c in cols:
        cells = [r[c]["median"] if isinstance(r[c], dict) else r[c] for r in results.values()]
        print(
            f"{c:28}"
            + "".join(f"{round(v, 1) if isinstance(v, float) else v!s:>12}" for v in cells)
        )
    print(
        f"targets: hybrid p50 <= {P50_MS:g} ms at the largest size; vector recall@10 >= {RECALL:g}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10k items only, 3 rounds")
    parser.add_argument("--sizes", default=None, help="comma-separated item counts")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=None, help="rounds of the query set")
    parser.add_argument("--keep", type=Path, default=None, help="build stores here and keep them")
    parser.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    results = run(args.quick, sizes, args.queries, args.keep, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
