"""A member is dated by its container: an e-mail attachment by the message's ``Date``, a ZIP
or TAR member by the time its entry stores -- unless it carries a date of its own. Never by
the container file's modification time (which is when it was downloaded or copied)."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from email.message import EmailMessage
from pathlib import Path

from omnireader import Reader

OLD = 946684800  # 2000-01-01: the container's mtime, which no member may take


def _aged(path: Path) -> Path:
    os.utime(path, (OLD, OLD))
    return path


def _by_member(items: list) -> dict[str, list]:
    out: dict[str, list] = {}
    for item in items:
        out.setdefault(item.metadata.sources[0].member or "", []).append(item)
    return out


def test_an_attachment_inherits_the_message_date(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "bo@example.org", "Figures"
    msg["Date"] = "Fri, 23 Dec 2022 09:30:00 +0100"
    msg.set_content("The figures are attached.")
    msg.add_attachment(b"region,total\nNorth,12\nSouth,9\n", "text", "csv", filename="q4.csv")
    msg.add_attachment(b"# Notes\n\nShip on Monday.\n", "text", "markdown", filename="notes.md")
    path = tmp_path / "figures.eml"
    path.write_bytes(msg.as_bytes())
    members = _by_member(Reader().read(_aged(path)))
    assert set(members) == {"", "attachment/q4.csv", "attachment/notes.md"}
    for items in members.values():
        for item in items:
            assert item.metadata.timestamp == "2022-12-23T09:30:00+01:00"
            assert item.metadata.time_source is None


def test_zip_members_take_their_entry_time_and_a_dated_member_keeps_its_own(
    tmp_path: Path,
) -> None:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "ann@example.org", "Old news"
    inner["Date"] = "Mon, 02 Mar 2015 08:00:00 +0000"
    inner.set_content("Filed in 2015.")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("plan.md", (2021, 6, 5, 14, 20, 0)), "# Plan\n\nHire two.\n")
        zf.writestr(zipfile.ZipInfo("old.eml", (2023, 1, 1, 0, 0, 0)), inner.as_bytes())
        # 1980-01-01 00:00 is a ZIP's "no date": that member falls back to the file's time
        zf.writestr(zipfile.ZipInfo("undated.txt", (1980, 1, 1, 0, 0, 0)), "Just text here.")
    path = tmp_path / "bundle.zip"
    path.write_bytes(buf.getvalue())
    members = _by_member(Reader().read(_aged(path)))
    assert {i.metadata.timestamp for i in members["plan.md"]} == {"2021-06-05T14:20:00"}
    assert {i.metadata.timestamp for i in members["old.eml"]} == {"2015-03-02T08:00:00+00:00"}
    [undated] = members["undated.txt"]
    assert undated.metadata.time_source == "mtime"
    assert undated.metadata.timestamp == "2000-01-01T00:00:00+00:00"


def test_tar_members_take_their_entry_time(tmp_path: Path) -> None:
    path = tmp_path / "logs.tar.gz"
    with tarfile.open(path, "w:gz") as tf:
        data = b"Deploy finished without errors."
        info = tarfile.TarInfo("run/deploy.txt")
        info.size, info.mtime = len(data), 1_700_000_000  # 2023-11-14T22:13:20Z
        tf.addfile(info, io.BytesIO(data))
    [item] = Reader().read(_aged(path))
    assert item.metadata.timestamp == "2023-11-14T22:13:20+00:00"
    assert item.metadata.time_source is None


def test_an_attachment_reread_from_its_source_keeps_the_message_date(tmp_path: Path) -> None:
    from omnireader.parsers.base import get_parser

    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ann@example.org", "Memo"
    msg["Date"] = "Fri, 23 Dec 2022 09:30:00 +0000"
    msg.set_content("See attached.")
    msg.add_attachment(b"Budget approved.", "text", "plain", filename="memo.txt")
    path = tmp_path / "memo.eml"
    path.write_bytes(msg.as_bytes())
    [item] = [i for i in Reader().read(_aged(path)) if i.metadata.sources[0].member]
    parser = get_parser("file")
    blob = parser.rebuild_from_source(item.metadata.sources[0])
    assert blob.chat_time == "2022-12-23T09:30:00+00:00"
