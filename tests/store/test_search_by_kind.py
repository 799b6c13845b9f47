"""Hybrid search weighs meaning by the kind of item: the bundled model's similarities count
half on chat messages (short, in everyday words; both views bring candidates), a fifth on
document chunks (their words find them; meaning reorders BM25's candidates, and what only
meaning found comes after) and not at all against BM25 on the kinds no dev set has measured
(plain strings, tool calls), as bench/bench_semantic.py learned on the dev sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.llm.embedding import make_embedder
from omnireader.store import Store
from omnireader.store.fusion import convex
from omnireader.store.presence import met, one_look, table_version

from .conftest import make_item

TEXTS = {
    "bark": "my dog barks at the mailman every morning",
    "park": "the dog park near us was closed for repairs",
    "tax": "the city tax form lists a dog licence fee among forty other municipal charges, "
    "permits, parking fines and water rates for the year",
    "puppy": "we adopted a puppy from the animal shelter last week",  # no word of the query
    "rain": "it rained all weekend so we stayed in",
    "book": "I finished the novel about the lighthouse keeper",
}


def _store(tmp_path: Path, kind: str) -> Store:
    store = Store.open(tmp_path / f"{kind}.lance")  # the bundled default model
    store.add([make_item(i, t, kind=kind) for i, t in TEXTS.items()])
    return store


def test_the_bundled_model_weighs_meaning_on_chat_messages_and_documents(tmp_path: Path) -> None:
    embedder = Store.open(tmp_path / "s.lance").embedder
    assert embedder.fusion_weight == 0.0
    assert dict(embedder.fusion_weight_by_kind) == {"chat": 0.5, "file": 0.2}
    assert embedder.rerank_kinds == {"file"}


def test_in_a_chat_a_message_close_in_meaning_outranks_a_weak_word_match(tmp_path: Path) -> None:
    ranked = [r.item.id for r in _store(tmp_path, "chat").search("dog", k=6)]
    assert ranked.index("puppy") < ranked.index("tax")  # fused among BM25's hits


@pytest.mark.parametrize("k", [2, 6])
def test_where_meaning_weighs_nothing_every_word_match_comes_before_what_only_meaning_found(
    tmp_path: Path, k: int
) -> None:
    results = _store(tmp_path, "string").search("dog", k=k)
    ranked = [r.item.id for r in results]
    assert ranked[:3] == ["bark", "park", "tax"][:k]
    if k == 2:  # BM25's hits fill the results: the vector view was not asked (its ranks
        # count BM25's candidates only; "puppy", the closest of all, is not among them)
        assert results[0].ranks == {"fts": 1, "vector": 1}


@pytest.mark.parametrize("k", [2, 6])
def test_in_documents_meaning_reorders_the_word_matches_and_what_it_alone_found_comes_after(
    tmp_path: Path, k: int
) -> None:
    store = _store(tmp_path, "file")
    fts = {r.item.id: r.score for r in store.search("dog", k=20, view="fts")}
    cosine = {r.item.id: r.score for r in store.search("dog", k=20, view="vector")}
    # BM25's candidates at the documents' weight, by their own similarities (no vector query).
    order = convex(fts, {i: cosine[i] for i in fts}, 0.0, {i: 0.2 for i in fts})

    results = store.search("dog", k=k)

    ranked = [r.item.id for r in results]
    assert ranked[:3] == [f.id for f in order][:k]
    assert [r.score for r in results][:3] == pytest.approx([f.score for f in order][:k])
    if k == 6:
        assert ranked.index("puppy") == len(fts)  # the closest of all, after every word match
    else:  # BM25's hits fill the results: the vector view was not asked (its ranks count
        # BM25's candidates only; "puppy", the closest of all, is not among them)
        by_meaning = sorted(fts, key=lambda i: -cosine[i])
        assert results[0].ranks["vector"] == by_meaning.index(ranked[0]) + 1


def test_the_vector_view_joins_at_once_when_a_candidate_is_a_chat_message(
    tmp_path: Path,
) -> None:
    results = _store(tmp_path, "chat").search("dog", k=2)
    assert results[0].item.id == "bark"
    assert results[0].ranks == {"fts": 1, "vector": 2}  # "puppy" is closer: it was asked


def test_a_store_is_known_to_hold_a_kind_once_an_item_of_it_is_committed(tmp_path: Path) -> None:
    store = _store(tmp_path, "file")

    def holds_chat() -> frozenset[str]:
        return met(store.table, "kinds", ("chat",), lambda kind: f"source_kind = '{kind}'")

    assert holds_chat() == frozenset()
    store.add([make_item("lighthouse", "see you at the lighthouse on friday", kind="chat")])
    assert holds_chat() == {"chat"}  # looked at again: the table's version changed


def test_one_search_reads_a_tables_version_once(tmp_path: Path) -> None:
    # Its documents' names, filled columns and kinds are asked of one version (each read is a
    # trip into LanceDB); the next search sees the commits made meanwhile.
    store = _store(tmp_path, "file")
    with one_look():
        seen = table_version(store.table)
        store.add([make_item("lighthouse", "see you at the lighthouse on friday", kind="chat")])
        assert table_version(store.table) == seen
    assert table_version(store.table) > seen


@pytest.mark.parametrize("k", [2, 6])
def test_the_vector_query_run_beside_bm25_gives_what_it_gives_run_after(
    tmp_path: Path, k: int
) -> None:
    # A store holding chat messages runs the vector query beside BM25's (the bundled model
    # weighs chat); "dog" matches plain strings only, which it does not weigh, so their
    # order stands and the vector view's candidates come after BM25's. A handle whose model
    # weighs no kind runs it only when those are needed: the same passages, ranks and scores.
    store = _store(tmp_path, "string")
    store.add([make_item("lighthouse", "see you at the lighthouse on friday", kind="chat")])
    later = Store.open(store.path, embedder=make_embedder(store.embedder.name))
    later.embedder.fusion_weight_by_kind = {}
    beside, after = store.search("dog", k=k), later.search("dog", k=k)
    assert [(r.item.id, r.ranks, r.score, r.text) for r in beside] == [
        (r.item.id, r.ranks, r.score, r.text) for r in after
    ]
    assert [r.item.id for r in beside][:3] == ["bark", "park", "tax"][:k]
