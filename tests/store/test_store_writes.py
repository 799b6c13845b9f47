"""Writing to the store: upserts by id, counts, freshness of every view after each write."""

from __future__ import annotations

from omnireader.store import Store
from omnireader.store.maintenance import REFRESH_MIN_ROWS, refresh_indexes

from .conftest import MakeItem


def test_adding_the_same_items_twice_updates_instead_of_duplicating(
    store: Store, item: MakeItem
) -> None:
    items = [item(f"id{i}", f"note number {i} about gardening") for i in range(5)]

    first = store.add(items)
    second = store.add(items)

    assert (first.inserted, first.updated) == (5, 0)
    assert (second.inserted, second.updated) == (0, 5)
    assert store.count() == 5


def test_an_upsert_replaces_the_stored_text_in_every_view(store: Store, item: MakeItem) -> None:
    store.add([item("a", "the meeting is on Tuesday in Lisbon")])
    store.add([item("a", "the meeting moved to Thursday in Porto")])

    assert store.get("a").memory == "the meeting moved to Thursday in Porto"  # type: ignore[union-attr]
    assert store.search("Lisbon", view="fts") == []
    assert [r.item.id for r in store.search("Porto", view="fts")] == ["a"]
    assert store.count() == 1


def test_a_mixed_batch_counts_new_and_replaced_items_apart(store: Store, item: MakeItem) -> None:
    store.add([item("old1", "first"), item("old2", "second")])

    result = store.add([item("old1", "first again"), item("new1", "third"), item("new2", "fourth")])

    assert (result.inserted, result.updated) == (2, 1)


def test_items_new_to_the_store_are_added_and_a_stored_one_among_them_is_replaced(
    store: Store, item: MakeItem
) -> None:
    # Rows whose ids the store lacks are appended, the others merged on id: either way
    # each id is stored once, and the counts say which were new.
    store.add([item("a", "alpha text", path="/d/a.txt")])
    new = store.add([item("b", "bravo", path="/d/b.txt"), item("c", "charlie", path="/d/c.txt")])
    mixed = store.add(
        [item("c", "charlie again", path="/d/c.txt"), item("d", "delta", path="/d/d.txt")]
    )
    # Without a location an item is not looked up: merged, as before.
    unlocated = store.add([item("b", "bravo once more"), item("e", "echo")])

    assert [(r.inserted, r.updated) for r in (new, mixed, unlocated)] == [(2, 0), (1, 1), (1, 1)]
    stored = {i.id: i for i in store.iter_items()}
    assert store.count() == len(stored) == 5
    assert stored["c"].memory == "charlie again" and stored["b"].memory == "bravo once more"
    assert stored["d"].source.path == "/d/d.txt"


def test_an_id_repeated_within_one_call_is_stored_once_with_its_last_text(
    store: Store, item: MakeItem
) -> None:
    result = store.add([item("dup", "draft text"), item("dup", "final text")], batch_size=10)

    assert result.inserted == 1
    assert store.get("dup").memory == "final text"  # type: ignore[union-attr]


def test_small_batches_write_everything(store: Store, item: MakeItem) -> None:
    items = [item(f"id{i}", f"entry {i}") for i in range(23)]

    result = store.add(iter(items), batch_size=5)  # any iterable, split into 5 commits

    assert result.inserted == 23
    assert store.count() == 23


def test_full_text_search_finds_new_rows_after_each_write(store: Store, item: MakeItem) -> None:
    store.add([item("a", "aardvarks dig burrows at night")])
    assert [r.item.id for r in store.search("aardvarks", view="fts")] == ["a"]

    store.add([item("b", "bumblebees pollinate clover")])
    assert [r.item.id for r in store.search("bumblebees", view="fts")] == ["b"]
    assert [r.item.id for r in store.search("aardvarks", view="fts")] == ["a"]


def test_rows_written_after_the_index_was_built_are_found_and_later_folded_in(
    store: Store, item: MakeItem
) -> None:
    # Enough rows that the refresh policy folds them into the full-text index.
    n = REFRESH_MIN_ROWS + 50
    store.add(
        [item(f"bulk{i}", f"routine log line {i} about disk usage") for i in range(n)], batch_size=n
    )
    assert store.table.index_stats("memory_idx").num_indexed_rows == n  # the write refreshed it

    store.add([item("late", "a zeppelin landed on the roof")])  # one row: not folded in yet
    assert store.table.index_stats("memory_idx").num_unindexed_rows >= 1
    assert [r.item.id for r in store.search("zeppelin", view="fts")] == ["late"]
    assert [r.item.id for r in store.search("zeppelin", view="hybrid")][0] == "late"

    store.optimize()
    assert store.table.index_stats("memory_idx").num_unindexed_rows == 0
    assert [r.item.id for r in store.search("zeppelin", view="fts")] == ["late"]


def test_refresh_leaves_a_small_uncovered_tail_alone(store: Store, item: MakeItem) -> None:
    store.add([item("x", "one small write")])

    assert refresh_indexes(store.table) is False  # nothing worth rewriting the table for
    assert [r.item.id for r in store.search("small", view="fts")] == ["x"]


def test_each_write_batch_is_refreshed_not_only_the_end_of_a_call(
    store: Store, item: MakeItem
) -> None:
    items = [item(f"i{n}", f"batch entry {n}") for n in range(REFRESH_MIN_ROWS * 2 + 10)]

    store.add(items, batch_size=REFRESH_MIN_ROWS)  # two full batches, then 10 rows

    stats = store.table.index_stats("memory_idx")
    assert (stats.num_indexed_rows, stats.num_unindexed_rows) == (REFRESH_MIN_ROWS * 2, 10)


def test_without_refresh_rows_are_still_found_and_optimize_covers_them(
    store: Store, item: MakeItem
) -> None:
    store.add(
        [item(f"i{n}", f"entry {n} about kites") for n in range(REFRESH_MIN_ROWS + 1)],
        refresh=False,
    )

    assert store.table.index_stats("memory_idx").num_indexed_rows == 0
    assert store.count({"ids": ["i7"]}) == 1
    assert len(store.search("kites", k=5, view="fts")) == 5

    store.optimize()
    assert store.table.index_stats("memory_idx").num_unindexed_rows == 0


def test_keywords_and_tags_are_searchable_words(store: Store, item: MakeItem) -> None:
    store.add([item("k", "she ordered the usual", keywords=["espresso"], tags=["cafe-visit"])])

    assert [r.item.id for r in store.search("espresso", view="fts")] == ["k"]
