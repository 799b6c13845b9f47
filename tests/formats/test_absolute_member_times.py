"""Message and archive-member times are absolute (they carry a zone) whenever the file says
which moment it means: a mail ``Date`` in ``-0000`` is UTC (RFC 5322 3.3), and a ZIP entry's
extended-timestamp ("UT", 0x5455) or NTFS (0x000a) extra field is UTC and wins over the
entry's DOS time, which is local time with no zone and stays naive only when it is all
there is."""

from __future__ import annotations

import io
import struct
import zipfile
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

from omnireader import Reader
from omnireader.formats.archives.zip import iter_members
from omnireader.formats.archives.zip_times import extra_field_time
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

# 2024-12-14T11:27:29Z, and a DOS time of the same moment written in UTC-5
EXACT = int(datetime(2024, 12, 14, 11, 27, 29, tzinfo=UTC).timestamp())
DOS_LOCAL = (2024, 12, 14, 6, 27, 28)


def _ut_field(seconds: int) -> bytes:
    return struct.pack("<HHB", 0x5455, 5, 0b001) + struct.pack("<i", seconds)


def _ntfs_field(moment: datetime) -> bytes:
    ticks = int((moment - datetime(1601, 1, 1, tzinfo=UTC)).total_seconds()) * 10_000_000
    times = struct.pack("<HHQQQ", 0x0001, 24, ticks, ticks, ticks)
    return struct.pack("<HHI", 0x000A, 4 + len(times), 0) + times


def _zip(tmp_path: Path, entries: dict[str, bytes]) -> Path:
    """A ZIP of text members, each with its DOS time and the given extra field bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, extra in entries.items():
            info = zipfile.ZipInfo(name, DOS_LOCAL)
            info.extra = extra
            zf.writestr(info, f"The notes kept in {name} for the review.")
    path = tmp_path / "bundle.zip"
    path.write_bytes(buf.getvalue())
    return path


def _times(path: Path) -> dict[str, str | None]:
    return {i.metadata.sources[0].member: i.metadata.timestamp for i in Reader().read(path)}


def test_a_mail_date_in_minus_0000_is_utc_not_a_naive_time(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "qmail@example.org", "failure notice"
    msg["Date"] = "30 Mar 2009 08:18:21 -0000"  # what qmail and many scripts write
    msg.set_content("I'm afraid I wasn't able to deliver your message.")
    path = tmp_path / "bounce.eml"
    path.write_bytes(msg.as_bytes())
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2009-03-30T08:18:21+00:00"


def test_a_zip_entry_with_an_extended_timestamp_is_dated_by_it_in_utc(tmp_path: Path) -> None:
    path = _zip(
        tmp_path,
        {
            "ut.txt": _ut_field(EXACT),
            "ntfs.txt": _ntfs_field(datetime(2024, 12, 14, 11, 27, 29, tzinfo=UTC)),
        },
    )
    assert _times(path) == {
        "ut.txt": "2024-12-14T11:27:29+00:00",
        "ntfs.txt": "2024-12-14T11:27:29+00:00",
    }


def test_the_dos_time_is_kept_naive_only_without_a_usable_extra_field(tmp_path: Path) -> None:
    path = _zip(
        tmp_path,
        {
            "plain.txt": b"",
            "zero.txt": _ut_field(0),  # a UT field with no real time says nothing
            "atime.txt": struct.pack("<HHB", 0x5455, 5, 0b010) + struct.pack("<i", EXACT),
        },
    )
    assert set(_times(path).values()) == {"2024-12-14T06:27:28"}


def test_a_truncated_extra_field_is_not_read() -> None:
    assert extra_field_time(_ut_field(EXACT)[:6]) is None
    assert extra_field_time(_ut_field(EXACT)) == datetime.fromtimestamp(EXACT, UTC)


def test_the_markitdown_zip_members_take_their_ut_time(corpus: Path) -> None:
    # every entry carries UT 2024-12-14T11:27:29Z beside the DOS 06:27:28 (unzip -l shows
    # it); the time a member gets from the archive, which its items fall back on
    zipped = Blob(path=str(corpus / "markitdown" / "test_files.zip"))
    times = {m.member: m.chat_time for m in iter_members(zipped, ReadOptions())}
    assert len(times) == 7  # test.docx ... test_wikipedia.html
    assert set(times.values()) == {"2024-12-14T11:27:29+00:00"}


def test_a_qmail_bounce_in_the_realworld_mailbox_is_dated_in_utc(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "mbox-0")
    bounce = [i for i in items if i.metadata.sources[0].member == "message/7.eml"]
    assert {i.metadata.timestamp for i in bounce} == {"2009-03-30T08:18:21+00:00"}
