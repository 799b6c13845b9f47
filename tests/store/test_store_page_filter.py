"""A page filter finds what is printed on that page: an item on it, and a paragraph that
began on an earlier page and runs onto it (``Source.page_end``). A store made before the
``page_end`` column (schema version 5) still opens, and matches an item's first page."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.store import Store
from omnireader.store.maintenance import create_indexes
from omnireader.store.schema import META_VERSION, TABLE_NAME, items_schema, items_to_table


def _chunk(item_id: str, page: int, page_end: int | None = None) -> MemoryItem:
    source = Source(kind="file", path="/docs/annual.pdf", page=page, page_end=page_end)
    text = f"segment revenue grew in the quarter, part {item_id}"
    return MemoryItem(id=item_id, memory=text, metadata=MemoryMetadata(sources=[source]))


ITEMS = [_chunk("p9", 9), _chunk("p10-12", 10, 12), _chunk("p11", 11), _chunk("p13", 13)]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (9, {"p9"}),
        (10, {"p10-12"}),
        (11, {"p10-12", "p11"}),  # the paragraph overleaf is on page 11 too
        (12, {"p10-12"}),
        (13, {"p13"}),
        (14, set()),
    ],
)
def test_a_page_filter_finds_the_items_that_run_onto_that_page(
    tmp_path: Path, page: int, expected: set[str]
) -> None:
    store = Store.open(tmp_path / "s.lance")
    store.add(ITEMS)

    for view in ("vector", "fts", "hybrid"):
        hits = store.search("segment revenue", k=10, view=view, filters={"page": page})
        assert {h.item.id for h in hits} == expected
    assert {i.id for i in store.iter_items({"page": page})} == expected
    assert store.count({"page": page}) == len(expected)


def _version_5_store(path: Path) -> None:
    """A store as the last layout wrote it: no ``page_end`` column, marked version 5."""
    import lancedb

    from omnireader.llm.embedding import make_embedder

    emb = make_embedder(None)
    new = items_schema(emb.dim, emb.name)
    schema = new.remove(new.get_field_index("page_end"))
    schema = schema.with_metadata({**new.metadata, META_VERSION: b"5"})
    data = items_to_table(ITEMS[:2], emb.embed([i.memory for i in ITEMS[:2]]), schema)
    db = lancedb.connect(str(path))
    create_indexes(db.create_table(TABLE_NAME, data=data, schema=schema))


def test_a_store_without_page_end_still_filters_by_first_page_and_takes_new_items(
    tmp_path: Path,
) -> None:
    _version_5_store(tmp_path / "old.lance")
    store = Store.open(tmp_path / "old.lance")

    assert {i.id for i in store.iter_items({"page": 10})} == {"p10-12"}
    assert store.count({"page": 11}) == 0  # its first page only: it has no page_end column
    store.add(ITEMS[2:])  # written in its own layout
    assert store.count({"page": 11}) == 1
    assert "page_end" not in store.table.schema.names
    assert store.get("p10-12") == ITEMS[1]  # the item itself still says where it ends
