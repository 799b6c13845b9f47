"""ZIP member names flagged UTF-8 that are not UTF-8 (a writer that set the flag, bit 11,
over Latin-1 or CP1252 bytes).

Python's zipfile decodes such a name strictly and refuses the whole archive
(``UnicodeDecodeError``): every member was lost, the good ones too. Read through a view of
the file in which exactly those entries' flag is clear (in the central directory while the
archive is opened, and in their local headers), the archive opens; each such member is then
named in its shown form, its bytes that are not UTF-8 written ``\\xNN``, as a file name on
disk is (:mod:`omnireader.file_names`), so the store and a later re-read by name agree.
"""

from __future__ import annotations

import struct
import zipfile
from typing import IO

from omnireader.file_names import shown_path

__all__ = ["open_mislabelled"]

_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
_UTF8 = 0x800  # general purpose flag bit 11: the name is UTF-8


def open_mislabelled(source: str | IO[bytes]) -> zipfile.ZipFile:
    """The ZIP at ``source`` (a path or a binary file) whose flagged names are not UTF-8."""
    raw = open(source, "rb") if isinstance(source, str) else source  # noqa: SIM115
    view = _Unflagged(raw, owned=isinstance(source, str))
    try:
        zf = _ViewZip(view)
    except BaseException:
        view.close()
        raise
    view.opening = False
    for info in zf.infolist():
        name = info.orig_filename.encode("cp437")  # what zipfile decoded, flag now clear
        if name in view.cleared:
            shown = shown_path(name.decode("utf-8", "surrogateescape"))
            zf.NameToInfo.pop(info.filename, None)
            info.filename = shown
            zf.NameToInfo[shown] = info
            view.local_headers.add(info.header_offset)
    return zf


class _ViewZip(zipfile.ZipFile):
    """A ZipFile that closes the view it reads (zipfile leaves a passed file open)."""

    def __init__(self, view: _Unflagged) -> None:
        self._view = view  # first: a ZipFile that failed to open is still closed on delete
        super().__init__(view)  # type: ignore[arg-type]

    def close(self) -> None:
        super().close()
        self._view.close()


class _Unflagged:
    """A binary file whose reads come back with the UTF-8 flag of mislabelled names clear:
    in the central directory (only while opening: a member's own bytes are never touched)
    and in the local headers at ``local_headers``."""

    def __init__(self, raw: IO[bytes], owned: bool) -> None:
        self._raw = raw
        self._owned = owned
        self.opening = True
        self.cleared: set[bytes] = set()
        self.local_headers: set[int] = set()

    def read(self, n: int = -1) -> bytes:
        at = self._raw.tell()
        data = self._raw.read(n)
        if self.opening and data[:4] == _CENTRAL:
            return self._central(data)
        if at in self.local_headers and data[:4] == _LOCAL and len(data) >= 8:
            (flags,) = struct.unpack_from("<H", data, 6)
            return data[:6] + struct.pack("<H", flags & ~_UTF8) + data[8:]
        return data

    def _central(self, data: bytes) -> bytes:
        out = bytearray(data)
        at = 0
        while out[at : at + 4] == _CENTRAL and at + 46 <= len(out):
            (flags,) = struct.unpack_from("<H", out, at + 8)
            name_len, extra_len, comment_len = struct.unpack_from("<HHH", out, at + 28)
            name = bytes(out[at + 46 : at + 46 + name_len])
            if flags & _UTF8 and not _is_utf8(name):
                struct.pack_into("<H", out, at + 8, flags & ~_UTF8)
                self.cleared.add(name)
            at += 46 + name_len + extra_len + comment_len
        return bytes(out)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def seekable(self) -> bool:
        return True

    def close(self) -> None:
        if self._owned:
            self._raw.close()


def _is_utf8(name: bytes) -> bool:
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
