"""The items table: its Arrow schema, and memory items to rows and back.

One row per item. The symbolic view's typed columns are copied out of the item (first source
for the provenance columns); ``item_json`` keeps the rest of the item, so reading a row back
(:func:`item_from_row`, from the :data:`ITEM_COLUMNS`) gives exactly the item that was stored.
The item's text is stored once, in ``memory``, and a match unit's neighbours once, in
``context_text``: ``item_json`` holds ``"memory": ""`` and ``"neighbour_text": null`` in their
place (same key order, so the item rebuilt dumps to the same JSON). Rows written before
(schema version 3) hold the whole item in ``item_json``; they read back the same way. The
table's schema metadata records the embedder's name and dimension, so a store knows which
vector space it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from omnireader.models import MemoryItem
from omnireader.store.headings import HEADING_COLUMN, heading_text
from omnireader.store.lance_import import defer_pandas
from omnireader.store.locations import locations_of, path_keys, with_locations
from omnireader.units import NEIGHBOUR_TEXT

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = [
    "TABLE_NAME",
    "SCHEMA_VERSION",
    "READABLE_VERSIONS",
    "META_EMBEDDER",
    "META_DIM",
    "META_VERSION",
    "FTS_COLUMNS",
    "items_schema",
    "items_to_table",
    "items_to_rows",
    "rows_schema",
    "with_vectors",
    "ITEM_COLUMNS",
    "item_from_row",
    "stored_json",
    "item_from_json",
    "parse_time",
]

TABLE_NAME = "items"
# 2: seen_at, path_keys; 3: context_text (a match unit's neighbours); 4: the text once
# (item_json without it). A version-3 store is read as it is and written in the new layout.
# 5: heading_text (a document chunk's title and heading path, .headings); a version-4 store
# is read and written as it is, without it. 6: page_end (the last page a chunk runs onto:
# a page filter finds it on each); a version-5 store is read and written without it.
SCHEMA_VERSION = "6"
READABLE_VERSIONS = ("3", "4", "5", "6")
META_EMBEDDER = b"omnireader.embedder"
META_DIM = b"omnireader.dim"
META_VERSION = b"omnireader.schema_version"
#: the columns an item is rebuilt from (:func:`item_from_row`)
ITEM_COLUMNS = ["item_json", "memory", "context_text"]
#: the lexical view: BM25 over the text, keywords + tags, and a match unit's neighbours
FTS_COLUMNS = ("memory", "keywords_text", "context_text")


def items_schema(dim: int, embedder_name: str) -> pa.Schema:
    """The table schema for vectors of ``dim`` floats made by ``embedder_name``."""
    import pyarrow as pa

    text, ts = pa.string(), pa.timestamp("us", tz="UTC")
    fields = [
        pa.field("id", text, nullable=False),
        pa.field("memory", text),
        pa.field("keywords_text", text),
        pa.field("context_text", text),
        pa.field(HEADING_COLUMN, text),
        pa.field("vector", pa.list_(pa.float32(), dim)),
        pa.field("user_id", text),
        pa.field("session_id", text),
        pa.field("memory_type", text),
        pa.field("mode", text),
        pa.field("timestamp", ts),
        pa.field("persons", pa.list_(text)),
        pa.field("entities", pa.list_(text)),
        pa.field("location", text),
        pa.field("topic", text),
        pa.field("source_kind", text),
        pa.field("path", text),
        pa.field("member", text),
        # Every location of the content, and those plus their folders (path filters).
        pa.field("seen_at", pa.list_(text)),
        pa.field("path_keys", pa.list_(text)),
        pa.field("page", pa.int32()),
        pa.field("page_end", pa.int32()),
        pa.field("chunk_index", pa.int32()),
        pa.field("content_hash", text),
        pa.field("refine_status", text),
        pa.field("created_at", ts),
        pa.field("updated_at", ts),
        pa.field("item_json", text),
    ]
    metadata = {
        META_EMBEDDER: embedder_name.encode(),
        META_DIM: str(dim).encode(),
        META_VERSION: SCHEMA_VERSION.encode(),
    }
    return pa.schema(fields, metadata=metadata)


def items_to_table(items: Sequence[MemoryItem], vectors: np.ndarray, schema: pa.Schema) -> pa.Table:
    """Rows for ``items`` (in order) with their ``vectors`` (one row each)."""
    return with_vectors(items_to_rows(items, schema), vectors, schema)


def with_vectors(rows: pa.Table, vectors: np.ndarray, schema: pa.Schema) -> pa.Table:
    """``rows`` (every column but the vector) with ``vectors`` added, as the table's
    ``schema`` orders them; the columns are not copied."""
    import pyarrow as pa

    dim = vectors.shape[1]
    flat = pa.array(vectors.astype("float32", copy=False).reshape(-1))
    vector = pa.FixedSizeListArray.from_arrays(flat, dim)
    return pa.Table.from_arrays(
        [vector if f.name == "vector" else rows.column(f.name) for f in schema], schema=schema
    )


def rows_schema(schema: pa.Schema) -> pa.Schema:
    """The table's ``schema`` without its vector column (what :func:`items_to_rows` makes)."""
    at = schema.get_field_index("vector")
    return schema if at < 0 else schema.remove(at)


