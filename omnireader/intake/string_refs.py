"""What a plain string names: a local file, a URL, or nothing (it is text).

Users of MarkItDown and LlamaIndex pass ``str`` paths, so a string that is an existing path,
a ``file://`` URL or an ``http(s)://`` URL is read as that file (``ReadOptions.strings_as_text``
turns this off; ``allow_path_parts=False`` keeps strings from naming local files). A string
that only looks like a path to a missing file is read as text, with a warning.

    >>> is_url("https://example.com/a.pdf"), is_url("see https://example.com")
    (True, False)
    >>> looks_like_path("reports/q3.pdf"), looks_like_path("Alice moved to Berlin.")
    (True, False)
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from omnireader.options import ReadOptions

__all__ = ["is_url", "file_url_path", "local_path", "looks_like_path"]

_URL = re.compile(r"https?://[^\s]+", re.IGNORECASE)
_ROOTED = re.compile(r"(?:[A-Za-z]:[\\/]|~[\\/]|\.{1,2}[\\/]|/)[^\s]*")
_NAMED = re.compile(r"[\w.\-~\\/]+\.(\w{1,8})")
# Extensions of files people pass by name; "example.com" or "3.14" are text.
_FILE_EXT = frozenset(
    "pdf docx doc pptx ppt xlsx xls csv tsv txt md markdown html htm json jsonl xml rss "
    "epub zip ipynb msg eml mbox rtf odt ods odp png jpg jpeg gif bmp tif tiff webp heic "
    "wav mp3 m4a flac ogg".split()
)
_MAX_PATH = 4096


def is_url(text: str) -> bool:
    """True when the whole string is one http(s) URL."""
    return len(text) <= _MAX_PATH and bool(_URL.fullmatch(text.strip()))


def file_url_path(text: str) -> Path | None:
    """The local path of a ``file://`` URL, else None."""
    if not text[:7].lower() == "file://" or "\n" in text:
        return None
    parsed = urlparse(text.strip())
    if parsed.netloc not in ("", "localhost"):
        return None
    return Path(unquote(parsed.path))


def local_path(text: str, options: ReadOptions) -> Path | None:
    """The existing file or folder ``text`` names (a path or a ``file://`` URL), else None."""
    if options.strings_as_text or not options.allow_path_parts:
        return None
    if not text or len(text) > _MAX_PATH or "\n" in text or "\x00" in text:
        return None
    path = file_url_path(text)
    if path is not None:
        return path  # asked for by its URL: a missing file is an error, not text
    candidate = Path(text.strip()).expanduser()
    try:
        return candidate if candidate.exists() else None
    except (OSError, ValueError):  # a name too long for the file system, and the like
        return None


def looks_like_path(text: str) -> bool:
    """A single short line shaped like a rooted path, or a file name with a file extension."""
    stripped = text.strip()
    if not stripped or len(stripped) > 1024 or "\n" in stripped:
        return False
    if _ROOTED.fullmatch(stripped) and len(stripped) > 1:
        return True
    named = _NAMED.fullmatch(stripped)
    return named is not None and named.group(1).lower() in _FILE_EXT
