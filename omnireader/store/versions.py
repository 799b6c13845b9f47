"""Memories that change: update in place with the history kept, archive, roll back.

A mixin of :class:`~omnireader.store.Store`. The items table holds the current version of
each memory; every version it replaces goes to the history table (:mod:`.history_table`)
with ``status="archived"``, ``superseded_by`` (the item that replaced it; its own id for an
edit) and ``superseded_at``. A version's ``update_type`` says why it changed: on an archived
version, why it was archived; on the current one, why it was last written (``None`` for a
memory never changed). Versions count up and never repeat: a rollback writes the old text as
a new version.

    >>> store.update(item_id, memory="Alice lives in Berlin")         # doctest: +SKIP
    >>> [(v.metadata.version, v.metadata.update_type) for v in store.history(item_id)]
    [(1, 'edit'), (2, 'edit')]                                       # doctest: +SKIP

Each change writes the archived version first and the new one after, so a crash in between
leaves a version twice (once archived), never none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import InvalidInputError, ItemNotFoundError
from omnireader.models import MemoryItem, MemoryMetadata, UpdateType, utc_now
from omnireader.store.history_table import (
    open_history,
    read_versions,
    versions_of,
    write_versions,
)
from omnireader.store.locking import write_lock

if TYPE_CHECKING:
    from omnireader.llm.embedder_base import Embedder
    from omnireader.store.results import AddResult, SearchResult

__all__ = ["Versions", "UPDATE_TYPES", "archived_copy"]

UPDATE_TYPES: tuple[str, ...] = UpdateType.__args__  # type: ignore[attr-defined]
# Fields a caller may not set through update(): the store keeps them.
_KEPT = ("version", "update_type", "superseded_by", "superseded_at", "status", "created_at")


def archived_copy(
    item: MemoryItem, reason: str, superseded_by: str | None, at: str | None = None
) -> MemoryItem:
    """``item`` as its history keeps it: archived, with why, when and by what."""
    meta = item.metadata.model_copy(
        update={
            "status": "archived",
            "update_type": reason,
            "superseded_by": superseded_by,
            "superseded_at": at or utc_now(),
        }
    )
    return item.model_copy(update={"metadata": meta})


def _check_reason(reason: str) -> None:
    if reason not in UPDATE_TYPES:
        raise InvalidInputError(
            f"unknown update type {reason!r}; valid types: {', '.join(UPDATE_TYPES)}"
        )


class Versions:
    """Versioned updates over the items table (see the module docstring)."""

    path: Path
    db: Any
    table: Any
    embedder: Embedder
    get: Callable[[str], MemoryItem | None]
    get_many: Callable[[Iterable[str]], list[MemoryItem]]
    add: Callable[..., AddResult]
    _delete_where: Callable[[str], int]

    def update(
        self,
        item_id: str,
        memory: str | None = None,
        metadata: MemoryMetadata | dict[str, Any] | None = None,
        *,
        update_type: UpdateType = "edit",
    ) -> MemoryItem:
        """A new current version of ``item_id`` with this text and/or these metadata fields
        (a dict changes only the fields it names); the previous version goes to its history.

        The new version has ``version`` + 1, ``updated_at`` now and ``update_type``. Raises
        :class:`~omnireader.errors.ItemNotFoundError` when no current item has this id.
        """
        _check_reason(update_type)
        current = self.get(item_id)
        if current is None:
            raise ItemNotFoundError(f"no current item {item_id!r} to update")
        if memory is not None and not memory.strip():
            raise InvalidInputError("update needs a non-empty memory text (or None to keep it)")
        fields = current.metadata.model_dump()
        given = metadata.model_dump() if isinstance(metadata, MemoryMetadata) else metadata
        fields.update({k: v for k, v in (given or {}).items() if k not in _KEPT})
        now = utc_now()
        fields.update(
            version=current.metadata.version + 1,
            update_type=update_type,
            updated_at=now,
            status="activated",
            superseded_by=None,
            superseded_at=None,
        )
        new = MemoryItem(
            id=item_id,
            memory=current.memory if memory is None else memory,
            metadata=MemoryMetadata.model_validate(fields),
        )
        with write_lock(self.path):
            write_versions(self.db, self.table, [archived_copy(current, update_type, item_id, now)])
        self.add([new])
        return new

    def history(self, item_id: str) -> list[MemoryItem]:
        """Every version of ``item_id``, oldest first, the current one (if any) last; the
        memories it superseded (consolidation) come in their place in time.

        Each archived version says when (``superseded_at``), why (``update_type``) and by
        what (``superseded_by``) it was replaced.
        """
        archived = read_versions(self.db, self.table, versions_of(item_id))
        archived.sort(key=lambda i: (i.metadata.superseded_at or "", i.metadata.version))
        current = self.get(item_id)
        return [*archived, *([current] if current is not None else [])]

    def archive(
        self,
        item_ids: Iterable[str],
        reason: UpdateType,
        *,
        superseded_by: str | None = None,
    ) -> int:
        """Move these current items to their history (``reason`` says why; ``superseded_by``
        names the item that replaces them, if any); how many were archived.

        An archived item is no longer in default searches; ``search(include_archived=True)``
        and :meth:`history` still find it, and :meth:`rollback` brings it back.
        """
        _check_reason(reason)
        items = self.get_many(item_ids)
        return self._archive_items(items, reason, superseded_by)

    def _archive_items(
        self, items: Sequence[MemoryItem], reason: str, superseded_by: str | None
    ) -> int:
        if not items:
            return 0
        from omnireader.store.filters import ids_clause

        now = utc_now()
        with write_lock(self.path):
            write_versions(
                self.db, self.table, [archived_copy(i, reason, superseded_by, now) for i in items]
            )
        self._delete_where(ids_clause(i.id for i in items))
        return len(items)

    def rollback(self, item_id: str, version: int) -> MemoryItem:
        """Make ``version`` of ``item_id`` current again, as a new version (the current one,
        if any, goes to the history with ``update_type="rollback"``)."""
        versions = [v for v in self.history(item_id) if v.id == item_id]
        chosen = [v for v in versions if v.metadata.version == version]
        if not chosen:
            have = sorted({v.metadata.version for v in versions})
            raise ItemNotFoundError(
                f"item {item_id!r} has no version {version}"
                + (f"; its versions: {', '.join(map(str, have))}" if have else "")
            )
        current = self.get(item_id)
        now = utc_now()
        restored = chosen[-1].metadata.model_copy(
            update={
                "version": max(v.metadata.version for v in versions) + 1,
                "update_type": "rollback",
                "status": "activated",
                "superseded_by": None,
                "superseded_at": None,
                "updated_at": now,
            }
        )
        new = MemoryItem(id=item_id, memory=chosen[-1].memory, metadata=restored)
        if current is not None:
            with write_lock(self.path):
                write_versions(
                    self.db, self.table, [archived_copy(current, "rollback", item_id, now)]
                )
        self.add([new])
        return new

    def optimize_history(self, cleanup_older_than: Any = None) -> None:
        """Fold the history table's new rows into its indexes (``Store.optimize`` does it)."""
        from omnireader.store.maintenance import optimize_table

        table = open_history(self.db, self.table)
        if table is not None:
            optimize_table(table, cleanup_older_than)

    def forget_history(self, where: str) -> int:
        """Delete the archived versions matching ``where`` (a delete that must take the past
        too: a file the user removed); how many went."""
        table = open_history(self.db, self.table)
        if table is None:
            return 0
        with write_lock(self.path):
            doomed = table.count_rows(where)
            if doomed:
                table.delete(where)
        return doomed

    def search_archived(
        self,
        query: str,
        k: int,
        view: str,
        where: str | None,
        max_chars: int | None,
    ) -> list[SearchResult]:
        """The best ``k`` archived versions for ``query`` (the history table's own search)."""
        from omnireader.store.search import run_search

        table = open_history(self.db, self.table)
        if table is None or not table.count_rows():
            return []
        return run_search(table, self.embedder, query, k, view, where, max_chars=max_chars)