def items_to_rows(items: Sequence[MemoryItem], schema: pa.Schema) -> pa.Table:
    """Every column but the vector for ``items`` (in order), for a table of ``schema``.

    Batch ingest builds these in its parser processes, so its writer only adds vectors.
    Each item records its locations as the store would (:func:`.locations.with_locations`),
    so a row whose locations the store does not add to is written as it is.
    """
    import pyarrow as pa

    defer_pandas()  # a parser worker builds rows without LanceDB: pa.array would load pandas
    columns: dict[str, list[object]] = {f.name: [] for f in schema if f.name != "vector"}
    # The items of one file share their locations and times: each is worked out once.
    memo = _Memo()
    # A version-3 store keeps its layout (the whole item in item_json), so the omnireader
    # that made it still reads every row, whoever wrote it.
    whole = (schema.metadata or {}).get(META_VERSION) == b"3"
    for item in items:
        item = with_locations(item, locations_of(item))
        for name, value in _row(item, memo, whole).items():
            if name in columns:  # an older store lacks the newer columns
                columns[name].append(value)
    return pa.Table.from_arrays(
        [pa.array(values, type=schema.field(name).type) for name, values in columns.items()],
        schema=rows_schema(schema),
    )


class _Memo:
    """Per-call caches of :func:`_row`'s pure helpers (keys are strings and tuples)."""

    def __init__(self) -> None:
        self.times: dict[str | None, datetime | None] = {}
        self.keys: dict[tuple[str, ...], list[str]] = {}

    def time(self, value: str | datetime | None) -> datetime | None:
        if not isinstance(value, str) and value is not None:
            return parse_time(value)
        if value not in self.times:
            self.times[value] = parse_time(value)
        return self.times[value]

    def path_keys(self, seen: list[str]) -> list[str]:
        key = tuple(seen)
        if key not in self.keys:
            self.keys[key] = path_keys(seen)
        return list(self.keys[key])  # each row its own list


def _row(item: MemoryItem, memo: _Memo | None = None, whole: bool = False) -> dict[str, object]:
    memo = memo or _Memo()
    meta = item.metadata
    src = item.source
    seen = locations_of(item)
    return {
        "id": item.id,
        "memory": item.memory,
        # Keywords and tags are searchable words too (fine-mode items carry good ones).
        "keywords_text": " ".join([*meta.keywords, *meta.tags, *([meta.key] if meta.key else [])]),
        # A match unit's neighbours (a message's: the ones before and after it), so words
        # spread over a question and its answer still match together.
        "context_text": _text_or_none(meta.extra.get(NEIGHBOUR_TEXT)),
        # A document chunk's title and heading path, searched apart (.headings).
        HEADING_COLUMN: heading_text(item),
        "user_id": meta.user_id,
        "session_id": meta.session_id,
        "memory_type": meta.memory_type,
        "mode": meta.mode,
        # The memory's own time; for chat, the message time when no time was resolved.
        "timestamp": memo.time(meta.timestamp) or memo.time(src.chat_time if src else None),
        "persons": list(meta.persons),
        "entities": list(meta.entities),
        "location": meta.location,
        "topic": meta.topic,
        "source_kind": src.kind if src else None,
        "path": (src.path or src.url) if src else None,
        "member": src.member if src else None,
        "seen_at": seen,
        "path_keys": memo.path_keys(seen),
        "page": src.page if src else None,
        "page_end": src.page_end if src else None,
        "chunk_index": src.chunk_index if src else None,
        "content_hash": src.content_hash if src else None,
        "refine_status": meta.refine_status,
        "created_at": memo.time(meta.created_at),
        "updated_at": memo.time(meta.updated_at),
        "item_json": item.model_dump_json() if whole else stored_json(item),
    }


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def stored_json(item: MemoryItem) -> str:
    """``item`` as ``item_json`` stores it: without its text and its neighbours' (their
    columns hold them), the keys kept in place with empty values."""
    meta = item.metadata
    update: dict[str, object] = {"memory": ""}
    if _text_or_none(meta.extra.get(NEIGHBOUR_TEXT)) is not None:
        update["metadata"] = meta.model_copy(update={"extra": {**meta.extra, NEIGHBOUR_TEXT: None}})
    elif _TEXT_SECOND:
        # The JSON without the text, ``"memory":""`` put back in its place after the id: the
        # string a copy with an empty text dumps to, without the copy or encoding the text.
        body = item.model_dump_json(exclude=_TEXT)
        head = '{"id":' + to_json(item.id).decode() + ","
        if body.startswith(head):
            return f'{head}"memory":"",{body[len(head) :]}'
    return item.model_copy(update=update).model_dump_json()


_TEXT = {"memory"}
# The text goes back right after the id while they are the item's first two fields.
_TEXT_SECOND = list(MemoryItem.model_fields)[:2] == ["id", "memory"]


def item_from_row(row: Mapping[str, Any]) -> MemoryItem:
    """The stored item, exactly as it was added, from a row's :data:`ITEM_COLUMNS`.

    A row of either layout: an ``item_json`` that holds the text (schema version 3) keeps
    it; one without (``""``) takes the ``memory`` column's. Likewise the neighbours' text.
    """
    item = MemoryItem.model_validate_json(row["item_json"])
    if not item.memory:  # an empty text is "" in the column as well
        item.memory = row.get("memory") or ""
    extra = item.metadata.extra
    if NEIGHBOUR_TEXT in extra and extra[NEIGHBOUR_TEXT] is None:
        around = row.get("context_text")
        if around:  # None stays None: the item said so (the column is None then too)
            extra[NEIGHBOUR_TEXT] = around
    return item


def item_from_json(text: str) -> MemoryItem:
    """An item from its full JSON (an export line, a version-3 row's ``item_json``)."""
    return MemoryItem.model_validate_json(text)


def parse_time(value: str | datetime | None) -> datetime | None:
    """An ISO 8601 time as an aware UTC datetime; None when absent or not a time.

    Times without a zone are taken as UTC, so every stored timestamp compares with every
    other. An unparsable time stays only in ``item_json`` (the item keeps what it said).
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
