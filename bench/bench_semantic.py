"""The semantic view: each embedder's recall alone and in hybrid, the fusion weight learned on the
dev sets, the finance lexicon with and without, and what embedding costs at ingest.

    python bench/bench_semantic.py [--quick] [--embedders hashing,static,minilm] [--keep DIR]

For every embedder (``hashing``, the old default; ``static``, the bundled model, POTION-base-8M
since 2026-12-06 (a ``--keep`` folder from before holds the distilled MiniLM's stores, which
reopen with it: use a new one); ``minilm``, the opt-in transformer, int8; with
``$OMNIREADER_BENCH_MODEL`` set, that one too, e.g.
``onnx:FOLDER`` for the float export of ``scripts/export_minilm_onnx.py``)
LoCoMo dev (one store a conversation) and FinanceBench dev (one store of 34 filings) are
ingested by the default path, then every question is searched within 6,000 characters by
``fts``, ``vector`` and hybrid at each weight of :data:`WEIGHTS` (FinanceBench: filtered to
the question's filing and over the whole store; with and without the finance lexicon,
:mod:`omnireader.store.expansion`).

The fusion weight is learned, never guessed, for each kind of item the dev sets hold: chat
messages on LoCoMo, document chunks (``file``) on FinanceBench (the mean of filtered and whole
store); ties go to the smaller weight. Each is what a model folder declares
(``fusion_weight_by_kind``, ``fusion_weight`` for the rest), and each weight is searched as
users' searches run with it declared: a kind the model only reorders (``rerank_kinds``:
documents, for the static default) reorders BM25's candidates at it. Held out, so that the
choice is not its own judge: LoCoMo leave-one-conversation-out (the weight best on four
conversations, scored on the fifth) and FinanceBench by halves of the companies
(alphabetical, alternating; best on one half, scored on the other). The ``default`` variant
is the search every user gets: the embedder's declared weights through ``Store.search``'s
own path.

Ingest cost: six filings ingested with the embedder and with the hashing embedder, taking
turns; and the time to embed those items' texts alone, against the ingest's time.
``--keep DIR`` keeps the stores between runs (a run then only searches).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _util import row, spread  # noqa: E402  (puts the repository on sys.path)
from bench_retrieval import LOCOMO, _locomo_stores  # noqa: E402
from bench_retrieval import _score_module as _locomo_score  # noqa: E402
from retrieval_finance import FINANCE, results_of  # noqa: E402
from retrieval_finance import _score_module as _finance_score  # noqa: E402

WEIGHTS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7)
BUDGET = 6000
COST_FILINGS = 6
TABLE = "Retrieval: the semantic view"


def _embedders(names: list[str]) -> list[str]:
    extra = os.environ.get("OMNIREADER_BENCH_MODEL")
    return [*names, extra] if extra and extra not in names else names


def _slug(spec: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in spec)[-40:]


# ------------------------------------------------------------------ stores


def _finance_store(folder: Path, spec: str) -> Any:
    from omnireader import IngestOptions, Store, ingest

    path = folder / "finance.lance"
    if path.is_dir():
        return Store.open(path), None
    store = Store.open(path, embedder=spec)
    t0 = time.perf_counter()
    ingest([FINANCE / "pdfs"], store, options=IngestOptions(workers=1))
    store.optimize()
    return store, round(time.perf_counter() - t0, 1)


def _locomo(folder: Path, spec: str) -> dict[str, Any]:
    from omnireader import Store

    done = sorted(folder.glob("conv-*-message.lance"))
    if done:
        return {p.name.removesuffix("-message.lance"): Store.open(p) for p in done}
    folder.mkdir(parents=True, exist_ok=True)
    return _locomo_stores(folder, spec, "message")


# ------------------------------------------------------------------ sweeps


def _variants(lexicon: bool) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {
        "fts": {"view": "fts"},
        "vector": {"view": "vector"},
        "default": {"view": "hybrid"},
    }
    out |= {f"hybrid w={w}": {"view": "hybrid", "weight": w} for w in WEIGHTS}
    if lexicon:
        out["fts, no lexicon"] = {"view": "fts", "lexicon": False}
        out["default, no lexicon"] = {"view": "hybrid", "lexicon": False}
        out |= {
            f"hybrid w={w}, no lexicon": {"view": "hybrid", "weight": w, "lexicon": False}
            for w in WEIGHTS
        }
    return out


def _run(
    store: Any, query: str, how: dict[str, Any], kind: str, where: str | None = None
) -> list[Any]:
    """One search within the budget: the variant's view, lexicon and weight for ``kind``.

    A weight is searched by ``Store.search``'s own path, the embedder's weight for ``kind``
    set to it: a kind the model only reorders (``rerank_kinds``, documents for the static
    default) reorders BM25's candidates at it, as every user's search does."""
    from omnireader.store import expansion
    from omnireader.store.search import run_search

    embedder = store.embedder
    groups, weights = expansion.GROUPS, embedder.fusion_weight_by_kind
    if not how.get("lexicon", True):
        expansion.GROUPS = ()
    if "weight" in how:
        embedder.fusion_weight_by_kind = {**weights, kind: how["weight"]}
    try:
        return run_search(store.table, embedder, query, 50, how["view"], where, BUDGET)
    finally:
        expansion.GROUPS, embedder.fusion_weight_by_kind = groups, weights


def locomo_sweep(stores: dict[str, Any], quick: bool) -> dict[str, list[float]]:
    """Per variant: each question's recall within 6,000 characters (questions in file order)."""
    from omnireader.store.expansion import expand

    score = _locomo_score()
    questions = _locomo_questions(quick)
    lexicon = any(expand(q["question"]) != q["question"] for q in questions)
    out: dict[str, list[float]] = {}
    for name, how in _variants(lexicon).items():
        answers = {}
        for q in questions:
            found = _run(stores[q["sample_id"]], q["question"], how, "chat")
            answers[q["id"]] = [{"text": r.text, "message_ids": r.message_ids} for r in found]
        out[name] = [r["recall@6000chars"] for r in score.score(questions, answers)]
    return out


