"""``GET /v1/files``: the files (and URLs) the store holds items of, one row each.

Read from the items table's typed columns (``path`` is the first source's path or URL,
``page`` its page, ``updated_at`` when the item was last written), so listing costs one
column scan, no item is rebuilt. Items with no path (chat messages, plain strings) are not
files and are not listed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

__all__ = ["FileList", "StoredFile", "list_files"]


class StoredFile(BaseModel):
    path: str = Field(description="as stored: a file path (an upload's is in the spool) or URL")
    name: str = Field(description="the last part of the path, to show")
    items: int
    pages: int = Field(description="distinct pages with items (0: the format has no pages)")
    last_ingested: str | None = Field(
        None, description="when an item of it was last written (ISO 8601, UTC)"
    )
    source_kind: str | None = None


class FileList(BaseModel):
    files: list[StoredFile]
    total: int = Field(description="files in all; ``files`` holds the first ``limit``")


def list_files(store: Any, where: str | None, limit: int) -> FileList:
    """The files of the items matching ``where``, most recently ingested first."""
    from omnireader.store.filters import combine

    cols = store._columns(
        ["path", "page", "updated_at", "source_kind"], combine("path IS NOT NULL", where)
    )
    groups: dict[str, dict[str, Any]] = {}
    for path, page, updated, kind in zip(
        cols["path"], cols["page"], cols["updated_at"], cols["source_kind"]
    ):
        g = groups.setdefault(path, {"items": 0, "pages": set(), "last": None, "kind": kind})
        g["items"] += 1
        if page is not None:
            g["pages"].add(page)
        if updated is not None and (g["last"] is None or updated > g["last"]):
            g["last"] = updated
    rows = [
        StoredFile(
            path=path,
            name=_name(path),
            items=g["items"],
            pages=len(g["pages"]),
            last_ingested=_iso(g["last"]),
            source_kind=g["kind"],
        )
        for path, g in groups.items()
    ]
    rows.sort(key=lambda r: (r.last_ingested or "", r.path), reverse=True)
    return FileList(files=rows[:limit], total=len(rows))


def _name(path: str) -> str:
    base = path.rstrip("/").replace("\\", "/").rsplit("/", 1)[-1]
    return base or path


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None
