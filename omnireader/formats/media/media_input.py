"""An image or audio input as its metadata readers open it (bytes or a path, an empty one
refused), and a header tag's value as text."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from omnireader.errors import EmptyInputError, ReadError

__all__ = ["Media", "open_media", "tag_text"]

Media = bytes | os.PathLike[str]


def open_media(blob: Media, name: str) -> io.BytesIO | Path:
    """What Pillow or mutagen opens: the bytes as a file, or the path of a file not empty."""
    if isinstance(blob, (bytes, bytearray, memoryview)):
        if not blob:
            raise EmptyInputError(name, "no content (0 bytes)")
        return io.BytesIO(bytes(blob))
    path = Path(blob)
    try:
        size = path.stat().st_size
    except OSError as e:
        raise ReadError(name, f"cannot read: {e.strerror or e}") from None
    if size == 0:
        raise EmptyInputError(name, "the file is empty (0 bytes)")
    return path


def tag_text(value: Any) -> str | None:
    """An EXIF or audio tag's value as text (bytes decoded, NULs dropped); None if empty."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return None
    return value.replace("\x00", "").strip() or None
