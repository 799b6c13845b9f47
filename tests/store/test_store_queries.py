"""The search's own LanceDB queries: the same queries as LanceDB's builders make, and the
same ranking as the pipeline built on those builders (what search did before it built its
queries itself and read an item's columns only for rows that may be shown)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from omnireader.models import MemoryItem
from omnireader.store import Store
from omnireader.store import search as se
from omnireader.store.context import Hit, assemble
from omnireader.store.fusion import convex
from omnireader.store.hit_rows import fetch_items, item_rows
from omnireader.store.maintenance import REFINE_FACTOR
from omnireader.store.queries import filter_query, fts_query, run_queries, vector_query
from omnireader.store.query_sentences import cosines
from omnireader.store.schema import FTS_COLUMNS, ITEM_COLUMNS
from omnireader.store.temporal import TIME_WEIGHT, boost, periods
from omnireader.units import NEIGHBOUR_TEXT

from .conftest import make_item

WORDS = (
    "otter heron maple quartz lantern harbor meadow cobalt ember willow falcon copper "
    "glacier saffron tundra velvet orchid basalt lagoon juniper"
).split()


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """300 items from a fixed generator: many share words (BM25 ties), users, dates."""
    rng = np.random.default_rng(7)
    items = []
    for i in range(300):
        words = rng.choice(WORDS, size=int(rng.integers(3, 9)))
        items.append(
            make_item(
                f"i{i:03d}",
                " ".join(words),
                user_id=f"u{i % 3}",
                path=f"/d{i % 4}/f{i}.txt",
                timestamp=f"2024-{1 + i % 12:02d}-0{1 + i % 9}T10:00:00Z",
            )
        )
    store = Store.open(tmp_path_factory.mktemp("fixed") / "s.lance")
    store.add(items)
    return store


def _builder_hybrid(
    store: Store, query: str, k: int, where: str | None, max_chars: int | None
) -> list[tuple[str, float, str]]:
    """Hybrid search through LanceDB's public query builders, every row read whole."""
    from lancedb.query import MultiMatchQuery

    t, emb = store.table, store.embedder
    wanted = min(k, se.BUDGET_PASSAGES) if max_chars is not None else k
    n = max(wanted, 10) * se.CANDIDATES_PER_K
    vector = emb.embed_query(query)
    vq = t.search(vector, vector_column_name="vector").distance_type("cosine")
    fq = t.search(MultiMatchQuery(query, list(FTS_COLUMNS)), query_type="fts")
    if where:
        vq, fq = vq.where(where, prefilter=True), fq.where(where, prefilter=True)
    vrows = (
        vq.refine_factor(REFINE_FACTOR)
        .select(["id", "source_kind", *ITEM_COLUMNS, "_distance"])
        .limit(n)
        .to_arrow()
        .to_pylist()
    )
    trows = (
        fq.select(["id", "source_kind", *ITEM_COLUMNS, "_score", "vector"])
        .limit(n)
        .to_arrow()
        .to_pylist()
    )
    semantic = {r["id"]: 1.0 - float(r["_distance"]) for r in vrows}
    if trows:
        sims = cosines(np.asarray([r["vector"] for r in trows], dtype=np.float32), vector)
        for r, s in zip(trows, sims):
            semantic.setdefault(r["id"], float(s))
    rows = {r["id"]: r for r in (*trows, *vrows)}
    lexical = {r["id"]: float(r["_score"]) for r in trows}
    weight = {
        i: emb.fusion_weight_by_kind.get(r["source_kind"], emb.fusion_weight)
        for i, r in rows.items()
    }
    if periods(query):  # both views' candidates at their kinds' weights, then the time boost
        fused = convex(lexical, semantic, emb.fusion_weight, weight)
    else:  # documents: meaning reorders BM25's candidates; the vector view's come after them
        assert {rows[i]["source_kind"] for i in rows} <= emb.rerank_kinds
        bm25 = {i: semantic[i] for i in lexical}
        fused = convex(lexical, bm25, emb.fusion_weight, {i: weight[i] for i in lexical})
        fused += [f for f in convex(lexical, semantic, 0.0) if f.id not in lexical]
    hits = boost(
        [Hit(id=f.id, row=rows[f.id], score=f.score, ranks=f.ranks) for f in fused],
        query,
        TIME_WEIGHT,
    )
    results = assemble(hits, lambda ids: fetch_items(t, ids, where), wanted, "hybrid", max_chars)
    return [(r.item.id, round(r.score, 6), r.text) for r in results]


