"""BM25 skips the full-text columns no row has filled, and searches them as soon as a commit,
from this store or another, puts text in them."""

from __future__ import annotations

from pathlib import Path

from omnireader.store import Store
from omnireader.store.text_columns import text_columns
from omnireader.units import NEIGHBOUR_TEXT

from .conftest import make_item


def test_empty_columns_are_left_out_until_a_commit_fills_them(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    store.add([make_item("plain", "a note about herons")])
    assert text_columns(store.table) == ("memory",)
    assert store.search("kingfisher", view="fts") == []

    tagged = make_item("tagged", "a note about otters", keywords=["kingfisher"])
    store.add([tagged])
    assert text_columns(store.table) == ("memory", "keywords_text")
    assert [r.item.id for r in store.search("kingfisher", view="fts")] == ["tagged"]
    assert store.search("kingfisher")[0].item.id == "tagged"  # hybrid too


def test_a_column_filled_by_another_store_handle_is_searched_at_once(tmp_path: Path) -> None:
    reader = Store.open(tmp_path / "s.lance")
    reader.add([make_item("plain", "a note about herons")])
    assert reader.search("lagoon", view="fts") == []  # the neighbour column is skipped

    writer = Store.open(tmp_path / "s.lance")  # as another process would
    chat = make_item("msg", "see you there")
    chat.metadata.extra[NEIGHBOUR_TEXT] = "shall we meet at the lagoon"
    writer.add([chat])
    assert [r.item.id for r in reader.search("lagoon", view="fts")] == ["msg"]
    assert "context_text" in text_columns(reader.table)


def test_a_column_once_seen_with_text_stays_searched(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.lance")
    store.add([make_item("tagged", "a note", keywords=["kingfisher"])])
    assert "keywords_text" in text_columns(store.table)
    store.table.delete("id = 'tagged'")
    assert "keywords_text" in text_columns(store.table)
