"""The ingest ledger: which files were fully written, with which content and settings.

A file is recorded only after all its items are in the store, so a killed ingest re-reads
exactly the files it had not finished. A file that failed for good is recorded too, with
its failures (JSON), so a re-run does not read it again. It lives in the store's directory
as a second LanceDB table, ``files``, keyed by scope (user / session / mode), settings and
path. A path that is not UTF-8 is recorded, and looked up, in its shown form
(:mod:`omnireader.file_names`), the one its items are stored under.

Each record keeps how many items the file gave (``items``; NULL in a record written before
the column existed). The record alone does not prove the items are still there (a
``delete``, an undo, a delete over HTTP may have taken them): the ingest trusts a record of
a file that gave items only while the store still holds one at that path in that scope.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from omnireader.file_names import shown_path
from omnireader.models import ReadFailure, utc_now

__all__ = ["Ledger", "Record"]

TABLE = "files"


class Record(NamedTuple):
    """What the ledger holds of one file."""

    file_hash: str
    items: int | None  # how many items it gave; None: recorded before this was kept
    failed: bool  # failures were recorded with it (it may have given nothing, for good)


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
                ("items", pa.int64()),
            ]
        )
        return self._db.create_table(TABLE, schema=schema, exist_ok=True)

    def _writable(self) -> Any:
        """The table, made if missing, with the ``items`` column added to an older one."""
        table = self._table(create=True)
        if "items" not in table.schema.names:
            try:
                table.add_columns({"items": "CAST(NULL AS BIGINT)"})
            except Exception:  # another process added it first: reopen and check
                table = self._db.open_table(TABLE)
                if "items" not in table.schema.names:
                    raise
        return table

    def hashes(self, paths: Sequence[str] | None = None) -> dict[str, str]:
        """The recorded content hash of each path (for this scope and settings), keyed by
        the paths as given."""
        return {path: record.file_hash for path, record in self.records(paths).items()}

    def records(self, paths: Sequence[str] | None = None) -> dict[str, Record]:
        """The record of each path (this scope and settings), keyed by the paths as given."""
        table = self._table()
        if table is None:
            return {}
        where = f"scope = {_quote(self.scope)} AND settings = {_quote(self.settings)}"
        columns = ["path", "file_hash", "failures"]
        columns += ["items"] if "items" in table.schema.names else []
        rows = table.search().where(where).select(columns).limit(None).to_list()
        wanted = {shown_path(p): p for p in paths} if paths is not None else None
        out: dict[str, Record] = {}
        for r in rows:
            path = r["path"] if wanted is None else wanted.get(r["path"])
            if path is not None:
                out[path] = Record(r["file_hash"], r.get("items"), r["failures"] is not None)
        return out

    def record(self, files: Iterable[Sequence[Any]]) -> None:
        """Mark ``(path, file_hash, failures[, items])`` as done: fully ingested, or failed
        for good; ``items`` is how many items the file gave (None: not known)."""
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
                "items": gave[0] if gave else None,
            }
            for path, file_hash, failures, *gave in files
        ]
        if not rows:
            return
        table = self._writable()
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
