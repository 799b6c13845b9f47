"""Opening, embedder bookkeeping, reading back, export, deletion, stats and ingest helpers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from omnireader.errors import EmbedderMismatchError, InvalidInputError, StoreError
from omnireader.llm.embed_hashing import HashingEmbedder
from omnireader.models import MemoryItem, Source, ToolUse
from omnireader.store import Store

from .conftest import MakeItem, make_item


def test_a_store_remembers_its_embedder_and_reopens_with_it(tmp_path: Path, item: MakeItem) -> None:
    path = tmp_path / "db"
    Store.open(path, embedder="hashing:64").add([item("a", "hello there")])

    reopened = Store.open(path)

    assert (reopened.embedder.name, reopened.embedder.dim) == ("hashing-v1:64", 64)
    assert reopened.search("hello", view="vector")[0].item.id == "a"


def test_opening_with_another_embedder_fails_naming_both_before_any_write(
    tmp_path: Path, item: MakeItem
) -> None:
    path = tmp_path / "db"
    Store.open(path).add([item("a", "hello")])

    with pytest.raises(EmbedderMismatchError) as caught:
        Store.open(path, embedder=HashingEmbedder(dim=128))

    assert "static:potion-base-8m-letters (256 dimensions)" in str(caught.value)
    assert "hashing-v1:128" in str(caught.value)
    assert "omnireader reembed" in str(caught.value)
    assert Store.open(path).count() == 1


def test_opening_a_missing_store_without_create_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no omnireader store"):
        Store.open(tmp_path / "nowhere", create=False)
    assert not (tmp_path / "nowhere" / "items.lance").exists()


def test_get_and_get_many_return_stored_items_in_the_order_asked(
    store: Store, item: MakeItem
) -> None:
    store.add([item("a", "alpha"), item("b", "beta"), item("c", "gamma")])

    assert store.get("b").memory == "beta"  # type: ignore[union-attr]
    assert store.get("zzz") is None
    assert [i.id for i in store.get_many(["c", "missing", "a", "c"])] == ["c", "a"]


def test_export_round_trips_every_item_exactly(store: Store, item: MakeItem) -> None:
    items = [
        item(
            "doc",
            "page text",
            path="/a.pdf",
            page=3,
            content_hash="h1",
            keywords=["k"],
            extra={"title": "A", "pages": 10},
            flags=["needs_ocr"],
        ),
        MemoryItem.model_validate(
            {
                "id": "traj",
                "memory": "searched the web, then answered",
                "metadata": {
                    "memory_type": "ToolTrajectoryMemory",
                    "mode": "fine",
                    "tools": [ToolUse(name="search", arguments={"q": "x"}, success=True)],
                    "correctness": "success",
                    "experience": "when asked, search first",
                    "sources": [Source(kind="tool", tool_call_id="c1", message_id="m7")],
                },
            }
        ),
        item("zh", "中文内容", kind="string"),
    ]
    store.add(items)

    out = io.StringIO()
    written = store.export_jsonl(out)

    lines = out.getvalue().splitlines()
    assert written == len(lines) == 3
    back = {i.id: i for i in (MemoryItem.model_validate(json.loads(line)) for line in lines)}
    assert back == {i.id: i for i in items}


def test_export_and_iteration_honour_filters(store: Store, item: MakeItem) -> None:
    store.add([item("a", "x", user_id="u1"), item("b", "y", user_id="u2")])

    out = io.StringIO()
    assert store.export_jsonl(out, filters={"user_id": "u2"}) == 1
    assert [i.id for i in store.iter_items({"user_id": "u1"})] == ["a"]


def test_delete_by_ids_and_by_filters_reports_how_many_went(store: Store, item: MakeItem) -> None:
    store.add(
        [item(f"u1-{i}", "a", user_id="u1") for i in range(3)]
        + [item(f"u2-{i}", "b", user_id="u2") for i in range(2)]
    )

    assert store.delete(ids=["u1-0", "nope"]) == 1
    assert store.delete(filters={"user_id": "u2"}) == 2
    assert store.delete(ids=[]) == 0
    assert sorted(i.id for i in store.iter_items()) == ["u1-1", "u1-2"]


def test_delete_without_ids_or_filters_is_refused(store: Store, item: MakeItem) -> None:
    store.add([item("a", "keep me")])

    with pytest.raises(InvalidInputError):
        store.delete()
    with pytest.raises(InvalidInputError):
        store.delete(filters={})
    assert store.count() == 1


def test_delete_by_path_removes_a_files_items_and_can_keep_the_new_version(
    store: Store, item: MakeItem
) -> None:
    store.add(
        [
            item("old-1", "old page one", path="/docs/a.pdf", content_hash="v1"),
            item("old-2", "old page two", path="/docs/a.pdf", content_hash="v1"),
            item("new-1", "new page one", path="/docs/a.pdf", content_hash="v2"),
            item("other", "other file", path="/docs/a.pdf.bak", content_hash="v9"),
        ]
    )

    assert store.delete_by_path("/docs/a.pdf", except_hash="v2") == 2
    assert store.content_hashes_by_path() == {"/docs/a.pdf": {"v2"}, "/docs/a.pdf.bak": {"v9"}}
    assert store.search("old", view="fts") == []

    assert store.delete_by_path("/docs/a.pdf") == 1
    assert [i.id for i in store.iter_items()] == ["other"]


def test_content_hash_helpers_tell_an_ingester_what_is_stored(store: Store, item: MakeItem) -> None:
    store.add(
        [
            item("p1", "one", path="/x/a.txt", content_hash="ha"),
            item("p2", "two", path="/x/a.txt", content_hash="ha"),
            item("u1", "web", path=None, content_hash="hw", kind="string"),
        ]
    )
    store.add(
        [
            make_item("url", "page", kind="file", content_hash="hu").model_copy(
                update={
                    "metadata": make_item("url", "page").metadata.model_copy(
                        update={
                            "sources": [
                                Source(kind="file", url="https://example.org/p", content_hash="hu")
                            ]
                        }
                    )
                }
            )
        ]
    )

    assert store.content_hashes_by_path() == {"/x/a.txt": {"ha"}, "https://example.org/p": {"hu"}}
    assert sorted(store.ids_for_content_hash("ha")) == ["p1", "p2"]
    assert store.ids_for_content_hash("nothing") == []


def test_stats_count_items_by_type_mode_and_source_kind(store: Store, item: MakeItem) -> None:
    store.add(
        [
            item("a", "x", memory_type="UserMemory"),
            item("b", "y", kind="chat", mode="fine"),
            item("c", "z", kind="chat"),
        ]
    )

    stats = store.stats()

    assert stats.items == 3
    assert stats.by_type == {"LongTermMemory": 2, "UserMemory": 1}
    assert stats.by_mode == {"fast": 2, "fine": 1}
    assert stats.by_source_kind == {"chat": 2, "file": 1}
    assert (stats.embedder, stats.dim, stats.path) == (
        "static:potion-base-8m-letters",
        256,
        str(store.path),
    )


def test_a_second_handle_sees_writes_made_through_the_first(tmp_path: Path, item: MakeItem) -> None:
    writer, reader = Store.open(tmp_path / "db"), Store.open(tmp_path / "db")

    writer.add([item("a", "fresh news from the writer")])

    assert reader.count() == 1
    assert [r.item.id for r in reader.search("writer", view="fts")] == ["a"]


def test_delete_stale_drops_a_files_old_items_in_one_scope_only(
    store: Store, item: MakeItem
) -> None:
    store.add(
        [
            item("v1-a", "old chunk a", path="/d/f.txt", user_id="u1", content_hash="v1"),
            item("v1-b", "old chunk b", path="/d/f.txt", user_id="u1", content_hash="v1"),
            item("v2-a", "new chunk a", path="/d/f.txt", user_id="u1", content_hash="v2"),
            item("u2-a", "other user's copy", path="/d/f.txt", user_id="u2", content_hash="v1"),
            item("anon", "no user", path="/d/f.txt", content_hash="v1"),
            item("fine", "fine-mode item", path="/d/f.txt", user_id="u1", mode="fine"),
        ]
    )

    gone = store.delete_stale("/d/f.txt", keep_ids=["v2-a"], user_id="u1", mode="fast")

    assert gone == 2
    assert sorted(i.id for i in store.iter_items()) == ["anon", "fine", "u2-a", "v2-a"]


def test_the_ingest_ledger_lives_in_the_store_directory(tmp_path: Path) -> None:
    Store.open(tmp_path / "db").ledger(scope="u1//fast", settings="k1").record(
        [("/a.pdf", "h1", [])]
    )

    reopened = Store.open(tmp_path / "db")

    assert reopened.ledger(scope="u1//fast", settings="k1").hashes() == {"/a.pdf": "h1"}
    assert reopened.ledger(scope="u2//fast", settings="k1").hashes() == {}
    assert reopened.count() == 0  # the ledger is not an item
