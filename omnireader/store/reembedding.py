"""Re-embedding a store: every item's vector made again by another embedder.

A store records the embedder its vectors came from and is always searched with it, so a store
built with the old default (the hashing embedder) keeps working as it was. To give it the
semantic view of the new default (or any other embedder), :func:`reembed` rewrites its table:

1. under the store's write lock (no ingest may commit meanwhile), the rows are read in
   batches, every column kept as it is (whatever the schema version), the vector made again
   from the item's text (:func:`.embed_text.row_texts`, what ingest embeds);
2. they go into a new table in the same folder, whose schema records the new embedder;
   its indexes are built;
3. the new table takes the old one's place (two renames in the store folder), and the old
   one is removed. A run stopped before step 3 leaves the store as it was (the half-built
   table is removed by the next run).

    >>> reembed("notes.lance", "static")                   # doctest: +SKIP
    ReembedReport(items=5210, before='hashing-v1', after='static:potion-base-8m-letters', ...)
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from omnireader.llm.embedding import make_embedder
from omnireader.store.embed_text import row_texts
from omnireader.store.locking import write_lock
from omnireader.store.maintenance import create_indexes
from omnireader.store.opening import open_items_table
from omnireader.store.schema import META_DIM, META_EMBEDDER, TABLE_NAME

if TYPE_CHECKING:
    from omnireader.llm.embedder_base import Embedder

__all__ = ["reembed", "ReembedReport"]

_NEW = f"{TABLE_NAME}_reembedding"
_BATCH = 2048


class ReembedReport(BaseModel):
    """What :func:`reembed` did."""

    items: int
    before: str
    after: str
    dim: int
    seconds: float
    changed: bool  # False: the store already had that embedder, nothing was rewritten


def reembed(
    path: str | Path,
    embedder: Embedder | str | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> ReembedReport:
    """Re-embed every item of the store at ``path`` with ``embedder`` (default: the offline
    default); ``progress(done, total)`` is called after each batch."""
    import pyarrow as pa

    t0 = time.perf_counter()
    path = Path(path)
    db, table, old = open_items_table(path, None, create=False)
    new = make_embedder(embedder)
    total = table.count_rows()
    if new.name == old.name and new.dim == old.dim:
        return _report(total, old, new, t0, changed=False)
    with write_lock(path):
        if (path / f"{_NEW}.lance").exists():
            db.drop_table(_NEW)  # a run stopped half-way
        schema = _schema(table.schema, new)
        target = db.create_table(_NEW, schema=schema)
        done = 0
        query = table.search().select([f.name for f in schema if f.name != "vector"])
        for batch in query.limit(None).to_batches(_BATCH):
            rows = pa.Table.from_batches([batch])
            vectors = new.embed(row_texts(rows, new))
            column = pa.FixedSizeListArray.from_arrays(
                pa.array(vectors.reshape(-1), pa.float32()), new.dim
            )
            rows = rows.append_column("vector", column).select(schema.names)
            target.add(rows.cast(schema))
            done += rows.num_rows
            if progress is not None:
                progress(done, total)
        create_indexes(target)
        _swap(path, db)
    return _report(total, old, new, t0, changed=True)


def _schema(schema: Any, embedder: Embedder) -> Any:
    """``schema`` with vectors of ``embedder``'s size, recording it."""
    import pyarrow as pa

    at = schema.get_field_index("vector")
    field = pa.field("vector", pa.list_(pa.float32(), embedder.dim))
    meta = dict(schema.metadata or {})
    meta[META_EMBEDDER] = embedder.name.encode()
    meta[META_DIM] = str(embedder.dim).encode()
    return schema.set(at, field).with_metadata(meta)


def _swap(path: Path, db: Any) -> None:
    """The new table in the old one's place: the old folder aside first, then removed."""
    live, built, aside = (path / f"{n}.lance" for n in (TABLE_NAME, _NEW, f"{TABLE_NAME}_old"))
    if aside.exists():
        shutil.rmtree(aside)
    live.rename(aside)
    built.rename(live)
    shutil.rmtree(aside)


def _report(total: int, old: Embedder, new: Embedder, t0: float, *, changed: bool) -> ReembedReport:
    return ReembedReport(
        items=total,
        before=old.name,
        after=new.name,
        dim=new.dim,
        seconds=round(time.perf_counter() - t0, 2),
        changed=changed,
    )
