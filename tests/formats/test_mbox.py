"""Mailboxes: each message is its own input, read from the file one at a time."""

from __future__ import annotations

import tracemalloc
from itertools import islice
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.archives.containers import read_member
from omnireader.formats.mail.mbox import iter_messages
from omnireader.intake.router import iter_route
from omnireader.options import ReadOptions
from omnireader.payloads import Blob


def write_mbox(path: Path, n: int) -> Path:
    with path.open("wb") as f:
        for i in range(1, n + 1):
            f.write(b"From sender%d@example.org Mon Jun 01 04:28:28 2009\n" % i)
            f.write(b"From: Sender %d <sender%d@example.org>\nTo: list@example.org\n" % (i, i))
            f.write(b"Subject: Message number %d\nMessage-ID: <m%d@example.org>\n" % (i, i))
            if i > 1:
                f.write(b"In-Reply-To: <m1@example.org>\n")
            f.write(b"Date: Mon, 01 Jun 2009 04:28:28 +0000\n\n")
            for j in range(8):
                f.write(b"Line %d of message %d: the orchard needs %d plum trees.\n" % (j, i, i))
            f.write(b">From the kitchen: a quoted line that starts with From.\n")
            f.write(b"From the cellar: a line that starts with From after text.\n\n")
    return path


@pytest.fixture(scope="module")
def big_mbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mbox(tmp_path_factory.mktemp("mbox") / "archive.mbox", 10_000)


def test_ten_thousand_messages_stream_through_flat_memory(big_mbox: Path) -> None:
    size = big_mbox.stat().st_size
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_messages(Blob(path=str(big_mbox))))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 10_000
    # One message at a time: the peak is a message's worth, not the 7 MB file.
    assert peak < 256 * 1024 < size // 20


def test_the_router_hands_out_messages_as_it_reads_them(big_mbox: Path) -> None:
    tracemalloc.start()
    try:
        first = list(islice(iter_route(big_mbox), 3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [t.payload.member for t in first] == ["message/1.eml", "message/2.eml", "message/3.eml"]
    # The 1 MiB head read to tell what the file is, and three messages: never the file.
    assert peak < 3 * 1024 * 1024 < big_mbox.stat().st_size // 2


def test_every_message_is_read_with_its_headers_and_thread(tmp_path: Path) -> None:
    path = write_mbox(tmp_path / "list.mbox", 150)
    result = Reader().read_report(path)
    assert not result.failures
    assert len(result.items) == 150
    by_member = {i.source.member: i for i in result.items}
    seventh = by_member["message/7.eml"]
    assert seventh.metadata.key == "Message number 7"
    assert seventh.metadata.extra["thread"] == "<m1@example.org>"
    assert "From the kitchen" in seventh.memory  # ">From " quoting undone
    assert "From the cellar" in seventh.memory  # not a new message: no blank line before
    assert {i.metadata.extra["thread"] for i in result.items} == {"<m1@example.org>"}
    assert read_member(Blob(path=str(path), member="message/7.eml"), ReadOptions()).startswith(
        b"From: Sender 7"
    )


def test_a_single_message_with_a_from_line_and_an_empty_mailbox(tmp_path: Path) -> None:
    one = tmp_path / "one"
    one.write_bytes(
        b"From a@example.org Mon Jun 01 04:28:28 2009\nFrom: a@example.org\n"
        b"Subject: Only\n\nOnly message.\n"
    )
    [item] = Reader().read(one)
    assert item.metadata.key == "Only" and item.source.member == "message/1.eml"
    empty = tmp_path / "empty.mbox"
    empty.write_bytes(b"\n\n")
    [failure] = Reader().read_report(empty).failures
    assert failure.error == "empty"


def test_text_around_the_messages_and_folder_data_are_not_messages(tmp_path: Path) -> None:
    from omnireader import Reader

    box = tmp_path / "archive.mbox"
    box.write_bytes(
        b"From MAILER-DAEMON Fri Jul  8 12:08:34 2011\n"
        b"Date: 08 Jul 2011 12:08:34 +0000\nFrom: Mail System Internal Data "
        b"<MAILER-DAEMON@example.org>\nSubject: DON'T DELETE THIS MESSAGE -- FOLDER INTERNAL "
        b"DATA\nX-IMAP: 1310126914 0000000002\n\nThis text is part of the internal format of "
        b"your mail folder, and is not a real message.\n\n"
        b"From ann@example.org Mon Jan  2 10:00:00 2023\n"
        b"From: ann@example.org\nTo: bo@example.org\nSubject: Ferry\n"
        b"Date: Mon, 02 Jan 2023 10:00:00 +0000\n\nBooked the ferry for Friday.\n\n"
        b"From bo@example.org Mon Jan  2 11:00:00 2023\n"
        b"From: bo@example.org\nTo: ann@example.org\nSubject: Re: Ferry\n"
        b"Date: Mon, 02 Jan 2023 11:00:00 +0000\n\nThanks, see you there.\n\n"
        b"From exporter Tue Jan  3 00:00:00 2023\n"
        b"=== end of export: 2 messages, 1.2 KB, checksum 5f2a9c ===\n"
    )
    result = Reader().read_report(box)
    texts = "\n".join(i.memory for i in result.items)
    assert "Booked the ferry" in texts and "see you there" in texts
    assert "FOLDER INTERNAL DATA" not in texts and "end of export" not in texts
    # what was left out is counted, by the place it had in the mailbox
    skipped = sorted(f.input.rsplit("!", 1)[-1] for f in result.failures)
    assert skipped == ["message/1.eml", "message/4.eml"]
    assert {f.error for f in result.failures} == {"empty"}
