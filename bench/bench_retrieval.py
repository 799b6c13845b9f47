"""Retrieval quality: LoCoMo dev (chat memory) and a document set built from the corpora.

    python bench/bench_retrieval.py [--quick] [--json FILE] [--results-dir DIR]

LoCoMo dev (``../shared/bench/locomo-dev``): each conversation is read with the public API
(``Reader().read`` in fast mode, default embedder) into its own store, every question is
searched, and the dev split's own ``score.py`` scores the results: recall within 6,000
characters (``Store.search(..., max_chars=6000)``), recall@k and characters in the top 10
(``k=20``, no budget), and recall per question category. It does this for each view, for
fusion variants (plain RRF, convex fusion at several weights) and for the old granularity
(``chat_units="window"``), and checks that hybrid is not below its best single view.

Fusion weights and the time boost (:mod:`omnireader.store.temporal`: questions naming an
absolute date lift hits from that period) are checked by leave-one-conversation-out: for
each conversation, the weight best on the other four is scored on it, so the held-out figure
is what an unseen conversation gets. The time boost is measured at several weights on the
questions that name a date (on the others it changes nothing).

Documents (``bench/doc_queries.jsonl``, written by ``bench/make_doc_queries.py`` from
``../shared/corpus``): every corpus file is ingested into one store; each query (a phrase from
a page, or words picked from it) must find its file and page. Reported: the right file
first, the right file and page among the results that fit in 6,000 characters, MRR.

FinanceBench dev (``../shared/bench/financebench-dev``, :mod:`retrieval_finance`): 34 filings
ingested by the default path (pages/s reported), each question searched filtered to its filing
and over the whole store, in each view; the split's ``score.py`` gives page@6k and cov@6k.

With ``omnireader[local-embed]`` installed and a model in ``$OMNIREADER_BENCH_MODEL`` (an
ONNX sentence-embedding folder or a sentence-transformers name on disk), the same tables are
made with that embedder; otherwise that part is skipped with a message. Skips cleanly when
``../shared`` is absent.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from retrieval_finance import FINANCE, run_finance  # noqa: E402
from retrieval_report import print_tables, rows  # noqa: E402,F401 - rows: the bench contract

from omnireader import IngestOptions, ingest

SHARED = ROOT.parent / "shared"
LOCOMO = SHARED / "bench" / "locomo-dev"
DOC_QUERIES = HERE / "doc_queries.jsonl"
BUDGET = 6000
WEIGHTS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)  # convex fusion weights tried for the hashing embedder
TIME_WEIGHTS = (0.0, 0.1, 0.3, 0.5, 1.0)  # temporal boosts tried (omnireader.store.temporal)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


# ------------------------------------------------------------------ searching variants


def _search(
    store: Any,
    query: str,
    *,
    view: str,
    k: int,
    max_chars: int | None,
    fusion: tuple[str, float] | None = None,
    where: str | None = None,
    time_weight: float | None = None,
) -> list[Any]:
    """``store.search``, or the same pipeline with another fusion or time boost."""
    from omnireader.store import context, temporal
    from omnireader.store import fusion as fu
    from omnireader.store import search as se
    from omnireader.store.hit_rows import fetch_items

    if fusion is None and time_weight is None:
        return store.search(query, k=k, view=view, max_chars=max_chars)
    tw = temporal.TIME_WEIGHT if time_weight is None else time_weight
    if fusion is None:
        return se.run_search(store.table, store.embedder, query, k, view, where, max_chars, tw)

    n = max(min(k, se.BUDGET_PASSAGES) if max_chars else k, 10) * se.CANDIDATES_PER_K
    trows, vrows, vector = se.candidates(store.table, store.embedder, query, n, where)
    rows = {r["id"]: r for r in (*trows, *vrows)}
    kind, weight = fusion
    if kind == "rrf":
        fused = fu.rrf({"vector": [r["id"] for r in vrows], "fts": [r["id"] for r in trows]})
    else:  # BM25's candidates re-scored by their similarity, as search does
        sem = {r["id"]: r["_sim"] for r in vrows}
        fused = fu.convex(se._rescored(trows, vector, sem), sem, weight)
    hits = temporal.boost(
        se.hits_of(store.table, rows, [(f.id, f.score, f.ranks) for f in fused]), query, tw
    )
    wanted = min(k, se.BUDGET_PASSAGES) if max_chars else k
    # The question's words, as run_search gives them: a long document hit is placed as its
    # best lines under a budget (without them the variants lost the windows).
    terms = se.query_terms(query) if max_chars is not None else None
    return context.assemble(
        hits,
        lambda ids: fetch_items(store.table, ids, where),
        wanted,
        "hybrid",
        max_chars,
        terms=terms,
    )


# ------------------------------------------------------------------ LoCoMo


def _score_module() -> Any:
    spec = importlib.util.spec_from_file_location("locomo_score", LOCOMO / "score.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _locomo_stores(where: Path, embedder: Any, chat_units: str) -> dict[str, Any]:
    from omnireader import Reader, Store
    from omnireader.options import ReadOptions

    reader = (
        Reader(options=ReadOptions(chat_units=chat_units)) if chat_units != "message" else Reader()
    )
    stores = {}
    for path in sorted((LOCOMO / "messages").glob("*.json")):
        conv = path.stem
        store = Store.open(where / f"{conv}-{chat_units}.lance", embedder=embedder)
        items = reader.read(json.loads(path.read_text()), info={"user_id": conv})
        store.add(items)
        store.optimize()
        stores[conv] = store
    return stores


def _answers(stores: dict[str, Any], questions: list[dict[str, Any]], **how: Any) -> dict[str, Any]:
    """Per question: the budgeted results and the top-20 results (score.py's shape)."""
    out: dict[str, Any] = {"budget": {}, "top": {}}
    for q in questions:
        store = stores[q["sample_id"]]
        for key, kw in (
            ("budget", {"k": 50, "max_chars": BUDGET}),
            ("top", {"k": 20, "max_chars": None}),
        ):
            results = _search(store, q["question"], **how, **kw)
            out[key][q["id"]] = [{"text": r.text, "message_ids": r.message_ids} for r in results]
    return out


def _figures(
    score: Any, questions: list[dict[str, Any]], answers: dict[str, Any]
) -> dict[str, Any]:
    budget_rows = score.score(questions, answers["budget"])
    top_rows = score.score(questions, answers["top"])
    mean = lambda rows, key: round(statistics.fmean(r[key] for r in rows), 3) if rows else 0.0  # noqa: E731
    out = {
        "recall@6000chars": mean(budget_rows, "recall@6000chars"),
        "recall@10": mean(top_rows, "recall@10"),
        "recall@20": mean(top_rows, "recall@20"),
        "chars@10": round(mean(top_rows, "chars@10")),
    }
    for c, name in CATEGORIES.items():
        out[f"budget {name}"] = mean(
            [r for r in budget_rows if r["category"] == c], "recall@6000chars"
        )
    out["per_question"] = [r["recall@6000chars"] for r in budget_rows]
    return out


def run_locomo(
    embedder: Any = None, quick: bool = False, results_dir: Path | None = None
) -> dict[str, Any]:
    """Every view and fusion variant on LoCoMo dev; a leave-one-conversation-out weight."""
    score = _score_module()
    questions = [
        json.loads(line)
        for line in (LOCOMO / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    if quick:  # a smoke run: the first 40 questions of each conversation
        seen: dict[str, int] = {}
        questions = [
            q
            for q in questions
            if seen.setdefault(q["sample_id"], 0) < 40
            and not seen.__setitem__(q["sample_id"], seen[q["sample_id"]] + 1)
        ]
    convs = sorted({q["sample_id"] for q in questions})
    variants: dict[str, dict[str, Any]] = {
        "fts": {"view": "fts"},
        "vector": {"view": "vector"},
        "hybrid (default)": {"view": "hybrid"},
        "hybrid, plain RRF": {"view": "hybrid", "fusion": ("rrf", 0.0)},
        **{f"hybrid, convex w={w}": {"view": "hybrid", "fusion": ("convex", w)} for w in WEIGHTS},
    }
    out: dict[str, Any] = {"questions": len(questions), "variants": {}}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omnireader-locomo-") as tmp:
        stores = _locomo_stores(Path(tmp), embedder, "message")
        out["ingest_s"] = round(time.perf_counter() - t0, 1)
        by_conv: dict[str, dict[str, list[float]]] = {}
        for name, how in variants.items():
            answers = _answers(stores, questions, **how)
            out["variants"][name] = figures = _figures(score, questions, answers)
            per_q = figures.pop("per_question")
            for q, v in zip(questions, per_q):
                by_conv.setdefault(name, {}).setdefault(q["sample_id"], []).append(v)
            if results_dir is not None and name == "hybrid (default)":
                results_dir.mkdir(parents=True, exist_ok=True)
                with (results_dir / "locomo_hybrid.jsonl").open("w") as fp:
                    for qid, results in answers["budget"].items():
                        fp.write(json.dumps({"id": qid, "results": results}) + "\n")
        out["time_boost"] = _time_ablation(stores, score, questions, by_conv)
        window = _locomo_stores(Path(tmp), embedder, "window")
        answers = _answers(window, questions, view="hybrid")
        out["variants"]["hybrid, 256-token windows (before)"] = f = _figures(
            score, questions, answers
        )
        f.pop("per_question")
        answers = _answers(window, questions, view="fts")
        out["variants"]["fts, 256-token windows (before)"] = f = _figures(score, questions, answers)
        f.pop("per_question")
    out["loco"] = _leave_one_out(by_conv, convs)
    out["time_boost"]["loco"] = _leave_one_out(
        by_conv, convs, [f"time w={w}" for w in TIME_WEIGHTS]
    )
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def _time_ablation(
    stores: dict[str, Any],
    score: Any,
    questions: list[dict[str, Any]],
    by_conv: dict[str, dict[str, list[float]]],
) -> dict[str, Any]:
    """The hybrid default at each time boost; ``by_conv`` gets each one's per-question recall.

    Only questions that name a period are searched again: for the others the boost does
    nothing (:func:`omnireader.store.temporal.boost`), so their default figures stand.
    """
    from omnireader.store.temporal import periods

    dated = [q for q in questions if periods(q["question"])]
    # by_conv's lists hold each conversation's questions in order: map them back to ids
    base: dict[str, float] = {}
    cursor: dict[str, int] = {}
    for q in questions:
        i = cursor.setdefault(q["sample_id"], 0)
        base[q["id"]] = by_conv["hybrid (default)"][q["sample_id"]][i]
        cursor[q["sample_id"]] = i + 1
    out: dict[str, Any] = {"questions naming a date": len(dated), "weights": {}}
    for w in TIME_WEIGHTS:
        answers = _answers(stores, dated, view="hybrid", time_weight=w)
        rows_ = score.score(dated, answers["budget"])
        per_q = dict(base)
        per_q.update({q["id"]: r["recall@6000chars"] for q, r in zip(dated, rows_)})
        name = f"time w={w}"
        for q in questions:
            by_conv.setdefault(name, {}).setdefault(q["sample_id"], []).append(per_q[q["id"]])
        temporal_qs = [q for q in questions if q["category"] == 2]
        out["weights"][str(w)] = {  # str: the same keys after a JSON round trip
            "recall@6000chars": round(statistics.fmean(per_q.values()), 3),
            "dated questions": round(statistics.fmean(r["recall@6000chars"] for r in rows_), 3)
            if rows_
            else 0.0,
            "budget temporal": round(statistics.fmean(per_q[q["id"]] for q in temporal_qs), 3)
            if temporal_qs
            else 0.0,
        }
    return out


def _leave_one_out(
    by_conv: dict[str, dict[str, list[float]]], convs: list[str], names: Sequence[str] | None = None
) -> dict[str, Any]:
    """Pick a weight on four conversations, score it on the fifth; for each fifth.

    Ties go to the smaller weight (the one that changes less).
    """
    names = list(names or [f"hybrid, convex w={w}" for w in WEIGHTS])
    held: list[float] = []
    chosen: dict[str, float] = {}
    per_conv: dict[str, dict[str, float]] = {}
    for conv in convs:

        def train(name: str) -> float:
            vals = [v for c in convs if c != conv for v in by_conv[name][c]]
            return round(statistics.fmean(vals), 6)

        best = max(names, key=lambda n: (train(n), -names.index(n)))
        chosen[conv] = float(best.rsplit("=", 1)[1])
        held.extend(by_conv[best][conv])
        per_conv[conv] = {
            "chosen": chosen[conv],
            "held out": round(statistics.fmean(by_conv[best][conv]), 3),
            "off": round(statistics.fmean(by_conv[names[0]][conv]), 3),
        }
    default = [v for c in convs for v in by_conv["hybrid (default)"][c]]
    return {
        "held_out_recall@6000chars": round(statistics.fmean(held), 3),
        "default_recall@6000chars": round(statistics.fmean(default), 3),
        "weight_chosen_per_held_out_conversation": chosen,
        "per_conversation": per_conv,
    }


# ------------------------------------------------------------------ documents


def run_documents(embedder: Any = None, quick: bool = False) -> dict[str, Any]:
    """Ingest the corpora into one store; each query must find its file and page."""
    from omnireader import Store

    queries = [json.loads(line) for line in DOC_QUERIES.read_text().splitlines() if line.strip()]
    if quick:
        queries = queries[::4]
    corpus = SHARED / "corpus"
    out: dict[str, Any] = {"queries": len(queries), "variants": {}}
    with tempfile.TemporaryDirectory(prefix="omnireader-docs-") as tmp:
        store = Store.open(Path(tmp) / "docs.lance", embedder=embedder)
        t0 = time.perf_counter()
        report = ingest([corpus], store, options=IngestOptions(workers=1))
        store.optimize()
        out["ingest_s"] = round(time.perf_counter() - t0, 1)
        out["items"] = store.count()
        out["files_failed"] = len(report.failures)
        variants: dict[str, dict[str, Any]] = {
            "fts": {"view": "fts"},
            "vector": {"view": "vector"},
            "hybrid (default)": {"view": "hybrid"},
            "hybrid, plain RRF": {"view": "hybrid", "fusion": ("rrf", 0.0)},
            **{
                f"hybrid, convex w={w}": {"view": "hybrid", "fusion": ("convex", w)}
                for w in WEIGHTS
            },
        }
        for name, how in variants.items():
            out["variants"][name] = _doc_figures(store, queries, corpus, how)
    return out


def _doc_figures(
    store: Any, queries: list[dict[str, Any]], corpus: Path, how: dict[str, Any]
) -> dict[str, Any]:
    first_file, page_in_budget, rr = [], [], []
    by_kind: dict[str, list[float]] = {}
    for q in queries:
        want_file = str((corpus / q["file"]).resolve())
        want_page = q.get("page")

        def is_file(item: Any) -> bool:
            s = item.source
            return (
                s is not None
                and s.path is not None
                and str(Path(s.path).resolve()) == want_file
                and (q.get("member") is None or s.member == q["member"])
            )

        def is_page(item: Any) -> bool:
            src = item.source
            last = src.page_end or src.page if src else None
            return is_file(item) and (
                want_page is None or (src.page is not None and src.page <= want_page <= last)
            )

        top = _search(store, q["query"], k=10, max_chars=None, **how)
        budget = _search(store, q["query"], k=50, max_chars=BUDGET, **how)
        first_file.append(float(bool(top) and is_file(top[0].item)))
        page_in_budget.append(float(any(is_page(i) for r in budget for i in r.items)))
        rank = next((n for n, r in enumerate(top, 1) if is_page(r.item)), None)
        rr.append(1.0 / rank if rank else 0.0)
        by_kind.setdefault(q["kind"], []).append(first_file[-1])
    out = {
        "right file first": round(statistics.fmean(first_file), 3),
        "file+page within 6000 chars": round(statistics.fmean(page_in_budget), 3),
        "MRR (file+page, top 10)": round(statistics.fmean(rr), 3),
    }
    for kind, vals in sorted(by_kind.items()):
        out[f"file first, {kind}"] = round(statistics.fmean(vals), 3)
    return out


# ------------------------------------------------------------------ the contract


def _local_model() -> tuple[Any, str]:
    """The local-embed extra's embedder for the bench, or (None, why not)."""
    spec = os.environ.get("OMNIREADER_BENCH_MODEL")
    if not spec:
        return None, "set OMNIREADER_BENCH_MODEL to an ONNX model folder (onnx:PATH) or st:NAME"
    try:
        from omnireader.llm.embedding import make_embedder

        return make_embedder(spec), ""
    except Exception as e:  # noqa: BLE001 - a bench reports why it skipped
        return None, f"{spec}: {e}"


PARTS = ("locomo", "documents", "financebench", "local_embed")


def run(
    quick: bool = False, results_dir: Path | None = None, only: Sequence[str] = PARTS
) -> dict[str, Any]:
    """The parts named in ``only`` (all by default; ``--only`` runs fewer while developing)."""
    if not LOCOMO.is_dir():
        print(f"bench_retrieval: {LOCOMO} is absent; skipped", file=sys.stderr)
        return {"skipped": f"{LOCOMO} absent"}
    out: dict[str, Any] = {}
    if "locomo" in only:
        out["locomo"] = run_locomo(quick=quick, results_dir=results_dir)
    if "documents" not in only:
        pass
    elif DOC_QUERIES.exists() and (SHARED / "corpus").is_dir():
        out["documents"] = run_documents(quick=quick)
    else:
        out["documents"] = {"skipped": "run bench/make_doc_queries.py (needs ../shared/corpus)"}
    if "financebench" not in only:
        pass
    elif FINANCE.is_dir():
        out["financebench"] = run_finance(quick=quick, results_dir=results_dir)
    else:
        out["financebench"] = {"skipped": f"{FINANCE} absent"}
    embedder, why = _local_model() if "local_embed" in only else (None, "not asked for (--only)")
    if embedder is None:
        print(f"bench_retrieval: local embedder skipped: {why}", file=sys.stderr)
        out["local_embed"] = {"skipped": why}
    else:
        out["local_embed"] = {
            "embedder": embedder.name,
            "locomo": run_locomo(embedder, quick=quick),
            "documents": run_documents(embedder, quick=quick),
        }
        if FINANCE.is_dir():
            out["local_embed"]["financebench"] = run_finance(embedder, quick=quick)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer questions (a smoke run)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument(
        "--results-dir", type=Path, help="write LoCoMo results files (score.py input) here"
    )
    ap.add_argument(
        "--only",
        nargs="+",
        choices=PARTS,
        default=list(PARTS),
        help="run only these parts (the README wants them all)",
    )
    args = ap.parse_args()
    result = run(quick=args.quick, results_dir=args.results_dir, only=args.only)
    print_tables(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
