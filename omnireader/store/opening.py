"""Opening or creating the items table, and checking it against the embedder asked for.

The table's schema metadata records the embedder's name and dimension (and the schema
version). Opening with no embedder rebuilds the recorded one from its name; opening with
another one fails before anything is written, naming both.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import EmbedderMismatchError, StoreError
from omnireader.llm.embedding import make_embedder
from omnireader.store.lance_import import import_lancedb
from omnireader.store.maintenance import create_indexes
from omnireader.store.schema import (
    META_DIM,
    META_EMBEDDER,
    META_VERSION,
    READABLE_VERSIONS,
    TABLE_NAME,
    items_schema,
)

if TYPE_CHECKING:
    from omnireader.llm.embedder_base import Embedder

__all__ = ["open_items_table", "check_embedder"]


def open_items_table(
    path: Path, embedder: Embedder | str | None, *, create: bool
) -> tuple[Any, Any, Embedder]:
    """The LanceDB connection, the items table and the embedder to use with it."""
    lancedb = import_lancedb()

    if not create and not (path / f"{TABLE_NAME}.lance").is_dir():
        raise StoreError(f"no omnireader store at {path} (run `omnireader ingest` first)")
    # Consistency interval 0: every read sees what other processes committed.
    db = lancedb.connect(str(path), read_consistency_interval=timedelta(0))
    try:
        table = db.open_table(TABLE_NAME)
    except ValueError:  # not there yet
        if not create:
            raise StoreError(f"no omnireader store at {path}") from None
        chosen = make_embedder(embedder)
        # exist_ok: another process may create it between our look and our create.
        table = db.create_table(
            TABLE_NAME, schema=items_schema(chosen.dim, chosen.name), exist_ok=True
        )
        create_indexes(table)
        embedder = chosen
    return db, table, check_embedder(path, table, embedder)


def check_embedder(path: Path, table: Any, wanted: Embedder | str | None) -> Embedder:
    """The embedder to use with ``table``, checked against the one it was built with."""
    meta = table.schema.metadata or {}
    version = meta.get(META_VERSION, b"").decode()
    if version not in READABLE_VERSIONS:
        raise StoreError(
            f"the store at {path} has schema version {version or 'unknown'}; this omnireader "
            f"reads versions {', '.join(READABLE_VERSIONS)}"
        )
    built_name = meta[META_EMBEDDER].decode()
    built_dim = int(meta[META_DIM])
    embedder = make_embedder(built_name if wanted is None else wanted)
    # Names first: a remote embedder learns its dimension with a request.
    if embedder.name != built_name or embedder.dim != built_dim:
        other = (
            embedder.name
            if embedder.name != built_name
            else f"{embedder.name} ({embedder.dim} dimensions)"
        )
        raise EmbedderMismatchError(
            f"the store at {path} was built with embedder {built_name} ({built_dim} dimensions) "
            f"and cannot be used with {other}: their vectors are not comparable. Open it with "
            f"embedder={built_name!r} (or no embedder), use another store directory, or give it "
            f"the other embedder's vectors: omnireader reembed --db {path} --embedder {embedder.name}"
        )
    return embedder
