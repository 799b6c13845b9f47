"""Memories that change: update with history, archive, rollback, and searching the past.

Every test runs on a real LanceDB store; the store made before versions existed is a real
store written by omnireader 3f161c6 (tests/fixtures/store_before_versions.zip).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from omnireader.errors import InvalidInputError, ItemNotFoundError
from omnireader.store import Store
from tests.store.conftest import MakeItem

OLD_STORE = Path(__file__).resolve().parents[1] / "fixtures" / "store_before_versions.zip"


def _texts(results: list) -> list[str]:
    return [r.item.memory for r in results]


def test_update_makes_a_new_current_version_and_keeps_the_old_in_history(
    store: Store, item: MakeItem
) -> None:
    store.add([item("a", "Alice lives in Paris", user_id="u1"), item("b", "Bob drinks tea")])
    new = store.update("a", memory="Alice lives in Berlin")

    assert (new.memory, new.metadata.version, new.metadata.update_type) == (
        "Alice lives in Berlin",
        2,
        "edit",
    )
    assert store.get("a") == new
    assert store.count() == 2  # still one current item per memory
    old, current = store.history("a")
    assert (old.memory, old.metadata.version, old.metadata.status) == (
        "Alice lives in Paris",
        1,
        "archived",
    )
    assert old.metadata.superseded_by == "a" and old.metadata.superseded_at is not None
    assert current == new and current.metadata.updated_at >= old.metadata.updated_at


def test_update_changes_only_the_metadata_fields_named(store: Store, item: MakeItem) -> None:
    store.add([item("a", "Alice lives in Paris", user_id="u1", tags=["home"])])
    new = store.update("a", metadata={"tags": ["home", "moved"], "version": 99})
    assert new.memory == "Alice lives in Paris"
    assert new.metadata.tags == ["home", "moved"] and new.metadata.user_id == "u1"
    assert new.metadata.version == 2  # the store counts versions, not the caller


def test_default_search_finds_only_current_versions(store: Store, item: MakeItem) -> None:
    store.add([item("a", "Alice lives in Paris"), item("b", "Bob drinks green tea")])
    store.update("a", memory="Alice moved to Berlin")
    assert "Alice lives in Paris" not in _texts(store.search("Alice Paris", k=5))

    both = store.search("Alice Paris", k=5, include_archived=True)
    archived = [r.item for r in both if r.item.metadata.status == "archived"]
    assert [a.memory for a in archived] == ["Alice lives in Paris"]
    assert archived[0].metadata.superseded_by == "a"  # by what, and when
    assert archived[0].metadata.superseded_at is not None


def test_archive_takes_items_out_of_search_and_rollback_brings_them_back(
    store: Store, item: MakeItem
) -> None:
    store.add([item("a", "The lease ends in March"), item("b", "The lease ends in June")])
    assert store.archive(["a", "missing"], "conflict", superseded_by="b") == 1
    assert store.get("a") is None
    assert _texts(store.search("lease ends", k=5)) == ["The lease ends in June"]
    # the replacing item's history shows what it superseded
    assert [(h.id, h.metadata.update_type) for h in store.history("b")] == [
        ("a", "conflict"),
        ("b", None),
    ]
    back = store.rollback("a", 1)
    assert (back.memory, back.metadata.version, back.metadata.update_type) == (
        "The lease ends in March",
        2,
        "rollback",
    )
    assert store.get("a") == back


def test_rollback_archives_the_current_version_and_counts_up(store: Store, item: MakeItem) -> None:
    store.add([item("a", "v one")])
    store.update("a", memory="v two")
    store.update("a", memory="v three")
    restored = store.rollback("a", 1)
    assert (restored.memory, restored.metadata.version) == ("v one", 4)
    assert [(h.memory, h.metadata.version) for h in store.history("a")] == [
        ("v one", 1),
        ("v two", 2),
        ("v three", 3),
        ("v one", 4),
    ]
    with pytest.raises(ItemNotFoundError, match="versions: 1, 2, 3, 4"):
        store.rollback("a", 7)


def test_unknown_ids_and_reasons_are_named_errors(store: Store, item: MakeItem) -> None:
    store.add([item("a", "text")])
    with pytest.raises(ItemNotFoundError, match="'nope'"):
        store.update("nope", memory="x")
    with pytest.raises(InvalidInputError, match="unknown update type 'tidy'"):
        store.archive(["a"], "tidy")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="non-empty"):
        store.update("a", memory="  ")
    assert store.history("nope") == []


def test_deleting_an_item_deletes_its_archived_versions(store: Store, item: MakeItem) -> None:
    store.add([item("a", "Alice lives in Paris", user_id="u1")])
    store.update("a", memory="Alice lives in Berlin")
    assert store.delete(filters={"user_id": "u1"}) == 1
    assert store.history("a") == []
    assert store.search("Alice", k=5, include_archived=True) == []


def test_a_store_made_before_versions_opens_updates_and_searches(tmp_path: Path) -> None:
    with zipfile.ZipFile(OLD_STORE) as z:
        z.extractall(tmp_path)
    store = Store.open(tmp_path / "old.lance", create=False)
    assert store.count() == 3
    old = store.get("old-0")
    assert old is not None and old.metadata.version == 1 and old.metadata.update_type is None
    assert store.history("old-0") == [old]  # no history table yet: just the current item
    assert store.search("Paris", k=3, include_archived=True)[0].item == old

    store.update("old-0", memory="Alice lives in Berlin near the Spree.")
    assert _texts(store.search("Berlin Spree", k=1)) == ["Alice lives in Berlin near the Spree."]
    assert [h.metadata.version for h in store.history("old-0")] == [1, 2]
    # and the same store opens again with its history
    again = Store.open(tmp_path / "old.lance", create=False)
    assert again.history("old-0")[0].memory == "Alice lives in Paris near the Seine."


def test_deleting_by_id_deletes_that_items_versions_only(store: Store, item: MakeItem) -> None:
    store.add([item("a", "Alice lives in Paris"), item("b", "Bob lives in Rome")])
    store.update("a", memory="Alice lives in Berlin")
    store.update("b", memory="Bob lives in Milan")
    assert store.delete(ids=["a"]) == 1
    assert store.history("a") == []
    assert [h.memory for h in store.history("b")] == ["Bob lives in Rome", "Bob lives in Milan"]
