"""benchmarks-page rows and printed tables for bench_retrieval.py (its ``rows`` and ``print_tables``).

Every figure the benchmarks page shows about retrieval comes from here: each view's recall on LoCoMo
dev, recall per category, the document set, hybrid against its best single view (with and
without the time boost), and the time boost's ablation with its held-out choices.
"""

from __future__ import annotations

from typing import Any

from _util import table

CATEGORIES = ("multi-hop", "temporal", "open-domain", "single-hop")


def _hybrid_holds(variants: dict[str, Any], key: str) -> tuple[bool, float, float]:
    hybrid = variants["hybrid (default)"][key]
    best = max(variants["fts"][key], variants["vector"][key])
    return hybrid >= best, hybrid, best


def _row(
    table_: str,
    label: str,
    measured: str,
    target: str = "",
    met: bool | None = None,
    note: str = "",
) -> dict[str, Any]:
    return {
        "table": table_,
        "label": label,
        "measured": measured,
        "target": target,
        "met": met,
        "note": note,
    }


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """benchmarks-page rows: each view's recall, per category, documents, hybrid against its best
    view on every set, and the time boost's ablation with its held-out choice."""
    if "skipped" in result:
        return []
    out: list[dict[str, Any]] = _finance_rows(result.get("financebench", {}))
    if "locomo" not in result:  # a partial run (--only)
        return out
    loc = result["locomo"]
    v = loc["variants"]
    t = f"Retrieval: LoCoMo dev ({loc['questions']} questions, fast mode, default embedder)"
    d = v["hybrid (default)"]
    out.append(
        _row(
            t,
            "default search (hybrid): recall within 6,000 chars",
            f"{d['recall@6000chars']:.3f}",
            "≥ 0.85",
            d["recall@6000chars"] >= 0.85,
            f"before: {v['hybrid, 256-token windows (before)']['recall@6000chars']:.3f} "
            "(256-token windows)",
        )
    )
    for name in ("fts", "vector", "hybrid, plain RRF"):
        out.append(
            _row(t, f"{name}: recall within 6,000 chars", f"{v[name]['recall@6000chars']:.3f}")
        )
    for name in CATEGORIES:
        out.append(
            _row(
                t,
                f"default search, {name} questions: recall within 6,000 chars",
                f"{d[f'budget {name}']:.3f} (fts {v['fts'][f'budget {name}']:.3f})",
            )
        )
    out.append(
        _row(
            t,
            "default search: recall@10 / characters in the top 10",
            f"{d['recall@10']:.3f} / {d['chars@10']:,}",
        )
    )
    docs = result.get("documents", {})
    if "variants" in docs:
        dv = docs["variants"]
        td = f"Retrieval: documents ({docs['queries']} queries from ../shared/corpus)"
        for key in ("right file first", "file+page within 6000 chars"):
            out.append(
                _row(
                    td,
                    f"default search (hybrid): {key}",
                    f"{dv['hybrid (default)'][key]:.3f}",
                    note=f"fts {dv['fts'][key]:.3f}, vector {dv['vector'][key]:.3f}",
                )
            )
    th = "Retrieval: hybrid against its best single view"
    sets = [("LoCoMo dev", v, "recall@6000chars")]
    fin = result.get("financebench", {})
    for setting, views in fin.get("settings", {}).items():
        sets.append((f"FinanceBench dev, {setting}", _as_variants(views), "page@6k"))
    if "variants" in docs:
        sets.append(("documents", docs["variants"], "file+page within 6000 chars"))
        sets.append(("documents", docs["variants"], "right file first"))
    local = result.get("local_embed", {})
    if "locomo" in local:
        sets.append(
            (f"LoCoMo dev, {local['embedder']}", local["locomo"]["variants"], "recall@6000chars")
        )
        sets.append(
            (
                f"documents, {local['embedder']}",
                local["documents"]["variants"],
                "file+page within 6000 chars",
            )
        )
    for name, variants, key in sets:
        ok, hybrid, best = _hybrid_holds(variants, key)
        out.append(
            _row(
                th,
                f"{name}: hybrid / best single view ({key})",
                f"{hybrid:.3f} / {best:.3f}",
                "hybrid ≥ best view",
                ok,
            )
        )
    tb = loc.get("time_boost")
    if tb:  # fusion alone must hold too, not only thanks to the time boost
        plain = next(iter(tb["weights"].values()))["recall@6000chars"]  # the first weight is 0
        best = max(v["fts"]["recall@6000chars"], v["vector"]["recall@6000chars"])
        out.append(
            _row(
                th,
                "LoCoMo dev: hybrid without the time boost / best single view (recall@6000chars)",
                f"{plain:.3f} / {best:.3f}",
                "hybrid ≥ best view",
                plain >= best,
            )
        )
    if tb:
        tt = (
            f"Retrieval: time boost (LoCoMo dev; {tb['questions naming a date']} questions name "
            "a date)"
        )
        for w, f in tb["weights"].items():
            out.append(
                _row(
                    tt,
                    f"hybrid, time boost {w}: recall within 6,000 chars",
                    f"{f['recall@6000chars']:.3f}",
                    note=f"temporal questions {f['budget temporal']:.3f}, "
                    f"questions naming a date {f['dated questions']:.3f}",
                )
            )
        lo = tb["loco"]
        off = next(iter(tb["weights"].values()))["recall@6000chars"]  # the first weight is 0
        for conv, c in lo["per_conversation"].items():
            out.append(
                _row(
                    tt,
                    f"held out {conv}: boost chosen on the other four",
                    f"{c['held out']:.3f} (boost {c['chosen']:g})",
                    note=f"without boost {c['off']:.3f}",
                )
            )
        out.append(
            _row(
                tt,
                "held out, all five conversations",
                f"{lo['held_out_recall@6000chars']:.3f}",
                f"≥ without boost ({off:.3f})",
                lo["held_out_recall@6000chars"] >= off,
            )
        )
    return out


