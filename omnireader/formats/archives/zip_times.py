"""When a ZIP entry was last modified, from the most exact field the archive holds.

A ZIP entry always has a DOS time: local time of the machine that wrote it, no zone, two
seconds apart. Most zippers (Info-ZIP on Unix, macOS, 7-Zip, Windows) also write the time
as UTC in an extra field, and that one is used when present:

* ``0x5455`` "UT" (extended timestamp): the modification time in seconds since 1970, UTC;
* ``0x000a`` NTFS: the modification time in 100 ns ticks since 1601-01-01, UTC.

Which field was used shows in the value: a time from an extra field carries ``+00:00``,
the DOS time is naive (its zone is not known) -- the only naive times a ZIP member gets.

    >>> zip_entry_time((2024, 12, 14, 6, 27, 28),
    ...     bytes.fromhex("55540500") + bytes([0x01]) + (1734175649).to_bytes(4, "little"))
    '2024-12-14T11:27:29+00:00'
    >>> zip_entry_time((2024, 12, 14, 6, 27, 28))
    '2024-12-14T06:27:28'
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta

__all__ = ["zip_entry_time", "extra_field_time"]

_UT = 0x5455
_NTFS = 0x000A
_NTFS_TIMES = 0x0001  # the NTFS field's attribute holding mtime, atime, ctime
_NTFS_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)
# 1980-01-01 00:00 is the earliest time a ZIP entry can hold: tools that write no date (and
# reproducible builds) leave it there, so it says nothing about the member.
_ZIP_NO_DATE = (1980, 1, 1, 0, 0, 0)
_NO_DATE_UTC = datetime(1980, 1, 1, tzinfo=UTC)


def _fields(extra: bytes) -> dict[int, bytes]:
    """The extra fields by id (the first of each); a truncated field ends the walk."""
    out: dict[int, bytes] = {}
    at = 0
    while at + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, at)
        body = extra[at + 4 : at + 4 + size]
        if len(body) < size:
            break
        out.setdefault(tag, body)
        at += 4 + size
    return out


def _ut_time(body: bytes) -> datetime | None:
    # flags, then mtime first when bit 0 is set (the central directory keeps only mtime)
    if len(body) < 5 or not body[0] & 1:
        return None
    (seconds,) = struct.unpack_from("<i", body, 1)
    return datetime.fromtimestamp(seconds, UTC)


def _ntfs_time(body: bytes) -> datetime | None:
    at = 4  # 4 reserved bytes, then (tag, size, value) attributes
    while at + 4 <= len(body):
        tag, size = struct.unpack_from("<HH", body, at)
        if tag == _NTFS_TIMES and size >= 8 and at + 12 <= len(body):
            (ticks,) = struct.unpack_from("<Q", body, at + 4)
            return _NTFS_EPOCH + timedelta(microseconds=ticks // 10)
        at += 4 + size
    return None


def extra_field_time(extra: bytes) -> datetime | None:
    """The UTC modification time an entry's extra fields hold (UT first, then NTFS), or
    None when there is none or it is no real date (zero, before 1980, out of range)."""
    fields = _fields(extra or b"")
    for tag, read in ((_UT, _ut_time), (_NTFS, _ntfs_time)):
        if tag not in fields:
            continue
        try:
            moment = read(fields[tag])
        except (OverflowError, OSError, ValueError, struct.error):
            continue
        if moment is not None and moment > _NO_DATE_UTC:
            return moment.replace(microsecond=0)
    return None


def zip_entry_time(
    date_time: tuple[int, int, int, int, int, int], extra: bytes = b""
) -> str | None:
    """A ZIP entry's time as ISO 8601: UTC from its extra field when it has one, else its
    DOS time, naive; None when there is neither (the DOS "no date", an invalid date)."""
    exact = extra_field_time(extra)
    if exact is not None:
        return exact.isoformat()
    if tuple(date_time) <= _ZIP_NO_DATE:
        return None
    try:
        return datetime(*date_time).isoformat()
    except ValueError:
        return None
