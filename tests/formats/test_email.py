"""E-mail: headers become metadata, bodies are decoded in any charset, attachments are read
as the files they are (named ``mail.eml!attachment/<name>``), ciphertext is never text,
and hostile messages (bombs, climbing or injected file names) are refused or defused."""

from __future__ import annotations

import base64
import io
import time
import zipfile
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import EncryptedError, TooLargeError
from omnireader.formats.archives.containers import read_member
from omnireader.formats.mail.message import parse_message
from omnireader.options import ReadOptions
from omnireader.parsers.base import get_parser
from omnireader.payloads import Blob
from samples.make_samples import write_text_pdf


def message(subject: str = "Plans", body: str = "See you in May.", **headers: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = subject
    msg["From"] = headers.pop("sender", "Ann Lee <ann@example.org>")
    msg["To"] = headers.pop("to", "Bo Chen <bo@example.org>")
    msg["Date"] = headers.pop("date", "Tue, 06 May 2025 10:30:00 +0200")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def pdf_bytes(tmp_path: Path, text: str) -> bytes:
    path = tmp_path / "report.pdf"
    write_text_pdf(path, [[text]])
    return path.read_bytes()


def read(path: Path, **options):
    return Reader(**options).read_report(path)


# ------------------------------------------------------------------ headers and body


def test_headers_become_the_key_persons_time_and_thread(tmp_path: Path) -> None:
    msg = message(
        "=?utf-8?q?Caf=C3=A9_plans?=",
        Cc="Dee <dee@example.org>",
        Message_ID="<m2@example.org>",
        In_Reply_To="<m1@example.org>",
        References="<m0@example.org> <m1@example.org>",
    )
    path = tmp_path / "reply.eml"
    path.write_bytes(msg.as_bytes())
    [item] = read(path).items
    meta = item.metadata
    assert meta.key == "Café plans"
    assert meta.timestamp == "2025-05-06T10:30:00+02:00"
    assert {"Ann Lee", "ann@example.org", "Bo Chen", "bo@example.org", "Dee"} <= set(meta.persons)
    assert meta.extra["in_reply_to"] == "<m1@example.org>"
    assert meta.extra["references"] == ["<m0@example.org>", "<m1@example.org>"]
    assert meta.extra["thread"] == "<m0@example.org>"
    assert item.memory.startswith("Subject: Café plans\nFrom: Ann Lee <ann@example.org>")
    assert "See you in May." in item.memory


def test_a_folder_of_one_thread_shares_its_thread_id(tmp_path: Path) -> None:
    first = message("Trip", Message_ID="<t1@example.org>")
    second = message("Re: Trip", Message_ID="<t2@example.org>", In_Reply_To="<t1@example.org>")
    third = message(
        "Re: Re: Trip",
        Message_ID="<t3@example.org>",
        In_Reply_To="<t2@example.org>",
        References="<t1@example.org> <t2@example.org>",
    )
    for n, msg in enumerate((first, second, third)):
        (tmp_path / f"{n}.eml").write_bytes(msg.as_bytes())
    items = Reader().read(tmp_path)
    assert {i.metadata.extra["thread"] for i in items} == {"<t1@example.org>"}


CHARSETS = [
    ("utf-8", "base64", "Grüße aus Köln, 東京で会いましょう"),
    ("iso-8859-1", "quoted-printable", "¡Hola! Está bien, señor."),
    ("windows-1255", "base64", "שלום, נתראה ביום שלישי"),
    ("koi8-r", "8bit", "Встреча во вторник в десять"),
    ("iso-2022-jp", "7bit", "会議は火曜日の十時です"),
    ("shift_jis", "base64", "会議は火曜日です"),
    ("gb2312", "base64", "我们星期二见面"),
    ("big5", "quoted-printable", "我們星期二見面"),
    ("euc-kr", "base64", "화요일에 만나요"),
    ("windows-1251", "quoted-printable", "До встречи во вторник"),
    ("iso-8859-7", "base64", "Τα λέμε την Τρίτη"),
]


def raw_message(charset: str, encoding: str, text: str, declared: str | None = None) -> bytes:
    payload = text.encode(charset)
    if encoding == "base64":
        payload = base64.encodebytes(payload)
    elif encoding == "quoted-printable":
        import quopri

        payload = quopri.encodestring(payload)
    head = (
        f"From: a@example.org\r\nTo: b@example.org\r\nSubject: charset {charset}\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset={declared or charset}\r\n"
        f"Content-Transfer-Encoding: {encoding}\r\n\r\n"
    ).encode()
    return head + payload


@pytest.mark.parametrize("charset, encoding, text", CHARSETS)
def test_a_body_is_decoded_in_its_charset(
    tmp_path: Path, charset: str, encoding: str, text: str
) -> None:
    path = tmp_path / "mail.eml"
    path.write_bytes(raw_message(charset, encoding, text))
    [item] = read(path).items
    assert text in item.memory
    assert "Content-Transfer-Encoding" not in item.memory


def test_a_mislabelled_charset_falls_back_to_what_the_bytes_are(tmp_path: Path) -> None:
    path = tmp_path / "mislabelled.eml"
    path.write_bytes(raw_message("utf-8", "8bit", "Überweisung für März", declared="iso-2022-jp"))
    [item] = read(path).items
    assert "Überweisung für März" in item.memory


def test_raw_8bit_and_encoded_headers_are_decoded(tmp_path: Path) -> None:
    data = (
        b"Subject: =?koi8-r?B?9SDXwdMg09fBxNjCwT8=?=\r\nFrom: "
        + "Пётр <petr@example.ru>".encode("koi8-r")
        + b"\r\n\r\nbody\r\n"
    )
    path = tmp_path / "koi8"
    path.write_bytes(data)
    [item] = read(path).items
    assert item.metadata.key == "У вас свадьба?"
    assert "Пётр" in item.metadata.persons


def test_alternative_parts_are_read_once_and_html_only_bodies_as_html(tmp_path: Path) -> None:
    msg = message(body="Plain: meet at noon.")
    msg.add_alternative("<html><body><p>HTML: meet at noon.</p></body></html>", subtype="html")
    (tmp_path / "alt.eml").write_bytes(msg.as_bytes())
    html_only = message()
    html_only.set_content(
        "<html><body><h1>Agenda</h1><table><tr><td>Budget</td><td>42</td>"
        "</tr></table></body></html>",
        subtype="html",
    )
    (tmp_path / "html.eml").write_bytes(html_only.as_bytes())
    [alt] = read(tmp_path / "alt.eml").items
    assert "Plain: meet at noon." in alt.memory and "HTML:" not in alt.memory
    [html] = read(tmp_path / "html.eml").items
    assert "# Agenda" in html.memory and "| Budget | 42 |" in html.memory
    assert "<td>" not in html.memory


# ------------------------------------------------------------------ attachments


def test_attachments_are_read_as_the_files_they_are_and_named(tmp_path: Path) -> None:
    msg = message(body="The report is attached.")
    msg.add_attachment(
        pdf_bytes(tmp_path, "Revenue rose 12 percent."),
        maintype="application",
        subtype="pdf",
        filename="report.pdf",
    )
    msg.add_attachment(b"a,b\n1,2\n", maintype="text", subtype="csv", filename="t.csv")
    path = tmp_path / "mail.eml"
    path.write_bytes(msg.as_bytes())
    result = read(path)
    by_member = {i.source.member: i for i in result.items}
    assert set(by_member) == {None, "attachment/report.pdf", "attachment/t.csv"}
    pdf = by_member["attachment/report.pdf"]
    assert "Revenue rose 12 percent." in pdf.memory and pdf.source.page == 1
    assert pdf.source.path == str(path)
    assert all("base64" not in i.memory.lower() for i in result.items)
    # Provenance leads back to the bytes: the member is found again inside the message.
    source = get_parser("file").rebuild_from_source(pdf.source)
    assert read_member(source, ReadOptions()).startswith(b"%PDF-")


def test_nested_attachments_three_deep_are_all_read(tmp_path: Path) -> None:
    inner = message("Level 3", "Third level body.")
    inner.add_attachment(
        b"Deepest note about figs.\n", maintype="text", subtype="plain", filename="deep.txt"
    )
    middle = message("Level 2", "Second level body.")
    middle.add_attachment(inner)
    outer = message("Level 1", "First level body.")
    outer.add_attachment(middle)
    path = tmp_path / "outer.eml"
    path.write_bytes(outer.as_bytes())
    result = read(path)
    assert not result.failures
    members = {i.source.member for i in result.items}
    assert members == {
        None,
        "attachment/Level 2.eml",
        "attachment/Level 2.eml!attachment/Level 3.eml",
        "attachment/Level 2.eml!attachment/Level 3.eml!attachment/deep.txt",
    }
    deep = next(i for i in result.items if (i.source.member or "").endswith("deep.txt"))
    assert "Deepest note about figs." in deep.memory


def test_an_attached_zip_holding_a_pdf_is_opened(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("q3/report.pdf", pdf_bytes(tmp_path, "Quarter three margins held."))
    msg = message(body="Zipped report.")
    msg.add_attachment(buf.getvalue(), maintype="application", subtype="zip", filename="docs.zip")
    path = tmp_path / "zipped.eml"
    path.write_bytes(msg.as_bytes())
    items = read(path).items
    pdf = next(i for i in items if i.source.member == "attachment/docs.zip!q3/report.pdf")
    assert "Quarter three margins held." in pdf.memory
    source = get_parser("file").rebuild_from_source(pdf.source)
    assert read_member(source, ReadOptions()).startswith(b"%PDF-")


def test_a_bad_attachment_is_reported_and_the_good_one_read(tmp_path: Path) -> None:
    msg = message(body="Two files.")
    msg.add_attachment(
        b"%PDF-1.7\n1 0 obj <<", maintype="application", subtype="pdf", filename="broken.pdf"
    )
    msg.add_attachment(
        b"The good file talks about quinces.\n",
        maintype="text",
        subtype="plain",
        filename="good.txt",
    )
    path = tmp_path / "mixed.eml"
    path.write_bytes(msg.as_bytes())
    result = read(path)
    assert {i.source.member for i in result.items} == {None, "attachment/good.txt"}
    [failure] = result.failures
    assert failure.error == "corrupt"
    assert failure.input == f"{path}!attachment/broken.pdf"


def test_attachments_deeper_than_the_container_limit_are_too_large(tmp_path: Path) -> None:
    msg = message("L0")
    for level in range(1, 5):
        outer = message(f"L{level}")
        outer.add_attachment(msg)
        msg = outer
    path = tmp_path / "deep.eml"
    path.write_bytes(msg.as_bytes())
    result = read(path, max_archive_depth=2)
    assert [f.error for f in result.failures] == ["too_large"]
    assert "nested 3 levels deep" in result.failures[0].message
    assert len(result.items) == 3  # L4, L3 and L2 themselves


def test_a_climbing_attachment_name_is_cut_to_its_last_part_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    msg = message(body="Look.")
    msg.add_attachment(
        b"Harmless note about plums.\n",
        maintype="text",
        subtype="plain",
        filename="../../../etc/omnireader-test-escape.txt",
    )
    path = tmp_path / "climb.eml"
    path.write_bytes(msg.as_bytes())
    items = read(path).items
    assert {i.source.member for i in items} == {None, "attachment/omnireader-test-escape.txt"}
    assert not Path("/etc/omnireader-test-escape.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["climb.eml"]


def test_a_header_injected_through_a_file_name_stays_inside_the_name(tmp_path: Path) -> None:
    data = (
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: inject\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n"
        b"--B\r\nContent-Type: text/plain\r\n\r\nBody.\r\n"
        b"--B\r\nContent-Type: text/plain\r\nContent-Disposition: attachment;"
        b" filename*=utf-8''x.txt%0D%0ABcc%3A%20evil%40attacker.example\r\n\r\n"
        b"Attached text.\r\n--B--\r\n"
    )
    path = tmp_path / "inject.eml"
    path.write_bytes(data)
    items = read(path).items
    member = next(i.source.member for i in items if i.source.member)
    assert member == "attachment/x.txt Bcc: evil@attacker.example"
    assert all("evil@attacker.example" not in i.metadata.persons for i in items)
    assert all("\n" not in (i.source.member or "") for i in items)


# ------------------------------------------------------------------ ciphertext and bombs


def test_pgp_and_smime_ciphertext_is_encrypted_never_text(tmp_path: Path) -> None:
    armored = (
        "-----BEGIN PGP MESSAGE-----\n\nhQEMA5F2Q8lbn0xLAQf/YWJjZGVm\n=abcd\n"
        "-----END PGP MESSAGE-----\n"
    )
    (tmp_path / "inline.eml").write_bytes(message(body=armored).as_bytes())
    pgp = (
        b"From: a@example.org\r\nSubject: secret\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; '
        b"boundary=E\r\n\r\n--E\r\nContent-Type: application/pgp-encrypted\r\n\r\n"
        b"Version: 1\r\n--E\r\nContent-Type: application/octet-stream\r\n\r\n"
        + armored.encode()
        + b"--E--\r\n"
    )
    (tmp_path / "mime.eml").write_bytes(pgp)
    smime = (
        b"From: a@example.org\r\nSubject: secret\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: application/pkcs7-mime; smime-type=enveloped-data; "
        b"name=smime.p7m\r\nContent-Transfer-Encoding: base64\r\n\r\nMIAGCSqGSIb3DQEHA6CA\r\n"
    )
    (tmp_path / "smime.eml").write_bytes(smime)
    for name in ("inline.eml", "mime.eml", "smime.eml"):
        result = read(tmp_path / name)
        assert not any("hQEMA5F2" in i.memory or "MIAGCSqG" in i.memory for i in result.items)
        assert "encrypted" in {f.error for f in result.failures}, name


def test_ciphertext_attached_beside_readable_text_is_reported_and_the_text_read(
    tmp_path: Path,
) -> None:
    msg = message(body="The key is attached, encrypted.")
    msg.add_attachment(
        b"MIAGCSqGSIb3DQEHA6CA",
        maintype="application",
        subtype="pkcs7-mime",
        filename="secret.p7m",
        params={"smime-type": "enveloped-data"},
    )
    path = tmp_path / "mixed.eml"
    path.write_bytes(msg.as_bytes())
    result = read(path)
    [item] = result.items
    assert "The key is attached" in item.memory
    [failure] = result.failures
    assert failure.error == "encrypted" and failure.input.endswith("!attachment/secret.p7m")


def nested_multiparts(depth: int) -> bytes:
    out = [b"From: a@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"]
    for i in range(depth):
        out.append(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i))
    out.append(b"Content-Type: text/plain\r\n\r\nhello\r\n")
    out += [b"--b%d--\r\n" % i for i in reversed(range(depth))]
    return b"".join(out)


def many_parts(n: int) -> bytes:
    head = (
        b"From: a@example.org\r\nSubject: wide\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="W"\r\n\r\n'
    )
    return head + b"--W\r\nContent-Type: text/plain\r\n\r\nx\r\n" * n + b"--W--\r\n"


@pytest.mark.parametrize(
    "data",
    [nested_multiparts(5000), many_parts(100_000)],
    ids=["5000 nested multiparts", "100000 parts"],
)
def test_a_mime_bomb_is_refused_before_it_is_parsed(data: bytes) -> None:
    started = time.perf_counter()
    with pytest.raises(TooLargeError, match="MIME bomb"):
        parse_message(data, "bomb.eml", ReadOptions())
    # The standard parser would take minutes on these; the check is one pass over bytes.
    assert time.perf_counter() - started < 5


def test_a_message_inside_the_limits_is_parsed() -> None:
    msg = parse_message(nested_multiparts(20), "ok.eml", ReadOptions())
    assert sum(1 for _ in msg.walk()) == 21


def test_an_eml_in_a_chat_message_is_read_as_mail() -> None:
    data = message("Invoice 7", "Please pay invoice 7 by Friday.").as_bytes()
    url = "data:message/rfc822;base64," + base64.b64encode(data).decode()
    part = {"type": "file", "file": {"file_data": url, "filename": "invoice.eml"}}
    items = Reader().read([{"role": "user", "content": [part]}])
    mail = next(i for i in items if i.source.kind == "file")
    assert mail.metadata.key == "Invoice 7" and "pay invoice 7" in mail.memory


def test_an_encrypted_message_raises_encrypted_when_read_alone() -> None:
    from omnireader.formats.mail.message import extract_email

    armored = "-----BEGIN PGP MESSAGE-----\nhQEMA5F2\n-----END PGP MESSAGE-----\n"
    blob = Blob(data=message(body=armored).as_bytes(), filename="x.eml")
    with pytest.raises(EncryptedError):
        extract_email(blob, ReadOptions())
