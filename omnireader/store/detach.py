"""Removing locations from items: what ``delete --path``, ``ingest --sync`` and the re-read
of a changed file do.

An item is one content seen at one or more locations (:mod:`.locations`). Taking a location
away deletes the item only when it was its last one; otherwise the item stays, remembering
the locations left, and its first source moves to one of them so the item can still be
traced back and re-read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from omnireader.models import MemoryItem
from omnireader.store.embed_text import row_texts
from omnireader.store.filters import ids_clause
from omnireader.store.locations import location_of, locations_of, with_locations
from omnireader.store.schema import ITEM_COLUMNS, item_from_row, items_to_rows, with_vectors

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from omnireader.llm.embedder_base import Embedder

__all__ = ["DetachResult", "detach_locations", "merge_locations", "stored_locations"]

_CHUNK = 1000
# Ids looked up in one query: a write batch's (2,048 by default) at once. A query costs ~25 ms
# whether it names 1,000 ids or 2,048 (28k rows not yet indexed, measured): a big file's
# pieces made three queries each, ~0.5 s of a 50 MB text's writing.
_LOOKUP = 4096


class DetachResult(BaseModel):
    """Items deleted (their last location went) and items kept with fewer locations."""

    deleted: int = 0
    updated: int = 0

    def __add__(self, other: DetachResult) -> DetachResult:
        return DetachResult(
            deleted=self.deleted + other.deleted, updated=self.updated + other.updated
        )


def stored_locations(table: Any, ids: Iterable[str]) -> dict[str, list[str]]:
    """The recorded locations of the stored items among ``ids``."""
    wanted = list(dict.fromkeys(ids))
    found: dict[str, list[str]] = {}
    for start in range(0, len(wanted), _LOOKUP):
        chunk = wanted[start : start + _LOOKUP]
        where = ids_clause(chunk)
        rows = table.search().where(where).select(["id", "seen_at"]).limit(None).to_list()
        found.update({r["id"]: r["seen_at"] or [] for r in rows})
    return found


def merge_locations(
    items: list[MemoryItem], stored: dict[str, list[str]], batch_seen: dict[str, list[str]]
) -> list[MemoryItem]:
    """``items`` (copies) recording every location: stored ones first, then new ones."""
    out = []
    for item in items:
        merged = list(dict.fromkeys([*stored.get(item.id, []), *batch_seen.get(item.id, [])]))
        out.append(with_locations(item, merged) if merged else item)
    return out


def detach_locations(
    table: Any,
    where: str,
    gone: Callable[[str], bool],
    *,
    dry_run: bool = False,
    embedder: Embedder | None = None,
) -> DetachResult:
    """Take the locations ``gone`` says are gone away from the items matching ``where``.

    The caller holds the store's write lock. Returns how many items were deleted and how
    many were kept with the locations that remain (``dry_run``: would be; nothing changes).
    A kept item named after a gone file takes the name of the one left (.locations): its
    row is built again, and ``embedder`` (the store's) embeds it again when the text it is
    embedded by changed with the name (a chunk's heading holds its file's name).
    """
    data = table.search().where(where).limit(None).to_arrow()
    if not data.num_rows:
        return DetachResult()
    doomed: list[str] = []
    kept: list[MemoryItem] = []
    kept_rows: list[int] = []
    for n, row in enumerate(data.select(ITEM_COLUMNS).to_pylist()):
        item = item_from_row(row)
        seen = locations_of(item)
        remaining = [loc for loc in seen if not gone(loc)]
        if not remaining:
            doomed.append(item.id)
            continue
        if remaining == seen:
            continue  # matched by the filter but none of its locations is gone
        # The first source moves if it went; a linked near-duplicate's later ones go with it.
        kept.append(with_locations(_later_sources_left(item, gone), remaining))
        kept_rows.append(n)
    if dry_run:
        return DetachResult(deleted=len(doomed), updated=len(kept))
    for start in range(0, len(doomed), _CHUNK):
        chunk = doomed[start : start + _CHUNK]
        table.delete(ids_clause(chunk))
    if kept:
        import numpy as np

        vectors = np.asarray(data.column("vector").take(kept_rows).to_pylist(), dtype="float32")
        rows = items_to_rows(kept, table.schema)
        if embedder is not None:
            _embed_again(rows, data.take(kept_rows), vectors, embedder)
        rows = with_vectors(rows, vectors, table.schema)
        (
            table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute(rows)
        )
    return DetachResult(deleted=len(doomed), updated=len(kept))


def _embed_again(rows: pa.Table, before: pa.Table, vectors: np.ndarray, embedder: Embedder) -> None:
    """Embed again (into ``vectors``) the ``rows`` whose text to embed is not ``before``'s."""
    texts = row_texts(rows, embedder)
    changed = [n for n, (a, b) in enumerate(zip(texts, row_texts(before, embedder))) if a != b]
    if changed:
        vectors[changed] = embedder.embed([texts[n] for n in changed])


def _later_sources_left(item: MemoryItem, gone: Callable[[str], bool]) -> MemoryItem:
    """``item`` without the sources after its first that name a gone location (those a
    near-duplicate linked to it brought, .batch.near_links)."""
    sources = item.metadata.sources
    rest = [s for s in sources[1:] if (at := location_of(s)) is None or not gone(at)]
    if len(rest) == len(sources) - 1:
        return item
    meta = item.metadata.model_copy(update={"sources": [*sources[:1], *rest]})
    return item.model_copy(update={"metadata": meta})
