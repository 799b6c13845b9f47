"""Identical bytes at several paths: one item that remembers every path, found under each,
and surviving until its last path goes. Path filters match whole names or folders."""

from __future__ import annotations

import io
import json

from omnireader.models import Source
from omnireader.store import Store


def ids(store: Store, **filters: object) -> set[str]:
    return {i.id for i in store.iter_items(filters)}


def test_one_content_at_three_paths_is_one_item_found_under_each(store: Store, item) -> None:
    # Same id (content hash) read from three files, in one batch and in a later one.
    store.add(
        [item("same", "shared text", path="/d/x.md"), item("same", "shared text", path="/d/x.org")]
    )
    store.add([item("same", "shared text", path="/d/x.txt")])
    assert store.count() == 1
    [stored] = store.iter_items()
    assert stored.metadata.seen_at == ["/d/x.md", "/d/x.org", "/d/x.txt"]
    for path in ("/d/x.md", "/d/x.org", "/d/x.txt", "/d"):
        assert ids(store, path=path) == {"same"}, path
        assert [h.item.id for h in store.search("shared", filters={"path": path})] == ["same"]
        out = io.StringIO()
        assert store.export_jsonl(out, filters={"path": path}) == 1


def test_a_path_never_matches_a_longer_name_and_a_folder_matches_on_a_separator(
    store: Store, item
) -> None:
    store.add(
        [
            item("doc", "a", path="/docs/a.doc"),
            item("docx", "b", path="/docs/a.docx"),
            item("other", "c", path="/docs2/a.doc"),
        ]
    )
    assert ids(store, path="/docs/a.doc") == {"doc"}
    assert ids(store, path="/docs/a.docx") == {"docx"}
    assert ids(store, path="/docs") == ids(store, path="/docs/") == {"doc", "docx"}
    assert ids(store, path="/do") == set() and ids(store, path="/docs/a") == set()


def test_archive_members_are_found_by_the_archive_and_by_the_member(store: Store) -> None:
    from omnireader.models import MemoryItem, MemoryMetadata

    src = Source(kind="file", path="/d/bundle.zip", member="notes/x.md")
    store.add([MemoryItem(id="m", memory="member text", metadata=MemoryMetadata(sources=[src]))])
    assert ids(store, path="/d/bundle.zip") == {"m"}
    assert ids(store, path="/d/bundle.zip!notes/x.md") == {"m"}
    assert ids(store, path="/d") == {"m"} and ids(store, path="/d/bundle.zi") == set()


def test_deleting_one_path_keeps_the_item_while_another_path_holds_it(store: Store, item) -> None:
    store.add(
        [
            item("same", "shared", path="/d/x.md"),
            item("same", "shared", path="/d/x.txt"),
            item("solo", "only here", path="/d/x.md.bak"),
        ]
    )
    plan = store.delete_report(filters={"path": "/d/x.md"}, dry_run=True)
    assert (plan.deleted, plan.updated) == (0, 1) and store.count() == 2

    assert store.delete(filters={"path": "/d/x.md"}) == 0
    [kept] = store.get_many(["same"])
    assert kept.source.path == "/d/x.txt"  # its first source moved to where it still is
    assert ids(store, path="/d/x.md") == set() and ids(store, path="/d/x.txt") == {"same"}
    assert store.get("solo") is not None  # x.md.bak is another name

    assert store.delete(filters={"path": "/d/x.txt"}) == 1
    assert store.get("same") is None


def test_a_stale_read_of_one_path_does_not_remove_content_another_path_holds(
    store: Store, item
) -> None:
    store.add([item("old", "v1", path="/d/a.txt"), item("old", "v1", path="/d/b.txt")])
    # a.txt changed: its new items are written, then its stale ones go.
    store.add([item("new", "v2", path="/d/a.txt")])
    assert store.delete_stale("/d/a.txt", keep_ids=["new"], mode="fast") == 0
    assert ids(store, path="/d/b.txt") == {"old"}
    assert ids(store, path="/d/a.txt") == {"new"}
    export = io.StringIO()
    store.export_jsonl(export)
    by_id = {json.loads(line)["id"]: json.loads(line) for line in export.getvalue().splitlines()}
    assert by_id["old"]["metadata"]["sources"][0]["path"] == "/d/b.txt"


def test_locations_under_a_folder_and_stored_paths(store: Store, item) -> None:
    store.add(
        [
            item("a", "a", path="/r/one.txt"),
            item("b", "b", path="/r/sub/two.txt"),
            item("c", "c", path="/elsewhere/three.txt"),
        ]
    )
    assert store.locations_under("/r") == {"/r/one.txt", "/r/sub/two.txt"}
    assert store.stored_paths(["/r/one.txt", "/r/nope.txt"]) == {"/r/one.txt"}


def test_a_copy_of_a_big_file_adds_its_path_to_every_item_in_one_batch(store: Store, item) -> None:
    # More ids in one write than one lookup of their stored locations takes (detach._LOOKUP):
    # every item still remembers both paths, the stored one first.
    n = 4096 + 50
    store.add([item(f"i{k}", f"text {k}", path="/d/a.txt") for k in range(n)], batch_size=n)
    store.add([item(f"i{k}", f"text {k}", path="/d/b.txt") for k in range(n)], batch_size=n)
    assert store.count() == n
    seen = {i.id: i.metadata.seen_at for i in store.iter_items()}
    assert len(seen) == n and all(s == ["/d/a.txt", "/d/b.txt"] for s in seen.values())