FINANCE_TARGETS = {"filtered": 0.6, "whole store": 0.4}


def _as_variants(views: dict[str, Any]) -> dict[str, Any]:
    """FinanceBench's views under the names :func:`_hybrid_holds` reads."""
    return {("hybrid (default)" if k == "hybrid" else k): v for k, v in views.items()}


def _finance_rows(fin: dict[str, Any]) -> list[dict[str, Any]]:
    if "settings" not in fin:
        return []
    t = (
        f"Retrieval: FinanceBench dev ({fin['questions']} questions, {fin['filings']} filings, "
        f"{fin['pages']:,} pages; fast mode, default embedder)"
    )
    out = []
    for setting, views in fin["settings"].items():
        h = views["hybrid"]
        out.append(
            _row(
                t,
                f"default search, {setting}: page@6k",
                f"{h['page@6k']:.3f}",
                f"≥ {FINANCE_TARGETS[setting]}",
                h["page@6k"] >= FINANCE_TARGETS[setting],
                f"cov@6k {h['cov@6k']:.3f}; fts {views['fts']['page@6k']:.3f}, "
                f"vector {views['vector']['page@6k']:.3f}"
                + "".join(
                    f"; {label} {views[name]['page@6k']:.3f}"
                    for name, label in (
                        ("hybrid, no windows", "without windows"),
                        ("hybrid, no routing", "without routing"),
                        ("hybrid, no expansion", "without expansion"),
                        ("hybrid, heading w=0.0", "without the heading field"),
                    )
                    if name in views
                ),
            )
        )
    out.append(
        _row(
            t,
            "default ingest of the filings: pages/s",
            f"{fin['ingest pages/s']:.1f}",
            note=f"{fin['items']:,} items in {fin['ingest_s']} s, one worker",
        )
    )
    return out


def print_tables(result: dict[str, Any]) -> None:
    if "skipped" in result:
        print(f"retrieval benchmark skipped: {result['skipped']}")
        return

    def show(title: str, variants: dict[str, Any]) -> None:
        keys = list(next(iter(variants.values())).keys())
        print(f"\n{title}")
        print(
            table(
                ["configuration", *keys], [[n, *(f[k] for k in keys)] for n, f in variants.items()]
            )
        )

    fin = result.get("financebench", {})
    for setting, views in fin.get("settings", {}).items():
        show(
            f"FinanceBench dev, {setting} ({fin['questions']} questions; ingest "
            f"{fin['ingest pages/s']} pages/s)",
            views,
        )
    if "locomo" not in result:
        for r in rows(result):
            print(f"{r['label']}: {r['measured']} (target {r['target']}, met: {r['met']})")
        return
    loc = result["locomo"]
    show(
        f"LoCoMo dev ({loc['questions']} questions; recall within 6,000 chars, recall@k, per category "
        f"within the budget)",
        loc["variants"],
    )
    print(f"leave-one-conversation-out (fusion weight): {loc['loco']}")
    if "time_boost" in loc:
        show(
            f"time boost ({loc['time_boost']['questions naming a date']} questions name a date)",
            {f"time w={w}": f for w, f in loc["time_boost"]["weights"].items()},
        )
        print(f"leave-one-conversation-out (time boost): {loc['time_boost']['loco']}")
    docs = result.get("documents", {})
    if "variants" in docs:
        show(f"documents ({docs['queries']} queries, {docs['items']} items)", docs["variants"])
    else:
        print(f"\ndocuments: skipped ({docs.get('skipped')})")
    local = result.get("local_embed", {})
    if "locomo" in local:
        show(f"LoCoMo dev with {local['embedder']}", local["locomo"]["variants"])
        show(f"documents with {local['embedder']}", local["documents"]["variants"])
    else:
        print(f"\nlocal embedder: skipped ({local.get('skipped')})")
    for r in rows(result):
        print(f"{r['label']}: {r['measured']} (target {r['target']}, met: {r['met']})")
