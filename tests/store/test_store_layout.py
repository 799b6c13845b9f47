"""The stored layout: an item's text is stored once (its ``memory`` column), and a store
written by the previous layout (schema version 3: the whole item in ``item_json``) reads back
the same items through every reading path, and keeps its layout when written to."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from omnireader.models import MemoryItem, Message
from omnireader.parsers.base import ParseContext
from omnireader.parsers.chat import ChatParser
from omnireader.payloads import Conversation
from omnireader.store import Store
from omnireader.store.maintenance import create_indexes
from omnireader.store.schema import (
    ITEM_COLUMNS,
    META_VERSION,
    TABLE_NAME,
    item_from_row,
    items_schema,
    items_to_table,
)
from omnireader.units import NEIGHBOUR_TEXT

from .conftest import make_item


def _items() -> list[MemoryItem]:
    """Chat units (with their neighbours' text), file chunks, an empty text, an explicit
    ``None`` neighbour text: every case the layout has to give back as it was."""
    turns = [
        ("Ana", "2025-03-01T09:00:00", "Did you book the ferry to Hydra?"),
        ("Ben", "2025-03-01T09:02:00", "Yes, the 8 o'clock one on Friday."),
        ("Ana", "2025-03-01T09:03:00", "Great, I will pack the snorkels."),
    ]
    messages = [
        Message(role="user", name=who, chat_time=when, content=text, message_id=f"m{n}")
        for n, (who, when, text) in enumerate(turns)
    ]
    chat = ChatParser().parse_fast(Conversation(messages=messages), ParseContext(user_id="u1"))
    assert all(NEIGHBOUR_TEXT in i.metadata.extra for i in chat)
    files = [
        make_item(
            f"f{n}", f"lantern harbor page {n} " * 40, path=f"/docs/f{n}.pdf", page=n, user_id="u1"
        )
        for n in range(3)
    ]
    empty = make_item("empty", "", path="/docs/empty.txt", user_id="u1")
    odd = make_item(
        "odd",
        "quartz meadow",
        path="/docs/odd.txt",
        user_id="u1",
        extra={NEIGHBOUR_TEXT: None, "title": "x"},
    )
    blank = make_item(
        "blank", "velvet orchid", path="/docs/blank.txt", user_id="u1", extra={NEIGHBOUR_TEXT: ""}
    )
    return [*chat, *files, empty, odd, blank]


def _v3_store(path: Path, items: list[MemoryItem]) -> None:
    """A store as the previous layout wrote it: raw rows, ``item_json`` the whole item as
    ``model_dump_json`` gave it, the schema marked version 3."""
    import lancedb

    from omnireader.llm.embedding import make_embedder

    emb = make_embedder(None)
    schema = items_schema(emb.dim, emb.name)
    schema = schema.with_metadata({**schema.metadata, META_VERSION: b"3"})
    data = items_to_table(items, emb.embed([i.memory for i in items]), schema)
    whole = [i.model_dump_json(exclude_none=False) for i in items]
    import pyarrow as pa

    at = data.schema.get_field_index("item_json")
    data = data.set_column(at, data.schema.field(at), pa.array(whole, pa.string()))
    db = lancedb.connect(str(path))
    create_indexes(db.create_table(TABLE_NAME, data=data, schema=schema))


def _raw_json(store: Store) -> dict[str, str]:
    rows = store.table.search().select(["id", "item_json"]).limit(None).to_list()
    return {r["id"]: r["item_json"] for r in rows}


def _reads_back(store: Store, items: list[MemoryItem]) -> None:
    """Every reading path gives the items exactly as they were added."""
    by_id = {i.id: i for i in items}
    assert store.get_many(list(by_id)) == items
    assert all(store.get(i.id) == i for i in items)
    assert sorted(store.iter_items(), key=lambda i: i.id) == sorted(items, key=lambda i: i.id)
    out = io.StringIO()
    assert store.export_jsonl(out) == len(items)
    lines = sorted(out.getvalue().splitlines())
    # The same lines the previous layout exported (it wrote item_json as stored).
    assert lines == sorted(i.model_dump_json(exclude_none=False) for i in items)
    for view in ("hybrid", "fts", "vector"):
        found = store.search("ferry Hydra snorkels", k=20, view=view)
        assert found and all(r.item == by_id[r.item.id] for r in found)
        assert all(x == by_id[x.id] for r in found for x in r.items)
    hits = store.search("lantern harbor", k=3, view="fts")
    assert hits[0].item == by_id[hits[0].item.id] and hits[0].text == hits[0].item.memory


def test_a_new_store_keeps_the_text_once_and_reads_back_the_same_items(tmp_path: Path) -> None:
    items = _items()
    store = Store.open(tmp_path / "s.lance")
    store.add(items)
    raw = _raw_json(store)
    for item in items:
        stored = json.loads(raw[item.id])
        assert stored["memory"] == ""  # only the memory column holds the text
        if item.metadata.extra.get(NEIGHBOUR_TEXT):
            assert stored["metadata"]["extra"][NEIGHBOUR_TEXT] is None
        assert item.memory == "" or item.memory not in raw[item.id]
    assert list(json.loads(raw["f0"])) == ["id", "memory", "metadata"]  # keys in place
    _reads_back(store, items)


def test_a_version_3_store_reads_back_the_same_items(tmp_path: Path) -> None:
    items = _items()
    _v3_store(tmp_path / "old.lance", items)
    store = Store.open(tmp_path / "old.lance")
    assert json.loads(_raw_json(store)["f0"])["memory"].startswith("lantern harbor")
    _reads_back(store, items)
    assert store.stats().items == len(items)


def test_a_version_3_store_written_again_keeps_its_layout(tmp_path: Path) -> None:
    items = _items()
    _v3_store(tmp_path / "old.lance", items)
    store = Store.open(tmp_path / "old.lance")
    extra = [make_item("new", "cobalt ember willow", path="/docs/new.txt", user_id="u1")]
    changed = items[0].model_copy(update={"memory": items[0].memory + " (edited)"})
    store.add([*extra, changed])
    raw = _raw_json(store)
    # The omnireader that made the store still finds every item whole in item_json.
    assert json.loads(raw["new"])["memory"] == "cobalt ember willow"
    assert json.loads(raw[changed.id])["memory"].endswith("(edited)")
    _reads_back(store, [changed, *items[1:], *extra])
    # Taking a location away rewrites the kept rows in the same layout.
    store.add(
        [
            make_item(
                "f1",
                items[4].memory,
                path="/docs/f1.pdf",
                page=1,
                user_id="u1",
                seen_at=["/docs/f1.pdf", "/docs/copy.pdf"],
            )
        ]
    )
    store.detach_paths(["/docs/copy.pdf"])
    assert json.loads(_raw_json(store)["f1"])["memory"] == items[4].memory


@pytest.mark.parametrize("old", [True, False])
def test_item_from_row_takes_either_layout(old: bool) -> None:
    item = _items()[1]
    row = {
        "item_json": item.model_dump_json() if old else None,
        "memory": item.memory,
        "context_text": item.metadata.extra[NEIGHBOUR_TEXT],
    }
    if not old:
        from omnireader.store.schema import stored_json

        row["item_json"] = stored_json(item)
        assert len(row["item_json"]) < len(item.model_dump_json()) - len(item.memory)
    assert set(row) == set(ITEM_COLUMNS)
    assert item_from_row(row) == item
    assert item_from_row(row).model_dump_json() == item.model_dump_json()


@pytest.mark.parametrize("item_id", ["plain", 'a "quoted" id\\n', "caf\u00e9 \u6771\u4eac"])
def test_item_json_is_the_item_dumped_with_an_empty_text(item_id: str) -> None:
    # stored_json splices "memory": "" into the JSON of the rest of the item: the same
    # string as dumping a copy whose text is empty, whatever the id and the text hold.
    from omnireader.store.schema import stored_json

    texts = ["", 'say "hi"\\\n\t\u2028 caf\u00e9 \U0001f600', "plain words " * 200]
    for item in _items():
        for text in texts:
            one = item.model_copy(update={"id": item_id, "memory": text})
            neighbours = one.metadata.extra.get(NEIGHBOUR_TEXT)
            meta = one.metadata
            if isinstance(neighbours, str) and neighbours:
                extra = {**meta.extra, NEIGHBOUR_TEXT: None}
                meta = meta.model_copy(update={"extra": extra})
            want = one.model_copy(update={"memory": "", "metadata": meta}).model_dump_json()
            assert stored_json(one) == want
            assert json.loads(stored_json(one))["memory"] == ""
