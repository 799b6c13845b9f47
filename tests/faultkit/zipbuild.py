"""Write ZIP files from members deflated by hand: gigabytes packed in milliseconds.

After a full flush a deflate stream does not refer back, so one packed block can be
repeated as is; :func:`zip_of` then writes the archive around such members.
"""

from __future__ import annotations

import io
import struct
import zlib

__all__ = ["deflated_member", "zip_of", "Member"]

Member = tuple[str, bytes, int, int]  # name, deflated bytes, CRC-32, unpacked size


def deflated_member(name: str, head: bytes, block: bytes, total: int, tail: bytes) -> Member:
    """``head`` + ``block`` repeated up to ``total`` bytes + ``tail``, deflated.

    After a full flush a deflate stream does not refer back, so the packed block can be
    repeated as is: gigabytes packed without ever being held or compressed whole.
    """
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = [co.compress(head) + co.flush(zlib.Z_FULL_FLUSH)]
    crc = zlib.crc32(head)
    body = max(0, total - len(head) - len(tail))
    count, rest = divmod(body, len(block))
    if count:
        once = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
        packed.append(once * count)
        for _ in range(count):
            crc = zlib.crc32(block, crc)
    end = block[:rest] + tail
    packed.append(co.compress(end) + co.flush(zlib.Z_FINISH))
    crc = zlib.crc32(end, crc)
    size = len(head) + count * len(block) + len(end)
    return name, b"".join(packed), crc & 0xFFFFFFFF, size


def zip_of(members: list[Member]) -> bytes:
    """A ZIP file from already deflated members (sizes under 4 GiB: no ZIP64 needed)."""
    out = io.BytesIO()
    central = []
    for name, packed, crc, size in members:
        assert size < 0xFFFFFFFF, "member too large for a plain ZIP"
        offset = out.tell()
        raw = name.encode()
        out.write(
            struct.pack(
                "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(packed), size, len(raw), 0
            )
            + raw
        )
        out.write(packed)
        central.append(
            struct.pack(
                "<IHHHHHHIIIHHHHHII",
                0x02014B50,
                20,
                20,
                0,
                8,
                0,
                0x21,
                crc,
                len(packed),
                size,
                len(raw),
                0,
                0,
                0,
                0,
                0o644 << 16,
                offset,
            )
            + raw
        )
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(
        struct.pack(
            "<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), start, 0
        )
    )
    return out.getvalue()