def _locomo_questions(quick: bool) -> list[dict[str, Any]]:
    lines = (LOCOMO / "questions.jsonl").read_text().splitlines()
    questions = [json.loads(line) for line in lines if line.strip()]
    return questions[::4] if quick else questions


def finance_sweep(store: Any, quick: bool) -> dict[str, dict[str, list[float]]]:
    """Per setting and variant: each question's page@6k."""
    from omnireader.store.filters import as_filters

    score = _finance_score()
    questions = _finance_questions(quick)
    out: dict[str, dict[str, list[float]]] = {}
    for setting in ("filtered", "whole store"):
        for name, how in _variants(True).items():
            got = []
            for q in questions:
                path = str(FINANCE / "pdfs" / f"{q['doc_name']}.pdf")
                where = as_filters({"path": path}).where() if setting == "filtered" else None
                found = _run(store, q["question"], how, "file", where)
                got.append(float(score.score(q, results_of(found))[0]))
            out.setdefault(setting, {})[name] = got
    return out


def _finance_questions(quick: bool) -> list[dict[str, Any]]:
    lines = (FINANCE / "questions.jsonl").read_text().splitlines()
    questions = [json.loads(line) for line in lines if line.strip()]
    return questions[::3] if quick else questions


# ------------------------------------------------------------------ choosing the weight


def _mean(values: list[float]) -> float:
    return round(statistics.fmean(values), 3) if values else 0.0


def _pick(score_of: Any, suffix: str = "") -> float:
    """The weight whose ``score_of(variant)`` is best; ties to the smaller weight."""
    return max(WEIGHTS, key=lambda w: (round(score_of(f"hybrid w={w}{suffix}"), 6), -w))


