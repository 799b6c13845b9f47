"""Deleting from the store: by ids or filters, by path (keeping content other paths hold),
and the stale items of a file that was read again.

A mixin of :class:`~omnireader.store.Store`: it uses the store's table, write lock and
``_delete_where``. Taking a path away from items is :mod:`.detach`'s job.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import InvalidInputError
from omnireader.file_names import shown_path
from omnireader.store.filters import SearchFilters, as_filters, combine, ids_clause, sql_string
from omnireader.store.locations import is_under, outer_path
from omnireader.store.locking import write_lock
from omnireader.store.maintenance import retry_conflicts

if TYPE_CHECKING:
    from omnireader.models import MemoryItem
    from omnireader.store.detach import DetachResult

__all__ = ["Deleting", "scope_clause", "stale_clause"]


class Deleting:
    """Deletes over the items table (see the module docstring)."""

    path: Path
    table: Any
    embedder: Any  # the store's: a kept item renamed after the copy left is embedded again

    def _delete_where(self, where: str) -> int:
        raise NotImplementedError  # provided by Store

    def forget_history(self, where: str) -> int:
        raise NotImplementedError  # provided by Store (.versions)

    def _archive_items(
        self, items: Sequence[MemoryItem], reason: str, superseded_by: str | None
    ) -> int:
        raise NotImplementedError  # provided by Store (.versions)

    def _iter_where(self, where: str | None) -> Iterator[MemoryItem]:
        raise NotImplementedError  # provided by Store

    def delete(
        self,
        ids: Iterable[str] | None = None,
        filters: SearchFilters | dict[str, Any] | None = None,
    ) -> int:
        """Delete the items with these ids and/or matching these filters; how many went.

        With neither, nothing is deleted: emptying a store must be asked for explicitly
        (``delete(filters={})`` is refused too; remove the directory instead). With a
        ``path`` filter the path is taken away from the matching items, and only the items
        seen nowhere else go (see :meth:`delete_report`).
        """
        return self.delete_report(ids, filters).deleted

    def delete_report(
        self,
        ids: Iterable[str] | None = None,
        filters: SearchFilters | dict[str, Any] | None = None,
        *,
        dry_run: bool = False,
    ) -> DetachResult:
        """:meth:`delete`, telling how many items went and how many stayed with fewer
        locations; ``dry_run`` counts without changing anything."""
        from omnireader.store.detach import DetachResult  # a write path: not on a read's

        id_list = list(ids) if ids is not None else []
        if ids is not None and not id_list:
            return DetachResult()
        chosen = as_filters(filters)
        clause = chosen.where(self.table.schema.names)
        where = combine(clause, _ids_clause(id_list))
        if where is None:
            raise InvalidInputError("delete needs ids or filters; refusing to delete everything")
        if not dry_run:  # what the user deletes goes with its past versions
            mine = f"item_{_ids_clause(id_list)}" if id_list else None
            self.forget_history(combine(clause, mine) or where)
        if chosen.path is None:
            if dry_run:
                return DetachResult(deleted=self.table.count_rows(where))
            return DetachResult(deleted=self._delete_where(where))
        path = chosen.path
        return self._detach(where, lambda loc: is_under(loc, path), dry_run=dry_run)

    def delete_by_path(self, path: str, *, except_hash: str | None = None) -> int:
        """Take ``path`` (a file, exact) away from its items, keeping those of ``except_hash``;
        how many items went (items also seen at another path stay, without this one).

        An ingester that re-read a changed file writes the new items first, then calls
        this with the new content hash: the stale items go, and a crash in between leaves
        both versions rather than none.
        """
        path = shown_path(path)  # the form stored for a name that is not UTF-8
        where = _path_clause(path)
        if except_hash is not None:
            where += f" AND (content_hash IS NULL OR content_hash != {sql_string(except_hash)})"
        return self._detach(where, lambda loc: outer_path(loc) == path).deleted

    def delete_stale(
        self,
        path: str,
        *,
        keep_ids: Iterable[str],
        user_id: str | None = None,
        session_id: str | None = None,
        mode: str | None = None,
        keep_history: bool = False,
    ) -> int:
        """Take the items read from ``path`` in this scope that are not in ``keep_ids`` out of
        the current view; how many left it.

        The scope is exact (``None`` means "not set"), so re-reading a file for one user,
        session and mode never touches the items another scope read from the same file.
        Items also seen at another path only lose this one. With ``keep_history`` the items
        seen only at ``path`` are archived (``update_type="source_changed"``), not deleted.
        """
        path = shown_path(path)
        keep = list(keep_ids)
        archived = 0
        if keep_history:
            stale = self._iter_where(stale_clause(path, keep, user_id, session_id, mode))
            only_here = [i for i in stale if all(outer_path(p) == path for p in i.metadata.seen_at)]
            archived = self._archive_items(only_here, "source_changed", None)
            keep += [i.id for i in only_here]
        where = stale_clause(path, keep, user_id, session_id, mode)
        return archived + self._detach(where, lambda loc: outer_path(loc) == path).deleted

    def detach_paths(self, paths: Iterable[str], where: str | None = None) -> DetachResult:
        """Take the files ``paths`` (and their archive members) away from the items that
        match ``where``; items seen nowhere else are deleted."""
        from omnireader.store.detach import DetachResult

        gone = {shown_path(p) for p in paths}
        total = DetachResult()
        ordered = sorted(gone)
        for start in range(0, len(ordered), 1000):
            listed = ", ".join(sql_string(p) for p in ordered[start : start + 1000])
            clause = combine(f"array_has_any(path_keys, [{listed}])", where)
            assert clause is not None
            total += self._detach(clause, lambda loc: outer_path(loc) in gone)
            self.forget_history(clause)  # a file gone: its archived versions go too
        return total

    def _detach(self, where: str, gone: Any, *, dry_run: bool = False) -> DetachResult:
        from omnireader.store.detach import detach_locations

        with write_lock(self.path):
            return retry_conflicts(
                lambda: detach_locations(
                    self.table, where, gone, dry_run=dry_run, embedder=self.embedder
                ),
                "delete",
            )


def stale_clause(
    path: str,
    keep_ids: Iterable[str],
    user_id: str | None,
    session_id: str | None,
    mode: str | None,
) -> str:
    """The items read from ``path`` in exactly this scope (``None``: not set) that are not
    in ``keep_ids``."""
    parts = [_path_clause(path), scope_clause(user_id, session_id, mode)]
    keep = list(dict.fromkeys(keep_ids))
    if keep:
        parts.append(f"id NOT IN ({', '.join(sql_string(i) for i in keep)})")
    return " AND ".join(parts)


def scope_clause(user_id: str | None, session_id: str | None, mode: str | None) -> str:
    """The items of exactly this scope (``None``: not set)."""
    parts = []
    for column, value in (("user_id", user_id), ("session_id", session_id), ("mode", mode)):
        parts.append(f"{column} IS NULL" if value is None else f"{column} = {sql_string(value)}")
    return " AND ".join(parts)


def _path_clause(path: str) -> str:
    """Items seen at the file ``path`` (or at a member of it)."""
    return f"array_has_any(path_keys, [{sql_string(path)}])"  # the LabelList index serves it


def _ids_clause(ids: list[str]) -> str | None:
    return ids_clause(ids) if ids else None
