"""Read the files inside a ZIP archive, safely and in memory.

Nothing is ever written to disk, so a member named ``../../etc/passwd`` cannot escape
anywhere; such names are still refused, as they only come from broken or hostile tools.
Sizes in ZIP headers are not trusted: every member is decompressed in pieces and counted,
so a ZIP bomb stops at the limit (:class:`~omnireader.options.ReadOptions`
``max_archive_bytes`` / ``max_file_bytes``) without ever allocating its output, and a
member that unpacks to more than ``MAX_RATIO`` times its packed size *and* past 100 MiB is
refused as a bomb (see :mod:`omnireader.formats.archives.limits`: 10 MB of zeros is no bomb).
:func:`check_package` applies the same rules to Office and EPUB files before a library
unpacks them.

    for member in iter_members(Blob(path="reports.zip"), ReadOptions()):
        print(member.label, len(member.data))     # reports.zip!q3/summary.docx 18231

Members of nested archives are named with ``!`` between the levels
(``outer.zip!inner.zip!notes.txt``), like the archive's own label.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO

from omnireader.errors import (
    CorruptError,
    EncryptedError,
    ReadError,
    TooLargeError,
    UnsupportedFormatError,
)
from omnireader.formats.archives.limits import (
    MAX_RATIO,
    PACKAGE_RATIO_FLOOR,
    bomb_detail,
    check_depth,
    is_bomb,
    is_junk,
    is_safe_member_name,
    reporter,
)
from omnireader.formats.archives.member_names import member_blob
from omnireader.formats.archives.zip_flags import open_mislabelled
from omnireader.formats.archives.zip_times import zip_entry_time
from omnireader.formats.registry import Format, Magic, OnError
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = [
    "PACKAGE_ERRORS",
    "iter_members",
    "zip_member",
    "archive_depth",
    "is_safe_member_name",
    "check_package",
    "MAX_RATIO",
]

_PIECE = 1 << 20  # decompress one MiB at a time
_AES = 99  # WinZip AES "compression method": encrypted, and zipfile cannot decrypt it
_BAD_ZIP = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError)
#: What reading a member of a damaged, truncated or encrypted zip package (DOCX, EPUB, ...)
#: raises: zlib.error for damaged compressed data, RuntimeError for an encrypted member,
#: KeyError for a member the directory names but the file lacks.
PACKAGE_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    OSError,
    ValueError,
    KeyError,
    RuntimeError,
    EOFError,
)


def archive_depth(blob: Blob) -> int:
    """How many archives ``blob`` is inside of (0 for a file that came from no archive)."""
    return 0 if not blob.member else blob.member.count("!") + 1


def _open_zip(blob: Blob) -> zipfile.ZipFile:
    source: str | IO[bytes]
    if blob.data is not None:
        source = io.BytesIO(blob.data)
    elif blob.path is not None and not blob.member:
        source = blob.path  # read from disk as needed, never the whole file at once
    else:
        raise ReadError(blob.label, "no archive content given (neither bytes nor a path)")
    try:
        try:
            return _utf8_names(zipfile.ZipFile(source))
        except UnicodeDecodeError:  # a name flagged UTF-8 is not: see zip_flags
            return _utf8_names(open_mislabelled(source))
    except FileNotFoundError:
        raise ReadError(blob.label, "no such file") from None
    except (*_BAD_ZIP, NotImplementedError) as e:
        raise CorruptError(blob.label, f"not a readable ZIP archive ({e})") from None


def _utf8_names(zf: zipfile.ZipFile) -> zipfile.ZipFile:
    """Names stored as UTF-8 without the UTF-8 flag (many zip tools do this) read as UTF-8.

    Without the flag, ZIP says CP437 and Python decodes so: "Zoë.txt" becomes "ZoÃ«.txt".
    Bytes that are valid UTF-8 with non-ASCII in them are almost never meant as CP437.
    Other legacy code pages (CP866, CP932...) cannot be told apart from CP437 by a name
    alone, so those stay as ZIP says.
    """
    for info in zf.infolist():
        if info.flag_bits & 0x800 or info.filename.isascii() or info.filename != info.orig_filename:
            continue  # flagged UTF-8, plain ASCII, or named already (zip_flags)
        try:
            name = info.filename.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        zf.NameToInfo.pop(info.filename, None)
        info.filename = name
        zf.NameToInfo[name] = info
    return zf


def iter_members(
    blob: Blob,
    options: ReadOptions,
    *,
    on_error: Callable[[ReadError], None] | None = None,
) -> Iterator[Blob]:
    """The files inside the ZIP archive ``blob``, each as a :class:`Blob` with ``data``.

    Directories, ``__MACOSX/`` and dotfiles are skipped. A member that cannot be read
    (encrypted, too large, damaged, a name that climbs out of the archive) raises its own
    :class:`ReadError` naming ``archive!member`` -- or, when ``on_error`` is given, is
    reported there and the next member is read. The archive as a whole raises
    :class:`TooLargeError` when it has more members than ``max_archive_members``, unpacks
    to more than ``max_archive_bytes`` or is nested deeper than ``max_archive_depth``, and
    :class:`CorruptError` when it is not a readable ZIP.
    """
    check_depth(blob, options)
    fail = reporter(on_error)

    password = options.password or blob.password
    with _open_zip(blob) as zf:
        try:
            infos = [i for i in zf.infolist() if not i.is_dir() and not is_junk(i.filename)]
        except _BAD_ZIP as e:
            raise CorruptError(blob.label, f"damaged ZIP directory ({e})") from None
        if len(infos) > options.max_archive_members:
            raise TooLargeError(
                blob.label,
                f"holds {len(infos)} files, over the max_archive_members limit of "
                f"{options.max_archive_members}",
            )
        budget = options.max_archive_bytes
        for info in infos:
            label = f"{blob.label}!{info.filename}"
            if not is_safe_member_name(info.filename):
                fail(CorruptError(label, "member name points outside the archive; not read"))
                continue
            try:
                data = _read_member(zf, info, label, password, options.max_file_bytes, budget)
            except _ArchiveOverflow:
                raise TooLargeError(
                    blob.label,
                    f"unpacks to more than the max_archive_bytes limit of "
                    f"{options.max_archive_bytes} bytes (a ZIP bomb?); stopped reading at "
                    f"{info.filename}",
                ) from None
            except ReadError as e:
                fail(e)
                continue
            budget -= len(data)
            yield member_blob(blob, info.filename, data, zip_entry_time(info.date_time, info.extra))


class _ArchiveOverflow(Exception):
    """The archive's byte budget ran out while reading a member."""