def choose(locomo: dict[str, list[float]], finance: dict[str, Any], quick: bool) -> dict[str, Any]:
    """The weight best for each kind (chat on LoCoMo, file on FinanceBench), and each set's
    held-out figure."""
    convs = [q["sample_id"] for q in _locomo_questions(quick)]
    firms = [q["company"] for q in _finance_questions(quick)]
    half = {c: i % 2 for i, c in enumerate(sorted(set(firms)))}
    filt, whole = finance["filtered"], finance["whole store"]

    def finance(name: str) -> float:
        return statistics.fmean([_mean(filt[name]), _mean(whole[name])])

    held_locomo: list[float] = []
    per_conv = {}
    for conv in sorted(set(convs)):
        w = _pick(lambda n: statistics.fmean(v for v, c in zip(locomo[n], convs) if c != conv))
        per_conv[conv] = w
        held_locomo += [v for v, c in zip(locomo[f"hybrid w={w}"], convs) if c == conv]
    held_fin: dict[str, list[float]] = {"filtered": [], "whole store": []}
    per_half = {}
    for h in (0, 1):
        train = [i for i, f in enumerate(firms) if half[f] != h]
        test = [i for i, f in enumerate(firms) if half[f] == h]

        def on_train(n: str, train: list[int] = train) -> float:
            return statistics.fmean([filt[n][i] for i in train] + [whole[n][i] for i in train])

        w = per_half[f"half {h}"] = _pick(on_train)
        for setting, figures in (("filtered", filt), ("whole store", whole)):
            held_fin[setting] += [figures[f"hybrid w={w}"][i] for i in test]
    return {
        "chosen": {"chat": _pick(lambda n: _mean(locomo[n])), "file": _pick(finance)},
        "locomo held out": _mean(held_locomo),
        "locomo weight per held-out conversation": per_conv,
        "finance held out filtered": _mean(held_fin["filtered"]),
        "finance held out whole store": _mean(held_fin["whole store"]),
        "finance weight per held-out half": per_half,
        "chosen without lexicon": _pick(
            lambda n: (_mean(filt[n]) + _mean(whole[n])) / 2, ", no lexicon"
        ),
    }


# ------------------------------------------------------------------ ingest cost


def ingest_cost(spec: str, rounds: int = 2) -> dict[str, Any]:
    """Six filings ingested with ``spec`` and with hashing, taking turns; embedding alone."""
    from omnireader import IngestOptions, Store, ingest
    from omnireader.llm.embedding import make_embedder
    from omnireader.units import match_text

    pdfs = sorted((FINANCE / "pdfs").glob("*.pdf"))[:COST_FILINGS]
    times: dict[str, list[float]] = {spec: [], "hashing": []}
    with tempfile.TemporaryDirectory(prefix="omnireader-semantic-cost-") as tmp:
        for r in range(rounds):
            for name in (spec, "hashing"):
                store = Store.open(Path(tmp) / f"{_slug(name)}-{r}.lance", embedder=name)
                t0 = time.perf_counter()
                ingest(pdfs, store, options=IngestOptions(workers=1))
                times[name].append(time.perf_counter() - t0)
        texts = [match_text(i) for i in store.iter_items()]
    alone = []
    for _ in range(3):
        # A fresh embedder each round, as each ingest has: a static model's word cache
        # would make a second pass over the same texts cheaper than any ingest is.
        embedder = make_embedder(spec)
        embedder.embed(["warm up: the tokenizer loads at its first text"])
        t0 = time.perf_counter()
        embedder.embed(texts)
        alone.append(time.perf_counter() - t0)
    ingest_s = statistics.median(times[spec])
    return {
        "filings": len(pdfs),
        "items": len(texts),
        "ingest_s": spread([round(t, 2) for t in times[spec]]),
        "ingest_s hashing": spread([round(t, 2) for t in times["hashing"]]),
        "embed alone_s": round(statistics.median(alone), 3),
        "embed share": round(statistics.median(alone) / ingest_s, 4),
        "texts/s": round(len(texts) / statistics.median(alone)),
    }


