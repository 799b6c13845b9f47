"""--link-near-duplicates: a chunk that repeats a stored one up to whitespace, case,
hyphenation and small edits is linked to it (one memory, every source kept); a different
number, name or negation is never linked."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import IngestOptions, Store, ingest
from omnireader.store.near_duplicates import NearIndex

CLAUSE = (
    "The Supplier shall deliver the goods within thirty days of the order date, at its own "
    "cost and risk, to the address named by Acme Corp in the purchase order."
)


@pytest.mark.parametrize(
    "variant",
    [
        CLAUSE.upper(),
        CLAUSE.replace("  ", " ").replace(", ", " ,  "),
        CLAUSE.replace("deliver the", "de-\nliver the"),
        CLAUSE.replace("within", "wihtin"),
        CLAUSE.replace("address", "adress").replace("the order", "the  order"),
    ],
)
def test_the_same_text_up_to_case_spacing_hyphenation_and_typos_is_found(variant: str) -> None:
    index = NearIndex()
    index.add("clause", CLAUSE)
    assert index.find("new", variant) == "clause"


@pytest.mark.parametrize(
    "variant",
    [
        CLAUSE.replace("thirty", "forty"),
        CLAUSE.replace("thirty days", "30 days"),
        CLAUSE.replace("Acme", "Acne"),
        CLAUSE.replace("shall deliver", "shall not deliver"),
        CLAUSE.replace("the goods", "goods"),
        CLAUSE + " Penalties apply.",
    ],
)
def test_a_different_number_name_negation_or_word_is_never_linked(variant: str) -> None:
    index = NearIndex()
    index.add("clause", CLAUSE)
    assert index.find("new", variant) is None


def test_numbers_must_match_in_order_and_short_texts_are_never_linked() -> None:
    index = NearIndex()
    index.add(
        "a", "Revenue rose 4% to 12.5 million in 2023 while costs fell 2% across all regions."
    )
    assert (
        index.find(
            "b", "Revenue rose 2% to 12.5 million in 2023 while costs fell 4% across all regions."
        )
        is None
    )
    index.add("short", "Net income: 12")
    assert index.find("x", "Net income: 12") is None  # a figure means something else elsewhere


def test_ingest_links_a_near_duplicate_chunk_and_keeps_both_sources(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(CLAUSE + "\n")
    (docs / "b.txt").write_text(CLAUSE.upper().replace("DELIVER THE", "DE-\nLIVER THE") + "\n")
    (docs / "c.txt").write_text(CLAUSE.replace("thirty", "sixty") + "\n")
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=IngestOptions(workers=1, link_near_duplicates=True))
    assert report.items_linked == 1 and "1 linked to a near duplicate" in report.summary()
    items = list(store.iter_items())
    assert len(items) == 2  # the clause once (seen in a.txt and b.txt), the 60-day one apart
    linked = next(i for i in items if "thirty" in i.memory)
    assert sorted(Path(p).name for p in linked.metadata.seen_at) == ["a.txt", "b.txt"]
    assert sorted(Path(s.path or "").name for s in linked.metadata.sources) == ["a.txt", "b.txt"]
    # a path filter finds it under either file
    assert store.count({"path": str(docs / "b.txt")}) == 1

    # b.txt changes: the clause loses b.txt, and stays for a.txt
    (docs / "b.txt").write_text("Something else entirely, about the weather in Oslo.\n")
    ingest(docs, store, options=IngestOptions(workers=1, link_near_duplicates=True))
    clause = next(i for i in store.iter_items() if "thirty" in i.memory)
    assert [Path(p).name for p in (clause.metadata.seen_at or [clause.source.path])] == ["a.txt"]


def test_without_the_option_near_duplicates_stay_apart(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(CLAUSE + "\n")
    (docs / "b.txt").write_text(CLAUSE.upper() + "\n")
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=IngestOptions(workers=1))
    assert report.items_linked == 0 and store.count() == 2


def test_taking_a_linked_file_back_leaves_the_item_as_its_first_file_wrote_it(
    tmp_path: Path,
) -> None:
    # b.txt's chunk is linked to a.txt's item (its source and location added); taking b.txt
    # away leaves exactly what an ingest of a.txt alone stores, its sources too.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(CLAUSE)
    store = Store.open(tmp_path / "s.lance")
    opts = IngestOptions(workers=1, link_near_duplicates=True)
    ingest(docs, store, options=opts)
    (docs / "b.txt").write_text(CLAUSE.upper())
    ingest(docs, store, options=opts)
    [linked] = store.iter_items()
    assert len(linked.metadata.sources) == 2
    store.detach_paths([str(docs / "b.txt")])
    (docs / "b.txt").unlink()
    clean = Store.open(tmp_path / "clean.lance")
    ingest(docs, clean, options=opts)
    [left], [alone] = store.iter_items(), clean.iter_items()
    assert left.metadata.sources == alone.metadata.sources
    assert left.metadata.seen_at == alone.metadata.seen_at == []
    assert (left.id, left.metadata.key) == (alone.id, alone.metadata.key)
