"""Store queries by source path: which paths hold items, what is under a folder.

A mixin of :class:`~omnireader.store.Store` (it uses the store's ``_columns`` reader), kept
apart so the store's module stays about writing and searching. Batch ingest and ``--sync``
use these to find what a run replaces or removes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from omnireader.file_names import shown_path
from omnireader.store.filters import combine, sql_string
from omnireader.store.locations import is_under, match_keys, outer_path

__all__ = ["PathQueries"]


class PathQueries:
    """Path lookups over the items table (see the module docstring)."""

    def _columns(self, columns: list[str], where: str | None) -> dict[str, list[Any]]:
        raise NotImplementedError  # provided by Store

    def content_hashes_by_path(self) -> dict[str, set[str]]:
        """For every source path / URL in the store, the content hashes stored for it."""
        columns = self._columns(["path", "content_hash"], "path IS NOT NULL")
        out: dict[str, set[str]] = {}
        for path, digest in zip(columns["path"], columns["content_hash"]):
            hashes = out.setdefault(path, set())
            if digest is not None:
                hashes.add(digest)
        return out

    def stored_paths(self, paths: Iterable[str], where: str | None = None) -> set[str]:
        """Those of ``paths`` (files or URLs) that some stored item (matching ``where``) was
        seen at (a name that is not UTF-8 was stored in its shown form: it is looked up in
        that form)."""
        wanted = list(dict.fromkeys(paths))
        found: set[str] = set()
        for start in range(0, len(wanted), 1000):
            chunk = {shown_path(p): p for p in wanted[start : start + 1000]}
            listed = ", ".join(sql_string(p) for p in chunk)
            clause = combine(f"array_has_any(path_keys, [{listed}])", where)
            for seen in self._columns(["seen_at"], clause)["seen_at"]:
                found.update(chunk[p] for p in map(outer_path, seen or []) if p in chunk)
        return found

    def locations_under(self, folder: str, where: str | None = None) -> set[str]:
        """Every location recorded at or under ``folder`` (or that file), among the items
        matching ``where``."""
        listed = ", ".join(sql_string(k) for k in match_keys(folder))
        clause = combine(f"array_has_any(path_keys, [{listed}])", where)
        out: set[str] = set()
        for seen in self._columns(["seen_at"], clause)["seen_at"]:
            out.update(loc for loc in seen or [] if is_under(loc, folder))
        return out

    def ids_for_content_hash(self, content_hash: str) -> list[str]:
        """Ids of the items whose (first) source has this content hash."""
        where = f"content_hash = {sql_string(content_hash)}"
        return self._columns(["id"], where)["id"]
