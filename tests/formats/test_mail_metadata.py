"""E-mail metadata the real world writes: ISO 8601 dates with a ``Z``, Bcc recipients in a
sender's copy, and S/MIME ciphertext a mailer labelled ``application/octet-stream``."""

from __future__ import annotations

import email
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.mail.headers import mail_headers


def _eml(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_an_iso_8601_date_with_z_is_the_message_time(tmp_path: Path) -> None:
    path = _eml(
        tmp_path,
        "export.eml",
        b"From: Ann Lee <ann@example.org>\r\nTo: bo@example.org"
        b"\r\nSubject: Ferry\r\nDate: 2024-03-01T10:15:00Z\r\n\r\nBooked the ferry.\r\n",
    )
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2024-03-01T10:15:00+00:00"
    assert item.metadata.time_source is None


def test_an_iso_date_with_an_offset_and_a_bad_date_are_told_apart() -> None:
    ok = mail_headers(email.message_from_string("Date: 2024-03-01 10:15:00+02:00\n\nx"))
    bad = mail_headers(email.message_from_string("Date: sometime last week\n\nx"))
    assert ok.date == "2024-03-01T10:15:00+02:00"
    assert bad.date is None and bad.date_text == "sometime last week"


def test_bcc_recipients_are_persons(tmp_path: Path) -> None:
    path = _eml(
        tmp_path,
        "sent.eml",
        b"From: Ann Lee <ann@example.org>\r\nTo: bo@example.org"
        b"\r\nBcc: Carl Dee <carl@example.org>, dana@example.org\r\nSubject: Plan\r\n"
        b"Date: Tue, 06 May 2025 10:30:00 +0200\r\n\r\nSee you there.\r\n",
    )
    [item] = Reader().read(path)
    for person in ("Ann Lee", "bo@example.org", "Carl Dee", "carl@example.org", "dana@example.org"):
        assert person in item.metadata.persons


def test_reply_to_is_a_field_and_its_people_are_persons(tmp_path: Path) -> None:
    # A list's or an assistant's address replies go to: kept as written, searchable by name.
    path = _eml(
        tmp_path,
        "list.eml",
        b"From: Ann Lee <ann@example.org>\r\nTo: team@example.org\r\n"
        b"Reply-To: Front Desk <desk@example.org>\r\nSubject: Rota\r\n"
        b"Date: Tue, 06 May 2025 10:30:00 +0200\r\n\r\nThe rota is up.\r\n",
    )
    [item] = Reader().read(path)
    assert item.metadata.extra["reply_to"] == "Front Desk <desk@example.org>"
    assert "Front Desk" in item.metadata.persons and "desk@example.org" in item.metadata.persons
    assert item.metadata.extra["sender"] == "Ann Lee <ann@example.org>"  # From stays From


def test_a_message_without_reply_to_has_no_such_field(tmp_path: Path) -> None:
    path = _eml(tmp_path, "plain.eml", b"From: a@example.org\r\nSubject: Hi\r\n\r\nHello.\r\n")
    [item] = Reader().read(path)
    assert "reply_to" not in item.metadata.extra


def test_smime_ciphertext_labelled_octet_stream_is_encrypted_and_not_stored(
    tmp_path: Path,
) -> None:
    cipher = b"MIAGCSqGSIb3DQEHA6CAMIACAQAxggFXMIIBUwIBADA7MDYxCzAJBgNVBAYTAlVT"
    data = (
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: secret\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n"
        b"--B\r\nContent-Type: application/octet-stream; name=smime.p7m\r\n"
        b"Content-Disposition: attachment; filename=smime.p7m\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + cipher + b"\r\n--B--\r\n"
    )
    result = Reader().read_report(_eml(tmp_path, "locked.eml", data))
    assert result.items == []
    assert [f.error for f in result.failures] == ["encrypted"]
    assert "not stored" in result.failures[0].message


def _with_message_class(msg: bytes, message_class: str) -> bytes:
    """An Outlook message with its class (PR_MESSAGE_CLASS) rewritten, and the size the
    property stream records for it, rebuilt as a compound file."""
    import struct

    from doc2docx.cfb.container import CompoundFile
    from doc2docx.cfb.writer import write_compound_storage

    cf = CompoundFile(msg)
    value = message_class.encode("utf-16-le")
    streams = []
    for entry in cf.entries:
        if entry.path == "":
            continue
        data = cf.open_stream(entry.path) if entry.object_type.name == "STREAM" else None
        if entry.path == "__substg1.0_001A001F":
            data = value
        elif entry.path == "__properties_version1.0" and data is not None:
            table = bytearray(data)
            for offset in range(32, len(table) - 15, 16):  # 32-byte header, 16 a property
                if struct.unpack_from("<I", table, offset)[0] == 0x001A001F:
                    struct.pack_into("<I", table, offset + 8, len(value) + 2)
            data = bytes(table)
        streams.append((entry.path, entry, data))
    return write_compound_storage(cf.get_entry(""), tuple(streams))


def test_an_smime_outlook_message_is_encrypted_and_nothing_is_stored(tmp_path: Path) -> None:
    source = (
        Path(__file__).resolve().parents[2].parent
        / "shared/corpus/realworld"
        / "HTML mail with replyto and attachment and embedded image.msg"
    )
    if not source.is_file():
        pytest.skip("the shared real-world corpus is absent")
    path = tmp_path / "locked.msg"
    path.write_bytes(_with_message_class(source.read_bytes(), "IPM.Note.SMIME"))
    result = Reader().read_report(path)
    assert result.items == []  # neither the body nor the attachments
    assert [f.error for f in result.failures] == ["encrypted"]