QUERIES = [
    "otter heron",
    "maple quartz lantern",
    "glacier",
    "velvet orchid in May 2024",
    "juniper lagoon basalt tundra",
    "nothing shares these words",
    "falcon 2024-03",
]


@pytest.mark.parametrize("where", [None, "user_id = 'u1'"])
@pytest.mark.parametrize("k,max_chars", [(10, None), (3, None), (50, 400)])
def test_hybrid_ranks_exactly_as_the_builder_pipeline(
    fixed: Store, where: str | None, k: int, max_chars: int | None
) -> None:
    for query in QUERIES:
        got = [
            (r.item.id, round(r.score, 6), r.text)
            for r in se.run_search(
                fixed.table, fixed.embedder, query, k, "hybrid", where, max_chars
            )
        ]
        expected = _builder_hybrid(fixed, query, k, where, max_chars)
        # The same passages in the same order; the fused scores to float32's precision.
        assert [(i, t) for i, _, t in got] == [(i, t) for i, _, t in expected], query
        assert [s for _, s, _ in got] == pytest.approx([s for _, s, _ in expected], abs=1e-5)
        assert got  # every query finds something (vector candidates at least)


def test_query_objects_are_the_ones_the_builders_make(fixed: Store) -> None:
    from lancedb.query import MatchQuery

    t = fixed.table
    vector = fixed.embedder.embed_query("otter")
    for where in (None, "user_id = 'u2'"):
        vq = t.search(vector, vector_column_name="vector").distance_type("cosine")
        fqs = [t.search(MatchQuery("otter", column), query_type="fts") for column in FTS_COLUMNS]
        if where:
            vq = vq.where(where, prefilter=True)
            fqs = [fq.where(where, prefilter=True) for fq in fqs]
        vq = vq.refine_factor(REFINE_FACTOR).select(["id", "_distance"]).limit(40)
        assert vector_query(vector, 40, where, ["id", "_distance"]) == vq.to_query_object()
        assert fts_query("otter", 40, where, ["id", "_score"]).per_column == tuple(
            fq.select(["id", "_score"]).limit(40).to_query_object() for fq in fqs
        )
    eq = t.search().where("id IN ('i001')").select(ITEM_COLUMNS).limit(1)
    assert filter_query("id IN ('i001')", 1, ITEM_COLUMNS) == eq.to_query_object()


@pytest.mark.parametrize("where", [None, "user_id = 'u0'"])
def test_bm25_over_the_columns_gives_the_rows_and_scores_of_lancedbs_multi_match(
    tmp_path: Path, where: str | None
) -> None:
    """One query per column, merged (best column score per row, top n), is what LanceDB's
    MultiMatchQuery returns, with every column holding text."""
    from lancedb.query import MultiMatchQuery

    rng = np.random.default_rng(11)
    store = Store.open(tmp_path / "s.lance")
    items = []
    for i in range(400):
        item = make_item(
            f"m{i:03d}",
            " ".join(rng.choice(WORDS, size=int(rng.integers(2, 12)))),
            user_id=f"u{i % 2}",
        )
        item.metadata.keywords = [str(w) for w in rng.choice(WORDS, size=int(rng.integers(0, 4)))]
        if i % 3:
            item.metadata.extra[NEIGHBOUR_TEXT] = " ".join(rng.choice(WORDS, size=20))
        items.append(item)
    store.add(items)
    assert (
        store.table.search()
        .where("keywords_text != '' AND context_text IS NOT NULL")
        .limit(1)
        .to_list()
    )
    for query in ["otter", "maple quartz", "glacier saffron tundra velvet", "heron heron"]:
        for n in (5, 40, 400):
            fq = store.table.search(MultiMatchQuery(query, list(FTS_COLUMNS)), query_type="fts")
            if where:
                fq = fq.where(where, prefilter=True)
            theirs = fq.select(["id", "_score"]).limit(n).to_arrow().to_pylist()
            (ours,) = run_queries(store.table, [fts_query(query, n, where, ["id", "_score"])])
            ours_rows = ours.to_pylist()
            # the same scores in order; the same rows except where a tie crosses the cut
            assert [round(r["_score"], 5) for r in ours_rows] == [
                round(r["_score"], 5) for r in theirs
            ], (query, n)
            cut = theirs[-1]["_score"] if theirs else None
            assert {r["id"] for r in ours_rows if r["_score"] != cut} == {
                r["id"] for r in theirs if r["_score"] != cut
            }, (query, n)
            assert ours_rows == sorted(ours_rows, key=lambda r: (-r["_score"], r["id"]))


