"""FinanceBench dev for bench_retrieval.py: questions over 34 real filings, scored by the split's
own ``score.py`` (``../shared/bench/financebench-dev``).

The 34 PDFs are ingested into one store by the default path (``Reader().ingest``, fast mode,
default embedder, one worker), timed: ingest pages/s is reported beside the figures, so a
change that makes ingest slower shows in the same run. Every question is then searched with
``max_chars=6000`` in two settings:

- ``filtered``: the search filtered to the question's filing (``filters={"path": PDF}``);
- ``whole store``: the search over all 34 filings.

and for each view (``fts``, ``vector``, ``hybrid``), for hybrid without each of its document
steps (windows, routing, expansion: ``docs/search.md``), and for hybrid at other weights of the
heading field (:data:`omnireader.store.headings.HEADING_WEIGHT`; 0 is search without it). ``score.py`` counts ``page@6k`` (an evidence
page among the pages of the first 6,000 characters) and ``cov@6k`` (the share of the evidence's
words in them). Results files (score.py's input) can be written for a look at what came back.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from omnireader import IngestOptions, ingest

__all__ = ["FINANCE", "run_finance", "results_of"]

FINANCE = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "financebench-dev"
BUDGET = 6000
VIEWS = ("fts", "vector", "hybrid")
HEADING_WEIGHTS = (0.0, 0.25, 0.5)  # besides the default (omnireader.store.headings)


def _score_module() -> Any:
    spec = importlib.util.spec_from_file_location("financebench_score", FINANCE / "score.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def results_of(found: list[Any]) -> list[dict[str, Any]]:
    """score.py's shape of one search's results: each passage's text, its file, its pages."""
    out = []
    for r in found:
        src = r.item.source
        # A passage a page break cut is read whole on its first page: it comes from each
        # page it runs onto (``page_end``).
        pages = sorted(
            {
                n
                for i in r.items
                if i.source and i.source.page is not None
                for n in range(i.source.page, (i.source.page_end or i.source.page) + 1)
            }
        )
        out.append(
            {"text": r.text, "doc": (src.path or src.filename or "") if src else "", "pages": pages}
        )
    return out


def _pages(pdfs: list[Path]) -> int:
    import pypdfium2

    total = 0
    for p in pdfs:
        doc = pypdfium2.PdfDocument(str(p))
        total += len(doc)
        doc.close()
    return total


def run_finance(
    embedder: Any = None,
    quick: bool = False,
    results_dir: Path | None = None,
    search: Callable[..., list[Any]] | None = None,
    upgrade: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """Ingest the filings (timed), search every question in both settings and every view.

    ``search(store, query, view=, filters=)`` replaces ``store.search`` (the bench's variants);
    ``upgrade(store)`` runs after ingest, timed apart (a later pass over the stored items).
    """
    from omnireader import Store

    score = _score_module()
    questions = [
        json.loads(line)
        for line in (FINANCE / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    if quick:
        questions = questions[::3]
    pdfs = sorted((FINANCE / "pdfs").glob("*.pdf"))
    out: dict[str, Any] = {
        "questions": len(questions),
        "filings": len(pdfs),
        "pages": _pages(pdfs),
        "settings": {},
    }
    run = search or (lambda store, q, **kw: store.search(q, k=50, max_chars=BUDGET, **kw))
    with tempfile.TemporaryDirectory(prefix="omnireader-finance-") as tmp:
        store = Store.open(Path(tmp) / "finance.lance", embedder=embedder)
        t0 = time.perf_counter()
        report = ingest([FINANCE / "pdfs"], store, options=IngestOptions(workers=1))
        store.optimize()
        seconds = time.perf_counter() - t0
        out["ingest_s"] = round(seconds, 1)
        out["ingest pages/s"] = round(out["pages"] / seconds, 1)
        out["items"] = store.count()
        out["files_failed"] = len(report.failures)
        if upgrade is not None:
            t0 = time.perf_counter()
            upgrade(store)
            out["upgrade_s"] = round(time.perf_counter() - t0, 1)
        for setting in ("filtered", "whole store"):
            for name, view, changes in _variants():
                answers: dict[str, list[dict[str, Any]]] = {}
                with _changed(changes):
                    for q in questions:
                        filters = (
                            {"path": str(FINANCE / "pdfs" / f"{q['doc_name']}.pdf")}
                            if setting == "filtered"
                            else None
                        )
                        answers[q["financebench_id"]] = results_of(
                            run(store, q["question"], view=view, filters=filters)
                        )
                out["settings"].setdefault(setting, {})[name] = _figures(score, questions, answers)
                if results_dir is not None and name == "hybrid":
                    results_dir.mkdir(parents=True, exist_ok=True)
                    name = f"financebench_{setting.replace(' ', '_')}.jsonl"
                    with (results_dir / name).open("w") as fp:
                        for qid, results in answers.items():
                            fp.write(json.dumps({"id": qid, "results": results}) + "\n")
    return out


def _variants() -> list[tuple[str, str, dict[tuple[Any, str], Any]]]:
    """(name, view, module settings changed): each view, then hybrid without each of the
    search's document steps (:mod:`omnireader.store.snippets`, ``.routing``, ``.expansion``)
    and at other heading weights (:data:`omnireader.store.headings.HEADING_WEIGHT`)."""
    from omnireader.store import expansion, headings, routing, snippets

    out: list[tuple[str, str, dict[tuple[Any, str], Any]]] = [(v, v, {}) for v in VIEWS]
    out += [
        ("hybrid, no windows", "hybrid", {(snippets, "WINDOW_CHARS"): 0}),
        ("hybrid, no routing", "hybrid", {(routing, "ROUTE_BOOST"): 0.0}),
        ("hybrid, no expansion", "hybrid", {(expansion, "GROUPS"): ()}),
    ]
    out += [
        (f"hybrid, heading w={w}", "hybrid", {(headings, "HEADING_WEIGHT"): w})
        for w in HEADING_WEIGHTS
        if w != headings.HEADING_WEIGHT
    ]
    return out


@contextmanager
def _changed(changes: dict[tuple[Any, str], Any]) -> Iterator[None]:
    """Module settings (read by every search) changed for the block, then put back."""
    before = {key: getattr(*key) for key in changes}
    try:
        for (module, name), value in changes.items():
            setattr(module, name, value)
        yield
    finally:
        for (module, name), value in before.items():
            setattr(module, name, value)


def _figures(
    score: Any, questions: list[dict[str, Any]], answers: dict[str, Any]
) -> dict[str, Any]:
    got = [score.score(q, answers.get(q["financebench_id"], [])) for q in questions]
    out: dict[str, Any] = {
        "page@6k": round(statistics.fmean(a for a, _ in got), 3),
        "cov@6k": round(statistics.fmean(b for _, b in got), 3),
    }
    for kind in sorted({q["question_type"] for q in questions}):
        sub = [g for q, g in zip(questions, got) if q["question_type"] == kind]
        out[f"page@6k {kind}"] = round(statistics.fmean(a for a, _ in sub), 3)
    return out
