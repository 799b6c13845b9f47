"""Read the files inside a TAR archive (plain, gzip, bzip2 or xz), safely, in one pass.

Like ZIP (:mod:`omnireader.formats.archives.zip`), nothing is ever written to disk: a member's
name is only a label (``bundle.tar.gz!dir/file.txt``), never a path. Members named
``../x`` or ``/etc/x`` are refused one by one; symbolic and hard links, devices and FIFOs
hold no content of their own and are skipped, so a link to ``/etc/passwd`` is never
followed. A compressed TAR has no index: it is decompressed once, front to back
(``tarfile`` stream mode), from the file on disk, never held whole in memory.

Every byte ``tarfile`` sees passes through :class:`_Unpacked`, which counts it: the archive
stops at ``max_archive_bytes`` unpacked (headers, skipped members and all, since a stream
must be unpacked to be skipped) or when it unpacks over ``MAX_RATIO`` times its packed size
past 100 MiB (a TAR bomb). ``tarfile`` itself reads long-name and PAX headers whole; the
count stops those too.

    for member in tar_members(Blob(path="bundle.tar.gz"), ReadOptions()):
        print(member.label, len(member.data))     # bundle.tar.gz!bundle/readme.txt 50
"""

from __future__ import annotations

import io
import lzma
import os
import tarfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO

from omnireader.errors import CorruptError, ReadError, TooLargeError
from omnireader.file_names import shown_path
from omnireader.formats.archives.limits import (
    bomb_detail,
    check_depth,
    is_bomb,
    is_junk,
    is_safe_member_name,
    reporter,
)
from omnireader.formats.archives.member_names import member_blob, tar_entry_time
from omnireader.formats.archives.tar_sniff import TAR_MIMES, looks_like_tar, tar_codec, unpacking
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic, OnError
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["tar_members", "tar_member"]

_PIECE = 1 << 20  # read member data one MiB at a time
_BAD_TAR = (tarfile.TarError, EOFError, zlib.error, lzma.LZMAError, OSError, ValueError)


class _Limit(Exception):
    """The archive as a whole broke a limit; carries the error to raise for it."""

    def __init__(self, error: TooLargeError) -> None:
        self.error = error