def _read_member(
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    label: str,
    password: str | None,
    member_cap: int,
    budget: int,
) -> bytes:
    if info.compress_type == _AES:
        raise EncryptedError(label, "uses WinZip AES encryption, which cannot be opened")
    encrypted = bool(info.flag_bits & 0x1)
    if encrypted and not password:
        raise EncryptedError(label, "the member is encrypted; pass the password (--password)")
    if info.file_size > member_cap:  # a header may lie low, but never usefully high
        raise TooLargeError(label, f"{info.file_size} bytes is over the {member_cap} byte limit")
    if info.file_size > budget:
        raise _ArchiveOverflow
    if is_bomb(info.file_size, info.compress_size):
        raise TooLargeError(label, bomb_detail(info.file_size, info.compress_size, "declares"))
    limit = min(member_cap, budget)
    out = bytearray()
    try:
        pwd = password.encode("utf-8") if encrypted and password else None
        with zf.open(info, pwd=pwd) as f:
            while piece := f.read(min(_PIECE, limit + 1 - len(out))):
                out += piece
                if is_bomb(len(out), info.compress_size):
                    raise TooLargeError(
                        label, bomb_detail(len(out), info.compress_size, "unpacks to over")
                    )
                if len(out) > limit:
                    if limit == budget:
                        raise _ArchiveOverflow
                    raise TooLargeError(label, f"unpacks to over the {member_cap} byte limit")
    except RuntimeError as e:  # zipfile's "Bad password" / "password required"
        raise EncryptedError(label, f"cannot decrypt: {e}") from None
    except NotImplementedError as e:
        raise UnsupportedFormatError(label, f"cannot unpack: {e}") from None
    except _BAD_ZIP as e:
        raise CorruptError(label, f"damaged archive member ({e})") from None
    return bytes(out)


def zip_member(
    container: Blob, remaining: str, options: ReadOptions, label: str
) -> tuple[str, bytes]:
    """The member of the ZIP ``container`` that ``remaining`` (``name`` or ``name!deeper``)
    starts with: its name and bytes. The longest matching name wins, so members whose names
    hold ``!`` still work."""
    with _open_zip(container) as zf:
        names = set(zf.namelist())
        name = next(
            (
                n
                for n in sorted(names, key=len, reverse=True)
                if remaining == n or remaining.startswith(n + "!")
            ),
            None,
        )
        if name is None or not is_safe_member_name(name):
            raise ReadError(label, f"the archive has no member {remaining!r}")
        info = zf.getinfo(name)
        password = options.password or container.password
        budget = options.max_archive_bytes
        try:
            data = _read_member(zf, info, label, password, options.max_file_bytes, budget)
        except _ArchiveOverflow:
            raise TooLargeError(label, "member is over max_archive_bytes") from None
    return name, data


def check_package(blob: Blob, options: ReadOptions) -> None:
    """Refuse an Office or EPUB package (a ZIP) that would unpack to a bomb.

    Libraries read a package's parts whole (python-docx, openpyxl, python-pptx); ``zipfile``
    never returns more than a part's declared size, so the declared sizes bound what they
    would allocate. Raises :class:`TooLargeError` for a part packed over ``MAX_RATIO`` times
    (and past 8 MiB) or parts adding up to more than ``max_archive_bytes``.
    """
    with _open_zip(blob) as zf:
        try:
            infos = zf.infolist()
        except _BAD_ZIP as e:
            raise CorruptError(blob.label, f"damaged ZIP directory ({e})") from None
        total = 0
        for info in infos:
            # Parts are parsed whole into XML trees, so the stricter package floor.
            if is_bomb(info.file_size, info.compress_size, PACKAGE_RATIO_FLOOR):
                what = f"part {info.filename} declares"
                raise TooLargeError(
                    blob.label, bomb_detail(info.file_size, info.compress_size, what)
                )
            total += info.file_size
        if total > options.max_archive_bytes:
            raise TooLargeError(
                blob.label,
                f"unpacks to {total} bytes, over the max_archive_bytes limit of "
                f"{options.max_archive_bytes}",
            )


def _members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    return iter_members(blob, options, on_error=on_error)


FORMATS = (
    Format(
        name="zip",
        rank=23,
        display="ZIP",
        extensions=(".zip",),
        mimes=("application/zip",),
        magic=(Magic(20, lambda p: p.head.startswith((b"PK\x03\x04", b"PK\x05\x06"))),),
        refines="zip",
        members=_members,
        find_member=zip_member,
        resniff_whole=True,
        hint="a ZIP archive: route it (omnireader.route) so each member is read",
        readme_group="ZIP, TAR (.tar, .tar.gz, .tar.bz2, .tar.xz)",
        readme="every member, each item naming its member (`bundle.tar.gz!dir/notes.md`); "
        "nothing is written to disk, links and devices in a TAR are skipped, bombs and `../` "
        "names refused; `--max-archive-depth` for archives inside archives",
    ),
)
