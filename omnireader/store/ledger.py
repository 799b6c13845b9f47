"""The ingest ledger: which files were fully written, with which content and settings.

A file is recorded only after all its items are in the store, so a killed ingest re-reads
exactly the files it had not finished. It lives in the store's directory as a second
LanceDB table, ``files``, keyed by scope (user / session / mode), settings and path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..models import utc_now

__all__ = ["Ledger"]

TABLE = "files"


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class Ledger:
    """Records ``(path, content hash)`` per scope and settings; see the module docstring."""

    def __init__(self, db: Any, scope: str, settings: str) -> None:
        self._db = db
        self.scope = scope
        self.settings = settings

    def _table(self, create: bool = False) -> Any:
        import pyarrow as pa

        try:
            return self._db.open_table(TABLE)
        except (ValueError, FileNotFoundError):
            if not create:
                return None
        schema = pa.schema(
            [
                ("key", pa.string()),
                ("scope", pa.string()),
                ("settings", pa.string()),
                ("path", pa.string()),
                ("file_hash", pa.string()),
                ("ingested_at", pa.string()),
            ]
        )
        return self._db.create_table(TABLE, schema=schema, exist_ok=True)

    def hashes(self, paths: Sequence[str] | None = None) -> dict[str, str]:
        """The recorded content hash of each path (for this scope and settings)."""
        table = self._table()
        if table is None:
            return {}
        where = f"scope = {_quote(self.scope)} AND settings = {_quote(self.settings)}"
        rows = table.search().where(where).select(["path", "file_hash"]).limit(None).to_list()
        wanted = set(paths) if paths is not None else None
        return {r["path"]: r["file_hash"] for r in rows if wanted is None or r["path"] in wanted}

    def record(self, files: Iterable[tuple[str, str]]) -> None:
        """Mark ``(path, file_hash)`` pairs as fully ingested."""
        now = utc_now()
        rows = [
            {
                "key": f"{self.scope}|{self.settings}|{path}",
                "scope": self.scope,
                "settings": self.settings,
                "path": path,
                "file_hash": file_hash,
                "ingested_at": now,
            }
            for path, file_hash in files
        ]
        if not rows:
            return
        table = self._table(create=True)
        (
            table.merge_insert("key")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute(rows)
        )

    def forget(self, paths: Iterable[str]) -> None:
        """Drop the records of ``paths`` (their items were deleted)."""
        table = self._table()
        keys = [f"{self.scope}|{self.settings}|{p}" for p in paths]
        if table is not None and keys:
            table.delete(f"key IN ({', '.join(_quote(k) for k in keys)})")