class _Counted(io.RawIOBase):
    """The packed bytes, counted as they are read."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.count = raw, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(buffer))
        buffer[: len(data)] = data
        self.count += len(data)
        return len(data)


class _Unpacked(io.RawIOBase):
    """The unpacked TAR stream ``tarfile`` reads, checked against the limits at every read."""

    def __init__(self, raw: IO[bytes], codec: str, label: str, options: ReadOptions) -> None:
        self.packed = _Counted(raw)
        self.inner: IO[bytes] = (
            unpacking(self.packed, codec) if codec else self.packed  # type: ignore[assignment]
        )
        self.count, self.label, self.options = 0, label, options

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:  # type: ignore[override]
        # tarfile asks for whole headers and members; never more than one piece at a time.
        out = bytearray()
        want = size if size >= 0 else 1 << 62
        while len(out) < want:
            piece = self.inner.read(min(_PIECE, want - len(out)))
            if not piece:
                break
            out += piece
            self._check(len(piece))
        return bytes(out)

    def _check(self, more: int) -> None:
        self.count += more
        limit = self.options.max_archive_bytes
        if self.count > limit:
            raise _Limit(
                TooLargeError(
                    self.label,
                    f"unpacks to more than the max_archive_bytes limit of {limit} bytes "
                    "(a TAR bomb?); stopped reading",
                )
            )
        if is_bomb(self.count, self.packed.count):
            raise _Limit(
                TooLargeError(
                    self.label, bomb_detail(self.count, self.packed.count, "unpacks to over", "TAR")
                )
            )


def _packed_size(blob: Blob) -> int | None:
    if blob.data is not None:
        return len(blob.data)
    try:
        return os.path.getsize(blob.path or "")
    except OSError:
        return None  # _open_raw says what is wrong


def _open_raw(blob: Blob) -> IO[bytes]:
    if blob.data is not None:
        return io.BytesIO(blob.data)
    if blob.path is not None and not blob.member:
        try:
            return open(blob.path, "rb")  # read as needed, never the whole file at once
        except FileNotFoundError:
            raise ReadError(blob.label, "no such file") from None
        except OSError as e:
            raise ReadError(blob.label, f"cannot read: {e.strerror or e}") from None
    raise ReadError(blob.label, "no archive content given (neither bytes nor a path)")


class _BrokenOff(Exception):
    """The TAR broke off after some members were read; those stand, the break is reported."""

    def __init__(self, error: CorruptError) -> None:
        self.error = error


def _entries(blob: Blob, options: ReadOptions) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo]]:
    """Every header of the TAR ``blob``, in order, with the open stream to read it from.

    Raises :class:`TooLargeError` for the archive when it breaks a limit and
    :class:`CorruptError` when it is not a readable TAR (:class:`_BrokenOff` when that
    shows only after the first member).
    """
    with _open_raw(blob) as raw:
        codec = tar_codec(raw.read(512)) or ""
        raw.seek(0)
        stream = _Unpacked(raw, codec, blob.label, options)
        entries = seen = 0
        try:
            with tarfile.open(fileobj=stream, mode="r|") as tf:
                while (info := tf.next()) is not None:
                    seen += 1
                    # Stream mode cannot go back, so the headers it keeps are of no use;
                    # dropping them keeps memory flat however many members there are.
                    tf.members.clear()
                    entries += 0 if info.isdir() else 1
                    if entries > options.max_archive_members:
                        raise TooLargeError(
                            blob.label,
                            f"holds more than {options.max_archive_members} files, the "
                            "max_archive_members limit",
                        )
                    yield tf, info
        except _Limit as limit:
            raise limit.error from None
        except _BAD_TAR as e:
            error = CorruptError(blob.label, f"not a readable TAR archive ({e})")
            if seen:
                error = CorruptError(
                    blob.label, f"the archive breaks off after {seen} entries ({e})"
                )
                raise _BrokenOff(error) from None
            raise error from None


def _read(tf: tarfile.TarFile, info: tarfile.TarInfo, label: str) -> bytes:
    """The member's bytes; a limit broken while unpacking them is the archive's error."""
    out = bytearray()
    try:
        f = tf.extractfile(info)
        while f is not None and (piece := f.read(_PIECE)):
            out += piece
    except _Limit as limit:
        raise limit.error from None
    except _BAD_TAR as e:
        raise _BrokenOff(CorruptError(label, f"damaged or cut short ({e})")) from None
    return bytes(out)


def tar_members(
    blob: Blob,
    options: ReadOptions,
    *,
    on_error: Callable[[ReadError], None] | None = None,
) -> Iterator[Blob]:
    """The files inside the TAR archive ``blob``, each a :class:`Blob` with ``data``.

    Folders, links, devices, FIFOs, ``__MACOSX/`` and dotfiles are skipped. A member that
    cannot be read (a name that climbs out of the archive, over ``max_file_bytes``) raises
    its own :class:`ReadError` naming ``archive!member`` -- or goes to ``on_error`` and the
    next member is read. The archive as a whole raises :class:`TooLargeError` (over
    ``max_archive_members``, ``max_archive_bytes``, a bomb's ratio, or nested past
    ``max_archive_depth``) and :class:`CorruptError` (not a TAR, or cut short).
    """
    check_depth(blob, options)
    fail = reporter(on_error)

    packed = _packed_size(blob)
    try:
        for tf, info in _entries(blob, options):
            label = f"{blob.label}!{info.name}"
            # Headers state sizes truly (the stream's layout follows them), so a bomb shows
            # before a byte of it is unpacked.
            declared = info.offset_data + info.size
            if packed is not None and is_bomb(declared, packed):
                raise TooLargeError(blob.label, bomb_detail(declared, packed, "declares", "TAR"))
            # Links, devices and FIFOs point at things outside the archive: never followed.
            if not info.isreg() or is_junk(info.name):
                continue
            if not is_safe_member_name(info.name):
                fail(CorruptError(label, "member name points outside the archive; not read"))
                continue
            if info.size > options.max_file_bytes:
                fail(
                    TooLargeError(
                        label, f"{info.size} bytes is over the {options.max_file_bytes} byte limit"
                    )
                )
                continue
            data = _read(tf, info, label)
            yield member_blob(blob, info.name, data, tar_entry_time(info.mtime))
    except _BrokenOff as broken:  # what was read before the break stands
        fail(broken.error)


def tar_member(
    container: Blob, remaining: str, options: ReadOptions, label: str
) -> tuple[str, bytes]:
    """The member of the TAR ``container`` that ``remaining`` (``name`` or ``name!deeper``)
    starts with: its name and bytes. The longest matching name wins, so members whose names
    hold ``!`` still work; the archive is read once, front to back, to find it."""
    name, found = "", b""
    try:
        for tf, info in _entries(container, options):
            n = shown_path(info.name)  # a name that is not UTF-8 is stored with \xNN
            if not info.isreg() or not is_safe_member_name(n) or len(n) <= len(name):
                continue
            if remaining == n or remaining.startswith(n + "!"):
                if info.size > options.max_file_bytes:
                    raise TooLargeError(label, f"{info.size} bytes is over the byte limit")
                name, found = n, _read(tf, info, label)
                if remaining == n:
                    break  # nothing longer can match exactly
    except _BrokenOff as broken:
        if not name:
            raise broken.error from None
    if not name:
        raise ReadError(label, f"the archive has no member {remaining!r}")
    return name, found


def _members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    return tar_members(blob, options, on_error=on_error)


def _is_tar(p: Probe) -> str | None:
    codec = looks_like_tar(p.data[: 1 << 20], p.filename)
    return TAR_MIMES[codec] if codec is not None else None


FORMATS = (
    Format(
        name="tar",
        rank=24,
        display="TAR (also .tar.gz / .bz2 / .xz)",
        extensions=(".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz"),
        mimes=tuple(TAR_MIMES.values()),
        # before the looser PDF test: a TAR that stores a PDF has "%PDF-" early on too
        magic=(Magic(30, _is_tar),),
        members=_members,
        find_member=tar_member,
        hint="a TAR archive: route it (omnireader.route) so each member is read",
        readme_group="ZIP, TAR (.tar, .tar.gz, .tar.bz2, .tar.xz)",
    ),
)
