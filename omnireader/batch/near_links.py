"""Linking near-duplicate chunks while ingesting in fast mode (``link_near_duplicates``).

The writer hands each file's rows to :meth:`NearLinker.link` before writing them. A row whose
text nearly repeats (:mod:`omnireader.store.near_duplicates`) one already stored in the same
scope (user, session, mode), or one an earlier file of this ingest wrote, is not written as
an item of its own: the stored item gets the row's sources and location instead (one memory,
every source kept), exactly as an exact duplicate is one item seen at several places. A row
is not linked to an item of its own file (a document repeating itself is still read whole).

The stored texts of the scope are read once, at the first file (ids and texts: no item is
parsed). Off by default: it costs that read and a few comparisons per chunk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from omnireader.models import MemoryItem
from omnireader.store.filters import sql_string
from omnireader.store.locations import locations_of, outer_path, with_locations
from omnireader.store.near_duplicates import NearIndex
from omnireader.store.schema import ITEM_COLUMNS, item_from_row, items_to_rows

if TYPE_CHECKING:
    import pyarrow as pa

    from omnireader.parsers.base import ParseContext

__all__ = ["NearLinker"]


class NearLinker:
    """See the module docstring; ``linked`` counts the rows linked so far."""

    def __init__(self, store: Any, ctx: ParseContext) -> None:
        self.store = store
        self.ctx = ctx
        self.index: NearIndex | None = None
        self.targets: dict[str, MemoryItem] = {}  # linked items, as updated in this ingest
        self.redirect: dict[str, str] = {}  # a linked row's id -> the item it was linked to
        self.linked = 0

    def _scope(self) -> str:
        parts = []
        for column, value in (
            ("user_id", self.ctx.user_id),
            ("session_id", self.ctx.session_id),
            ("mode", str(self.ctx.mode)),
        ):
            parts.append(
                f"{column} IS NULL" if value is None else f"{column} = {sql_string(value)}"
            )
        return " AND ".join(parts)

    def _load(self) -> NearIndex:
        index = NearIndex()
        if self.store.table.count_rows():
            query = self.store.table.search().where(self._scope()).select(["id", "memory"])
            for batch in query.limit(None).to_batches(8192):
                for item_id, text in zip(
                    batch.column("id").to_pylist(), batch.column("memory").to_pylist()
                ):
                    index.add(item_id, text or "")
        return index

    def link(self, rows: pa.Table, vectors: Any) -> tuple[pa.Table, Any]:
        """``rows`` (one write's) with each near duplicate replaced by the item it repeats,
        which carries the row's sources and location too; the vectors are dropped when a row
        was replaced (the writer embeds the rows again). :attr:`redirect` maps each replaced
        row's id to the item it was linked to."""
        import pyarrow as pa

        if self.index is None:
            self.index = self._load()
        ids = rows.column("id").to_pylist()
        texts = rows.column("memory").to_pylist()
        paths = rows.column("path").to_pylist()
        here = {i: n for n, i in enumerate(ids)}  # this write's rows, by id
        merged: dict[str, MemoryItem] = {}
        dropped: set[int] = set()
        for n, (item_id, text) in enumerate(zip(ids, texts)):
            target_id = self.index.find(item_id, text or "")
            if target_id is None:
                self.index.add(item_id, text or "")
                continue
            target = merged.get(target_id) or self._target(target_id, rows, here, paths[n])
            if target is None:  # gone, or the same file repeating itself: kept as it is
                self.index.add(item_id, text or "")
                continue
            row = rows.slice(n, 1).select(ITEM_COLUMNS).to_pylist()[0]
            merged[target_id] = _with_sources_of(target, item_from_row(row))
            self.redirect[item_id] = target_id
            dropped.add(n)
            self.linked += 1
        if not merged:
            return rows, vectors
        self.targets.update(merged)
        dropped |= {here[t] for t in merged if t in here}  # rewritten with their new sources
        keep = [n for n in range(len(ids)) if n not in dropped]
        parts = [rows.take(pa.array(keep, pa.int64()))] if keep else []
        parts.append(items_to_rows(list(merged.values()), rows.schema))
        return (pa.concat_tables(parts) if len(parts) > 1 else parts[0]), None

    def _target(
        self, target_id: str, rows: pa.Table, here: dict[str, int], path: str | None
    ) -> MemoryItem | None:
        """The item ``target_id`` as it stands: linked earlier in this ingest, a row of this
        write, or stored; None when it is gone or was read from ``path`` too."""
        if target_id in here:
            at = here[target_id]
            item = item_from_row(rows.slice(at, 1).select(ITEM_COLUMNS).to_pylist()[0])
        else:
            item = self.targets.get(target_id) or next(iter(self.store.get_many([target_id])), None)
        if item is None or any(outer_path(loc) == path for loc in locations_of(item)):
            return None
        return item


def _with_sources_of(target: MemoryItem, other: MemoryItem) -> MemoryItem:
    sources = [*target.metadata.sources]
    sources += [s for s in other.metadata.sources if s not in sources]
    meta = target.metadata.model_copy(update={"sources": sources})
    linked = target.model_copy(update={"metadata": meta})
    return with_locations(linked, [*locations_of(target), *locations_of(other)])
