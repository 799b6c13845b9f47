"""Items read from a file name that file, and carry its modification time when they have
no time of their own."""

from __future__ import annotations

import os
from datetime import UTC
from typing import Any

from omnireader.models import MemoryItem

__all__ = ["name_file"]


def name_file(items: list[MemoryItem], input: Any) -> None:
    """Every item read from a file names that file, even when its parser's sources are
    messages (a chat log): the store finds a file's items by path to replace them.

    An item with no time of its own (Markdown, CSV, plain text, a PNG without EXIF...) gets
    the file's modification time, marked ``time_source="mtime"``, so a time filter keeps it.
    """
    if not isinstance(input, os.PathLike):
        return
    path = str(input)
    mtime: str | None = None
    for item in items:
        for i, src in enumerate(item.metadata.sources):
            if src.path is None and src.url is None:
                item.metadata.sources[i] = src.model_copy(update={"path": path})
        if item.metadata.timestamp is None:
            mtime = mtime or _mtime(path)
            if mtime is not None:
                item.metadata.timestamp, item.metadata.time_source = mtime, "mtime"


def _mtime(path: str) -> str | None:
    from datetime import datetime

    try:
        seconds = os.stat(path).st_mtime
    except OSError:
        return None
    return datetime.fromtimestamp(int(seconds), UTC).isoformat()
