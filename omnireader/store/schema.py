"""The items table: its Arrow schema, and memory items to rows and back.

One row per item. The symbolic view's typed columns are copied out of the item (first source
for the provenance columns); ``item_json`` keeps the whole item, so reading a row back gives
exactly the item that was stored. The table's schema metadata records the embedder's name and
dimension, so a store knows which vector space it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from ..models import MemoryItem
from ..units import NEIGHBOUR_TEXT
from .locations import locations_of, path_keys

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = [
    "TABLE_NAME",
    "SCHEMA_VERSION",
    "META_EMBEDDER",
    "META_DIM",
    "META_VERSION",
    "FTS_COLUMNS",
    "items_schema",
    "items_to_table",
    "item_from_json",
    "parse_time",
]

TABLE_NAME = "items"
SCHEMA_VERSION = "3"  # 2: seen_at, path_keys; 3: context_text (a match unit's neighbours)
META_EMBEDDER = b"omnireader.embedder"
META_DIM = b"omnireader.dim"
META_VERSION = b"omnireader.schema_version"
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
    import pyarrow as pa

    dim = vectors.shape[1]
    columns: dict[str, list[object]] = {f.name: [] for f in schema if f.name != "vector"}
    # The items of one file share their locations and times: each is worked out once.
    memo = _Memo()
    for item in items:
        for name, value in _row(item, memo).items():
            columns[name].append(value)
    arrays = {name: pa.array(values, type=schema.field(name).type) for name, values in columns.items()}
    flat = pa.array(vectors.astype("float32", copy=False).reshape(-1))
    arrays["vector"] = pa.FixedSizeListArray.from_arrays(flat, dim)
    return pa.Table.from_pydict({f.name: arrays[f.name] for f in schema}, schema=schema)


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


def _row(item: MemoryItem, memo: _Memo | None = None) -> dict[str, object]:
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
        "chunk_index": src.chunk_index if src else None,
        "content_hash": src.content_hash if src else None,
        "refine_status": meta.refine_status,
        "created_at": memo.time(meta.created_at),
        "updated_at": memo.time(meta.updated_at),
        "item_json": item.model_dump_json(exclude_none=False),
    }


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def item_from_json(text: str) -> MemoryItem:
    """The stored item, exactly as it was added."""
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
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)