def test_queries_run_together_give_each_querys_own_rows(fixed: Store) -> None:
    vector = fixed.embedder.embed_query("cobalt ember")
    queries = [
        vector_query(vector, 20, None, ["id", "_distance"]),
        fts_query("cobalt ember", 20, "user_id = 'u0'", ["id", "_score"]),
        filter_query("id IN ('i005', 'i006')", 2, ["id"]),
    ]
    together = run_queries(fixed.table, queries)
    alone = [run_queries(fixed.table, [q])[0] for q in queries]
    assert [t.to_pylist() for t in together] == [a.to_pylist() for a in alone]
    assert len(together[0]) == 20 and sorted(together[2].column("id").to_pylist()) == [
        "i005",
        "i006",
    ]


def test_queries_give_the_rows_lancedbs_own_execution_path_gives(fixed: Store) -> None:
    vector = fixed.embedder.embed_query("maple quartz")
    queries = [
        vector_query(vector, 20, "user_id = 'u1'", ["id", "_distance", *ITEM_COLUMNS]),
        *fts_query("maple quartz", 20, None, ["id", "_score", "vector"]).per_column,
        filter_query("id IN ('i005', 'i006')", 2, ["id", "memory"]),
    ]
    ours = run_queries(fixed.table, queries)
    theirs = [fixed.table._execute_query(q).read_all() for q in queries]
    assert [o.to_pylist() for o in ours] == [t.to_pylist() for t in theirs]
    assert len(ours[0]) and len(ours[1]) and len(ours[-1]) == 2  # the memory column holds text


def test_a_candidate_found_only_by_vectors_is_fetched_when_shown(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance", embedder="hashing")
    store.add(
        [
            make_item("words", "harbor lantern"),
            make_item("other", "quartz meadow"),
            make_item("third", "velvet orchid"),
        ]
    )
    assert store.embedder.fusion_weight == 0  # vector rows come without their items
    results = store.search("harbor", k=3)
    assert [r.item.id for r in results][0] == "words"
    assert {r.item.id for r in results} == {"words", "other", "third"}
    assert all(r.text == r.item.memory for r in results)


def test_a_lazy_candidate_deleted_before_it_is_shown_is_left_out(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    store.add(
        [
            make_item("a", "harbor lantern"),
            make_item("b", "quartz meadow"),
            make_item("c", "velvet orchid"),
        ]
    )
    rows: dict[str, dict[str, Any]] = {
        "a": {"id": "a", "item_json": None},
        "b": {"id": "b", "item_json": None},
    }
    hits = se.hits_of(store.table, rows, [("a", 1.0, {"vector": 1}), ("b", 0.5, {"vector": 2})])
    store.table.delete("id = 'b'")  # between ranking and showing
    got = assemble(hits, lambda ids: [], 2, "hybrid")
    assert [r.item.id for r in got] == ["a"]
    assert isinstance(got[0].item, MemoryItem)


def _plain_hits(store: Store, ids: list[str]) -> list[Hit]:
    rows = item_rows(store.table, ids)
    return [Hit(id=i, row=rows[i], score=1.0 / n, ranks={"fts": n}) for n, i in enumerate(ids, 1)]


def test_later_hits_are_asked_for_only_when_the_passages_are_not_complete(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    store.add([make_item(f"i{n}", f"note {n} {WORDS[n]}") for n in range(6)])
    asked: list[int] = []

    def later() -> list[Hit]:
        asked.append(1)
        return _plain_hits(store, ["i4", "i5"])

    full = assemble(_plain_hits(store, ["i0", "i1", "i2"]), lambda ids: [], 2, "hybrid", more=later)
    assert [r.item.id for r in full] == ["i0", "i1"] and asked == []
    short = assemble(_plain_hits(store, ["i0", "i1"]), lambda ids: [], 4, "hybrid", more=later)
    assert [r.item.id for r in short] == ["i0", "i1", "i4", "i5"] and asked == [1]


def test_hybrid_at_fusion_weight_0_reports_both_views_ranks_once_it_asked_the_vector_view(
    fixed: Store,
) -> None:
    # More passages than items BM25 finds: the vector view's candidates are needed.
    results = fixed.search("otter", k=300)
    assert len(results) > 10
    lexical = [r for r in results if "fts" in r.ranks]
    assert lexical and all("vector" in r.ranks for r in lexical)
    assert all(r.ranks == {"vector": r.ranks["vector"]} for r in results if "fts" not in r.ranks)
