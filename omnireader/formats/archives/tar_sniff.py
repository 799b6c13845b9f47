"""Recognising a TAR by its content: a ``ustar`` header at offset 257 whose checksum adds
up, or a gzip / bzip2 / xz stream whose first unpacked block is such a header.

    >>> looks_like_tar(open("bundle.tar.gz", "rb").read(1 << 20))
    'gz'

A bare ``notes.txt.gz`` is a packed stream but not a TAR: :func:`looks_like_tar` says None.
Reading the archive is :mod:`omnireader.formats.archives.tar`.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from typing import IO

__all__ = ["tar_codec", "looks_like_tar", "unpacking", "TAR_MIMES"]

# What a TAR is packed with, told by the packed stream's first bytes.
_MAGIC: list[tuple[bytes, str]] = [
    (b"\x1f\x8b", "gz"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
]
TAR_MIMES = {
    "": "application/x-tar",
    "gz": "application/gzip",
    "bz2": "application/x-bzip2",
    "xz": "application/x-xz",
}
# Names that say "a packed TAR" when a head is too short to unpack (a bzip2 block is
# up to 900 kB, and a sniffing head may end before the first block does).
_TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz")
_BAD_STREAM = (EOFError, zlib.error, lzma.LZMAError, OSError, ValueError)


def _is_tar_header(block: bytes) -> bool:
    """A POSIX / GNU TAR header: ``ustar`` at 257 and a checksum that adds up."""
    if len(block) < 512 or block[257:262] != b"ustar":
        return False
    try:
        stored = int(block[148:156].replace(b"\x00", b" ").strip() or b"-1", 8)
    except ValueError:
        return False
    return stored == sum(block[:148]) + 8 * 32 + sum(block[156:512])


def tar_codec(head: bytes) -> str | None:
    """``""`` for a plain TAR, ``gz`` / ``bz2`` / ``xz`` for a packed stream (which may or
    may not hold a TAR), None for anything else."""
    if _is_tar_header(head[:512]):
        return ""
    return next((codec for magic, codec in _MAGIC if head.startswith(magic)), None)


def looks_like_tar(head: bytes, filename: str = "") -> str | None:
    """The codec (``""``, ``gz``, ``bz2``, ``xz``) when ``head`` starts a TAR, else None.

    A packed head is unpacked just far enough to see the first TAR header; a bare
    ``notes.txt.gz`` is not a TAR and gets None.
    """
    codec = tar_codec(head)
    if not codec:
        return codec
    try:
        with unpacking(io.BytesIO(head), codec) as f:
            first = f.read(512)
    except _BAD_STREAM:
        first = b""
    if _is_tar_header(first):
        return codec
    cut_short = len(first) < 512
    return codec if cut_short and filename.lower().endswith(_TAR_SUFFIXES) else None


def unpacking(raw: IO[bytes], codec: str) -> IO[bytes]:
    """``raw`` unpacked as it is read (``codec`` ``gz``, ``bz2`` or ``xz``)."""
    if codec == "gz":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if codec == "bz2":
        return bz2.BZ2File(raw, "rb")
    return lzma.LZMAFile(raw, "rb")