def cold_search(spec: str, runs: int = 5) -> dict[str, Any]:
    """``omnireader search`` in a fresh process on a 13-item store made with ``spec``, and on
    the same store made with the hashing embedder (the old default), taking turns."""
    import subprocess

    from _util import interleaved, ratios, seconds

    from omnireader import Store
    from omnireader.models import MemoryItem, MemoryMetadata, Source

    texts = [f"note {i}: the team met in room {i} to plan the launch" for i in range(13)]
    exe = Path(sys.executable).with_name("omnireader")
    cli = [str(exe)] if exe.exists() else [sys.executable, "-m", "omnireader"]
    with tempfile.TemporaryDirectory(prefix="omnireader-semantic-cold-") as tmp:
        dbs = {}
        for name in (spec, "hashing"):
            dbs[name] = Path(tmp) / f"{_slug(name)}.lance"
            Store.open(dbs[name], embedder=name).add(
                [
                    MemoryItem(
                        id=f"n{i}",
                        memory=t,
                        metadata=MemoryMetadata(sources=[Source(kind="string")]),
                    )
                    for i, t in enumerate(texts)
                ]
            )

        def measure(name: str) -> Any:
            cmd = [*cli, "search", "launch plan", "--db", str(dbs[name]), "--quiet"]
            return seconds(lambda: subprocess.run(cmd, capture_output=True, check=True))

        got = interleaved({n: measure(n) for n in dbs}, repeat=runs, warmup=1)
    return {
        "seconds": spread(got[spec]),
        "seconds hashing": spread(got["hashing"]),
        "ratio": spread(ratios(got[spec], got["hashing"])),
    }


# ------------------------------------------------------------------ the contract


