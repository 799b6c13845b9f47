"""The history table: every archived version of a memory, kept beside the items table.

A second LanceDB table, ``history``, in the store's directory. Its rows have the items
table's columns (so the three search views run over it unchanged, see
:func:`search_history`) and four more to find a memory's versions: ``item_id``, ``version``,
``update_type`` and ``superseded_by``. Each row's ``item_json`` is the archived item itself
(``status="archived"``, ``superseded_by``, ``superseded_at``), so a row reads back as the
version it was.

The items table holds only current items: a default search never meets an archived version
and pays nothing for the history. A store made before versions existed has no history table;
it is created by the first archive, so such a store opens and works as it did.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from omnireader.models import MemoryItem
from omnireader.store.filters import ids_clause, sql_string
from omnireader.store.schema import ITEM_COLUMNS, item_from_row, items_to_rows, with_vectors

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = ["TABLE", "open_history", "write_versions", "read_versions", "stored_vectors"]

TABLE = "history"
_READ_BATCH = 4096


def _schema(items: pa.Schema) -> pa.Schema:
    """The items table's schema (and its metadata: embedder, dimension) plus the version
    columns."""
    import pyarrow as pa

    extra = [
        pa.field("item_id", pa.string()),
        pa.field("version", pa.int32()),
        pa.field("update_type", pa.string()),
        pa.field("superseded_by", pa.string()),
    ]
    return pa.schema([*items, *extra], metadata=items.metadata)


def open_history(db: Any, items_table: Any, *, create: bool = False) -> Any:
    """The history table, or None when the store has none yet (and ``create`` is False)."""
    try:
        return db.open_table(TABLE)
    except (ValueError, FileNotFoundError):
        if not create:
            return None
    from omnireader.store.maintenance import create_indexes

    table = db.create_table(TABLE, schema=_schema(items_table.schema), exist_ok=True)
    create_indexes(table)  # every search view needs its index, even on an empty table
    return table


def write_versions(db: Any, items_table: Any, archived: Sequence[MemoryItem]) -> None:
    """Append ``archived`` (items already marked archived) to the history, each with the
    vector its current row has (or a zero vector when it is not stored any more)."""
    import numpy as np
    import pyarrow as pa

    if not archived:
        return
    table = open_history(db, items_table, create=True)
    rows = items_to_rows(list(archived), items_table.schema)
    # A version may be archived twice (archived, restored by a re-ingest, archived again):
    # each row has an id of its own.
    keys = [f"{i.id}@{i.metadata.version}@{uuid.uuid4().hex[:12]}" for i in archived]
    rows = rows.set_column(rows.schema.get_field_index("id"), "id", pa.array(keys, pa.string()))
    for name, values, kind in (
        ("item_id", [i.id for i in archived], pa.string()),
        ("version", [i.metadata.version for i in archived], pa.int32()),
        ("update_type", [i.metadata.update_type for i in archived], pa.string()),
        ("superseded_by", [i.metadata.superseded_by for i in archived], pa.string()),
    ):
        rows = rows.append_column(pa.field(name, kind), pa.array(values, kind))
    found = stored_vectors(items_table, [i.id for i in archived])
    dim = items_table.schema.field("vector").type.list_size
    vectors = np.stack([found.get(i.id, np.zeros(dim, np.float32)) for i in archived])
    table.add(with_vectors(rows, vectors, table.schema))


def read_versions(db: Any, items_table: Any, where: str) -> list[MemoryItem]:
    """The archived versions matching ``where`` (storage order)."""
    table = open_history(db, items_table)
    if table is None:
        return []
    query = table.search().select(ITEM_COLUMNS).where(where).limit(None)
    return [item_from_row(r) for b in query.to_batches(_READ_BATCH) for r in b.to_pylist()]


def versions_of(item_id: str) -> str:
    """The history rows of ``item_id``: its own versions and the memories it superseded."""
    quoted = sql_string(item_id)
    return f"item_id = {quoted} OR superseded_by = {quoted}"


def stored_vectors(table: Any, ids: Sequence[str]) -> dict[str, np.ndarray]:
    """id -> the stored vector of each of ``ids`` that is in ``table``."""
    import numpy as np

    if not ids:
        return {}
    clause = ids_clause(dict.fromkeys(ids))
    data = table.search().where(clause).select(["id", "vector"]).limit(None).to_arrow()
    if not data.num_rows:
        return {}
    matrix = data.column("vector").combine_chunks().flatten().to_numpy()
    matrix = matrix.reshape(data.num_rows, -1).astype(np.float32, copy=False)
    return dict(zip(data.column("id").to_pylist(), matrix))
