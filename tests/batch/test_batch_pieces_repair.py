"""A long text's pieces reach the rows unrepaired (``PiecedRead(repair=False)``): the rows
repair a piece only when an item of it holds a surrogate, and then store what a repaired
read stores."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from omnireader import Reader
from omnireader.batch.file_task import _rows
from omnireader.models import MemoryItem
from omnireader.parsers.base import ParseContext
from omnireader.reading.outcomes import read_fast
from omnireader.reading.pieces import PiecedRead
from omnireader.store.row_writes import rows_from_bytes
from omnireader.store.schema import items_schema, items_to_rows
from omnireader.text.unicode_repair import repair_model
from omnireader.units import NEIGHBOUR_TEXT
from tests.batch.test_batch_pieces import _prose

SCHEMA = items_schema(8, "test")


def _items() -> list[MemoryItem]:
    reader = Reader()
    return [*reader.read("The heron nests by the lagoon."), *reader.read("The egret waits.")]


def _with(item: MemoryItem, where: str) -> MemoryItem:
    """``item`` with a lone surrogate (half an emoji) in one place."""
    half = "\ud83d"
    meta = item.metadata
    if where == "memory":
        return item.model_copy(update={"memory": item.memory + half})
    if where == "neighbours":
        extra = {**meta.extra, NEIGHBOUR_TEXT: "before " + half}
        return item.model_copy(update={"metadata": meta.model_copy(update={"extra": extra})})
    if where == "key":
        return item.model_copy(update={"metadata": meta.model_copy(update={"key": half})})
    source = meta.sources[0].model_copy(update={"filename": "caf" + half + ".txt"})
    sources = [source, *meta.sources[1:]]
    return item.model_copy(update={"metadata": meta.model_copy(update={"sources": sources})})


@pytest.mark.parametrize("where", ["memory", "neighbours", "key", "source"])
def test_a_piece_holding_a_surrogate_is_repaired_before_its_rows(where: str) -> None:
    items = _items()
    items[1] = _with(items[1], where)
    expected = [repair_model(i.model_copy(deep=True)) for i in items]
    got = rows_from_bytes(_rows(items, SCHEMA))
    assert got.equals(items_to_rows(expected, SCHEMA))
    assert "\ufffd" in str(got.to_pylist()[1])
    assert items[1] == expected[1]  # repaired in place, as a read repairs its items


def test_a_piece_without_one_is_its_rows() -> None:
    items = _items()
    before = [i.model_copy(deep=True) for i in items]
    assert rows_from_bytes(_rows(items, SCHEMA)).equals(items_to_rows(before, SCHEMA))
    assert items == before


def test_the_rows_fail_on_a_surrogate_anywhere_in_an_item() -> None:
    # What _rows relies on: not one string of an item reaches the rows unencoded.
    for where in ("memory", "neighbours", "key", "source"):
        with pytest.raises((UnicodeEncodeError, ValueError)):
            items_to_rows([_with(_items()[0], where)], SCHEMA)
    assert isinstance(items_to_rows(_items(), SCHEMA), pa.Table)


def test_pieces_left_unrepaired_are_a_read_s_items(tmp_path: Path) -> None:
    path = _prose(tmp_path / "long.txt", 3000, seed=5)
    ctx = Reader().context(None, "fast")
    read = PiecedRead(path, ctx, 16, repair=False)
    pieces = [i for piece in read for i in piece]
    assert len(pieces) > 4 * 16
    whole = read_fast(path, ParseContext()).items
    times = {"metadata": {"created_at", "updated_at"}}
    assert [i.model_dump(exclude=times) for i in pieces] == [
        i.model_dump(exclude=times) for i in whole
    ]
