"""The items of an e-mail attachment say which message they came in: its subject and
Message-ID in their extra (``parent_subject``, ``parent_message_id``), and the
attachment's own file name as their key (the ``attachment/`` member path is provenance).

Messages are built with the standard library's ``email`` package; the Outlook message is
a file of the real-world corpus.
"""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from PIL import Image

from omnireader import Reader
from omnireader.models import MemoryItem


def message(subject: str, body: str, message_id: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = subject
    msg["From"] = "Ann Lee <ann@example.org>"
    msg["To"] = "bo@example.org"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg


def by_member(path: Path) -> dict[str | None, MemoryItem]:
    return {i.source.member: i for i in Reader().read(path)}


def test_an_attachment_is_keyed_by_its_file_name_and_names_its_message(tmp_path: Path) -> None:
    msg = message("Trip plans", "Notes attached.", "<trip-1@example.org>")
    msg.add_attachment(b"Train at 9:40.\n", maintype="text", subtype="plain", filename="notes.txt")
    path = tmp_path / "trip.eml"
    path.write_bytes(msg.as_bytes())
    items = by_member(path)
    notes = items["attachment/notes.txt"]
    assert notes.metadata.key == "notes.txt"  # was "attachment/notes.txt"
    assert notes.metadata.extra["parent_subject"] == "Trip plans"
    assert notes.metadata.extra["parent_message_id"] == "<trip-1@example.org>"
    own = items[None]  # the message itself has its own ids, no parent
    assert own.metadata.extra["message_id"] == "<trip-1@example.org>"
    assert "parent_subject" not in own.metadata.extra


def test_an_attached_image_is_named_by_its_file_name_and_names_its_message(tmp_path: Path) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), "red").save(buf, "PNG")
    msg = message("The badge", "Here it is.", "<badge@example.org>")
    msg.add_attachment(buf.getvalue(), maintype="image", subtype="png", filename="badge.png")
    path = tmp_path / "badge.eml"
    path.write_bytes(msg.as_bytes())
    badge = by_member(path)["attachment/badge.png"]
    assert badge.memory == "Image badge.png (PNG, 32×32)."  # was "Image attachment/badge.png ..."
    assert badge.metadata.key == "badge.png"
    assert badge.metadata.extra["parent_subject"] == "The badge"
    assert badge.metadata.extra["parent_message_id"] == "<badge@example.org>"


def test_the_files_of_an_attached_zip_name_the_message_the_zip_came_in(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("q3/summary.txt", "Margins held in the third quarter.\n")
    msg = message("Q3 pack", "Zipped.", "<q3@example.org>")
    msg.add_attachment(buf.getvalue(), maintype="application", subtype="zip", filename="q3.zip")
    path = tmp_path / "q3.eml"
    path.write_bytes(msg.as_bytes())
    summary = by_member(path)["attachment/q3.zip!q3/summary.txt"]
    assert summary.metadata.key == "q3.zip!q3/summary.txt"
    assert summary.metadata.extra["parent_subject"] == "Q3 pack"


def test_an_attached_messages_attachment_names_the_message_it_was_attached_to(
    tmp_path: Path,
) -> None:
    inner = message("Minutes", "See the minutes.", "<minutes@example.org>")
    inner.add_attachment(
        b"Agreed: ship in May.\n", maintype="text", subtype="plain", filename="minutes.txt"
    )
    outer = message("Fwd: Minutes", "Forwarding.", "<fwd@example.org>")
    outer.add_attachment(inner)
    path = tmp_path / "fwd.eml"
    path.write_bytes(outer.as_bytes())
    items = by_member(path)
    forwarded = items["attachment/Minutes.eml"]
    assert forwarded.metadata.key == "Minutes"  # its own subject
    assert forwarded.metadata.extra["parent_message_id"] == "<fwd@example.org>"
    minutes = items["attachment/Minutes.eml!attachment/minutes.txt"]
    assert minutes.metadata.key == "minutes.txt"
    assert minutes.metadata.extra["parent_subject"] == "Minutes"
    assert minutes.metadata.extra["parent_message_id"] == "<minutes@example.org>"


def test_the_corpus_outlook_attachments_name_their_message(corpus: Path) -> None:
    path = corpus / "realworld" / "HTML mail with replyto and attachment and embedded image.msg"
    items = by_member(path)
    for member, key in (
        ("attachment/dresscode.txt", "dresscode.txt"),
        ("attachment/location.txt", "location.txt"),
        ("attachment/thumbsup", "thumbsup"),
    ):
        item = items[member]
        assert item.metadata.key == key
        assert item.metadata.extra["parent_subject"] == "hey"
        assert item.metadata.extra["parent_message_id"] == "<1514160588.6.1488712291622@Moonbeast>"


def test_an_attachment_named_in_raw_latin1_bytes_is_read_with_its_message(tmp_path: Path) -> None:
    """A mailer that writes the file name unencoded, in Latin-1 (RFC 2231 says to encode
    it): the parser gives that header as a ``Header`` object, which has no ``split``; the
    whole message failed (internal). The name is decoded like any raw 8-bit header."""
    raw = (
        b"From: ann@example.org\r\nTo: bo@example.org\r\nSubject: Terns\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
        b"--XX\r\nContent-Type: text/plain\r\n\r\nTerns arrive in April.\r\n"
        b'--XX\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="r'
        b'\xe9sum\xe9.txt"\r\n\r\nSkua counts are up.\r\n--XX--\r\n'
    )
    path = tmp_path / "terns.eml"
    path.write_bytes(raw)
    result = Reader().read_report(path)
    assert result.failures == []
    items = {i.source.member: i for i in result.items}
    assert "Terns arrive in April." in items[None].memory
    attached = items["attachment/résumé.txt"]
    assert attached.memory == "Skua counts are up." and attached.metadata.key == "résumé.txt"
