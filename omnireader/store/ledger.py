"""The ingest ledger: which files were fully written, with which content and settings.

A file is recorded only after all its items are in the store, so a killed ingest re-reads
exactly the files it had not finished. A file that failed for good is recorded too, with
its failures (JSON), so a re-run does not read it again. It lives in the store's directory
as a second LanceDB table, ``files``, keyed by scope (user / session / mode), settings and
path. A path that is not UTF-8 is recorded, and looked up, in its shown form
(:mod:`omnireader.file_names`), the one its items are stored under.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from omnireader.file_names import shown_path
from omnireader.models import ReadFailure, utc_now

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
                ("failures", pa.string()),
            ]
        )
        return self._db.create_table(TABLE, schema=schema, exist_ok=True)

    def hashes(self, paths: Sequence[str] | None = None) -> dict[str, str]:
        """The recorded content hash of each path (for this scope and settings), keyed by
        the paths as given."""
        table = self._table()
        if table is None:
            return {}
        where = f"scope = {_quote(self.scope)} AND settings = {_quote(self.settings)}"
        rows = table.search().where(where).select(["path", "file_hash"]).limit(None).to_list()
        if paths is None:
            return {r["path"]: r["file_hash"] for r in rows}
        wanted = {shown_path(p): p for p in paths}
        return {wanted[r["path"]]: r["file_hash"] for r in rows if r["path"] in wanted}

    def record(self, files: Iterable[tuple[str, str, list[ReadFailure]]]) -> None:
        """Mark ``(path, file_hash, failures)`` as done: fully ingested, or failed for good."""
        now = utc_now()
        rows = [
            {
                "key": f"{self.scope}|{self.settings}|{shown_path(path)}",
                "scope": self.scope,
                "settings": self.settings,
                "path": shown_path(path),
                "file_hash": file_hash,
                "ingested_at": now,
                "failures": json.dumps([f.model_dump() for f in failures]) if failures else None,
            }
            for path, file_hash, failures in files
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

    def failures(self) -> dict[str, list[ReadFailure]]:
        """The failures recorded with each file that had some (this scope and settings)."""
        table = self._table()
        if table is None:
            return {}
        where = (
            f"scope = {_quote(self.scope)} AND settings = {_quote(self.settings)} "
            "AND failures IS NOT NULL"
        )
        rows = table.search().where(where).select(["path", "failures"]).limit(None).to_list()
        return {
            r["path"]: [ReadFailure.model_validate(f) for f in json.loads(r["failures"])]
            for r in rows
        }

    def forget_everywhere(self, paths: Iterable[str]) -> None:
        """Drop the records of ``paths`` in every scope and settings (the files are gone)."""
        table = self._table()
        wanted = [shown_path(p) for p in paths]
        if table is None:
            return
        for start in range(0, len(wanted), 1000):
            chunk = wanted[start : start + 1000]
            table.delete(f"path IN ({', '.join(_quote(p) for p in chunk)})")

    def forget(self, paths: Iterable[str]) -> None:
        """Drop the records of ``paths`` (their items were deleted)."""
        table = self._table()
        keys = [f"{self.scope}|{self.settings}|{shown_path(p)}" for p in paths]
        if table is not None and keys:
            table.delete(f"key IN ({', '.join(_quote(k) for k in keys)})")
