"""E-mail metadata the real world writes: ISO 8601 dates with a ``Z``, Bcc recipients in a
sender's copy, and S/MIME ciphertext a mailer labelled ``application/octet-stream``."""

from __future__ import annotations

import email
from pathlib import Path

from omnireader import Reader
from omnireader.formats.mail.headers import mail_headers


def _eml(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_an_iso_8601_date_with_z_is_the_message_time(tmp_path: Path) -> None:
    path = _eml(tmp_path, "export.eml", b"From: Ann Lee <ann@example.org>\r\nTo: bo@example.org"
                b"\r\nSubject: Ferry\r\nDate: 2024-03-01T10:15:00Z\r\n\r\nBooked the ferry.\r\n")
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2024-03-01T10:15:00+00:00"
    assert item.metadata.time_source is None


def test_an_iso_date_with_an_offset_and_a_bad_date_are_told_apart() -> None:
    ok = mail_headers(email.message_from_string("Date: 2024-03-01 10:15:00+02:00\n\nx"))
    bad = mail_headers(email.message_from_string("Date: sometime last week\n\nx"))
    assert ok.date == "2024-03-01T10:15:00+02:00"
    assert bad.date is None and bad.date_text == "sometime last week"


def test_bcc_recipients_are_persons(tmp_path: Path) -> None:
    path = _eml(tmp_path, "sent.eml", b"From: Ann Lee <ann@example.org>\r\nTo: bo@example.org"
                b"\r\nBcc: Carl Dee <carl@example.org>, dana@example.org\r\nSubject: Plan\r\n"
                b"Date: Tue, 06 May 2025 10:30:00 +0200\r\n\r\nSee you there.\r\n")
    [item] = Reader().read(path)
    for person in ("Ann Lee", "bo@example.org", "Carl Dee", "carl@example.org",
                   "dana@example.org"):
        assert person in item.metadata.persons


def test_smime_ciphertext_labelled_octet_stream_is_encrypted_and_not_stored(
    tmp_path: Path,
) -> None:
    cipher = b"MIAGCSqGSIb3DQEHA6CAMIACAQAxggFXMIIBUwIBADA7MDYxCzAJBgNVBAYTAlVT"
    data = (b"From: a@example.org\r\nTo: b@example.org\r\nSubject: secret\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n"
            b"--B\r\nContent-Type: application/octet-stream; name=smime.p7m\r\n"
            b"Content-Disposition: attachment; filename=smime.p7m\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + cipher + b"\r\n--B--\r\n")
    result = Reader().read_report(_eml(tmp_path, "locked.eml", data))
    assert result.items == []
    assert [f.error for f in result.failures] == ["encrypted"]
    assert "not stored" in result.failures[0].message