def run(
    quick: bool = False,
    embedders: list[str] | None = None,
    keep: Path | None = None,
) -> dict[str, Any]:
    if not (LOCOMO.is_dir() and FINANCE.is_dir()):
        return {"skipped": "../shared/bench (LoCoMo dev, FinanceBench dev) is absent"}
    out: dict[str, Any] = {"weights": list(WEIGHTS), "embedders": {}}
    with tempfile.TemporaryDirectory(prefix="omnireader-semantic-") as tmp:
        root = keep or Path(tmp)
        for spec in _embedders(embedders or ["hashing", "static"]):
            folder = root / (_slug(spec) + ("-quick" if quick else ""))
            t0 = time.perf_counter()
            locomo = locomo_sweep(_locomo(folder / "locomo", spec), quick)
            store, ingest_s = _finance_store(folder, spec)
            finance = finance_sweep(store, quick)
            entry: dict[str, Any] = {
                "name": store.embedder.name,
                "declared weight": store.embedder.fusion_weight,
                "declared by kind": dict(store.embedder.fusion_weight_by_kind),
                "finance ingest_s": ingest_s,
                "locomo": {n: _mean(v) for n, v in locomo.items()},
                "finance": {s: {n: _mean(v) for n, v in f.items()} for s, f in finance.items()},
                "choice": choose(locomo, finance, quick),
                "seconds": round(time.perf_counter() - t0, 1),
            }
            if spec != "hashing":
                entry["cost"] = ingest_cost(spec, rounds=1 if quick else 2)
                entry["cold search"] = cold_search(spec, runs=3 if quick else 7)
            out["embedders"][spec] = entry
            print(json.dumps({spec: entry}, indent=1), file=sys.stderr)
    return out


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    if "skipped" in result:
        return []
    out = []
    for spec, e in result["embedders"].items():
        c = e["choice"]
        # What search uses (the embedder's declared weights); what the bench learned beside.
        w, by_kind = e["declared weight"], e["declared by kind"]
        h = "default"
        lo, fi, wh = e["locomo"], e["finance"]["filtered"], e["finance"]["whole store"]
        label = f"`{e['name']}`"
        out.append(
            row(
                TABLE,
                f"{label}: vector alone, LoCoMo dev recall within 6,000 chars",
                lo["vector"],
                "≥ 0.75" if spec == "static" else "",
                lo["vector"] >= 0.75 if spec == "static" else None,
                digits=3,
            )
        )
        out.append(
            row(
                TABLE,
                f"{label}: vector alone, FinanceBench dev page@6k filtered / whole",
                f"{fi['vector']:.3f} / {wh['vector']:.3f}",
                "≥ 0.45 filtered" if spec == "static" else "",
                fi["vector"] >= 0.45 if spec == "static" else None,
            )
        )
        note = (
            f"fts {lo['fts']:.3f}; chat weight {by_kind.get('chat', w)} (learned on LoCoMo: "
            f"{c['chosen']['chat']}); held out (leave one conversation out) "
            f"{c['locomo held out']:.3f}"
        )
        ok = lo[h] >= 0.88 and lo[h] >= lo["fts"] + 0.02
        out.append(
            row(
                TABLE,
                f"{label}: hybrid, LoCoMo dev recall within 6,000 chars",
                lo[h],
                "≥ 0.88 and ≥ fts + 0.02" if spec == "static" else "",
                ok if spec == "static" else None,
                digits=3,
                note=note,
            )
        )
        note = (
            f"fts {fi['fts']:.3f} / {wh['fts']:.3f}; file weight {by_kind.get('file', w)} "
            f"(learned on FinanceBench: {c['chosen']['file']}); held out (halves of the companies) "
            f"{c['finance held out filtered']:.3f} / {c['finance held out whole store']:.3f}; "
            f"without the finance lexicon {fi[h + ', no lexicon']:.3f} / "
            f"{wh[h + ', no lexicon']:.3f}"
        )
        ok = fi[h] >= 0.70 and wh[h] >= 0.58
        out.append(
            row(
                TABLE,
                f"{label}: hybrid, FinanceBench dev page@6k filtered / whole",
                f"{fi[h]:.3f} / {wh[h]:.3f}",
                "≥ 0.70 / ≥ 0.58" if spec == "static" else "",
                ok if spec == "static" else None,
                note=note,
            )
        )
        best = min(
            lo[h] - max(lo["fts"], lo["vector"]),
            fi[h] - max(fi["fts"], fi["vector"]),
            wh[h] - max(wh["fts"], wh["vector"]),
        )
        out.append(
            row(
                TABLE,
                f"{label}: hybrid minus its best single view, worst of the three",
                round(best, 3),
                "≥ 0",
                best >= 0,
                digits=3,
            )
        )
        if "cost" in e:
            k = e["cost"]
            out.append(
                row(
                    TABLE,
                    f"{label}: embedding's share of PDF ingest time",
                    k["embed share"],
                    "≤ 0.10",
                    k["embed share"] <= 0.10,
                    digits=3,
                    note=f"{k['items']} items of {k['filings']} filings embedded alone in "
                    f"{k['embed alone_s']} s ({k['texts/s']} texts/s); ingest "
                    f"{k['ingest_s']['median']:.1f} s, with hashing "
                    f"{k['ingest_s hashing']['median']:.1f} s",
                )
            )
        if "cold search" in e:
            k = e["cold search"]
            out.append(
                row(
                    TABLE,
                    f"{label}: cold `omnireader search` (13 items) / the same with hashing",
                    k["ratio"],
                    "≤ 1.0× (not slower)",
                    k["ratio"]["median"] <= 1.0,
                    unit="×",
                    note=f"{k['seconds']['median']:.2f} s against "
                    f"{k['seconds hashing']['median']:.2f} s",
                )
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--embedders", default="hashing,static")
    ap.add_argument("--keep", type=Path, help="keep (and reuse) the stores in this folder")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = run(args.quick, args.embedders.split(","), args.keep)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    for r in rows(result):
        print(f"{r['label']}: {r['measured']}  [{r['target']}] {r['note']}")


if __name__ == "__main__":
    main()
