"""Generators for the fault matrix's e-mail, RTF and OpenDocument cases.

Each writes one hostile input and returns its path (or bytes); nothing large is held:
the ODT bomb is deflated by hand like the DOCX bomb in :mod:`tests.faultkit.fault_cases`.

    write_mime_bomb_nested(folder / "deep.eml", 5000)   # 5000 multiparts inside each other
"""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from tests.faultkit.zipbuild import deflated_member, zip_of

__all__ = [
    "write_mime_bomb_nested",
    "write_mime_bomb_wide",
    "write_climbing_attachment",
    "write_injected_attachment_name",
    "write_rtf_control_run",
    "odt_bomb_bytes",
    "write_odt_bomb",
    "INJECTED",
]

MiB = 1 << 20
# The header an attachment's file name tries to smuggle into the message.
INJECTED = "Bcc: victim@attacker.example"


def write_mime_bomb_nested(path: Path, depth: int) -> Path:
    """A message whose multiparts nest ``depth`` deep around one line of text."""
    out = [b"From: a@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"]
    for i in range(depth):
        out.append(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i))
    out.append(b"Content-Type: text/plain\r\n\r\nhello from the bottom\r\n")
    out += [b"--b%d--\r\n" % i for i in reversed(range(depth))]
    path.write_bytes(b"".join(out))
    return path


def write_mime_bomb_wide(path: Path, parts: int) -> Path:
    """A message of ``parts`` tiny text parts side by side."""
    head = (
        b"From: a@example.org\r\nSubject: wide\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="W"\r\n\r\n'
    )
    path.write_bytes(head + b"--W\r\nContent-Type: text/plain\r\n\r\nx\r\n" * parts + b"--W--\r\n")
    return path


def _message(subject: str, body: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = "Ann Lee <ann@example.org>"
    msg["To"] = "Bo Chen <bo@example.org>"
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


def write_climbing_attachment(path: Path, name: str, text: str) -> Path:
    """A message whose attachment is named ``name`` (``../../etc/x``, say)."""
    msg = _message("Climbing attachment", "The note is attached.")
    msg.add_attachment(text.encode(), maintype="text", subtype="plain", filename=name)
    path.write_bytes(msg.as_bytes())
    return path


def write_injected_attachment_name(path: Path, text: str) -> Path:
    """A message whose attachment's file name carries CR LF and a header (RFC 2231)."""
    encoded = "notes.txt%0D%0A" + INJECTED.replace(":", "%3A").replace(" ", "%20").replace(
        "@", "%40"
    )
    path.write_bytes(
        b"From: Ann Lee <ann@example.org>\r\nTo: Bo Chen <bo@example.org>\r\n"
        b"Subject: Injected name\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: multipart/mixed; boundary=B\r\n\r\n"
        b"--B\r\nContent-Type: text/plain\r\n\r\nThe notes are attached.\r\n"
        b"--B\r\nContent-Type: text/plain\r\nContent-Disposition: attachment;"
        b" filename*=utf-8''" + encoded.encode() + b"\r\n\r\n" + text.encode() + b"\r\n--B--\r\n"
    )
    return path


def write_rtf_control_run(path: Path, size: int, before: str, after: str) -> Path:
    """An RTF document whose text is split by ``size`` bytes of formatting control words."""
    run = b"\\b\\i\\ul\\b0\\i0\\ulnone"
    path.write_bytes(
        b"{\\rtf1\\ansi\\deff0 "
        + before.encode()
        + b" "
        + run * (size // len(run))
        + b" "
        + after.encode()
        + b"\\par}"
    )
    return path


def odt_bomb_bytes(unpacked: int) -> bytes:
    """A real ODT whose content.xml unpacks to ``unpacked`` bytes of paragraphs."""
    from odfdo import Document, Paragraph

    doc = Document("text")
    doc.body.clear()
    doc.body.append(Paragraph("Bomb"))
    buf = io.BytesIO()
    doc.save(buf)
    members = []
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "content.xml":
                xml = data.decode()
                cut = xml.index("<office:text>") + len("<office:text>")
                para = b"<text:p>" + b"ha " * 300 + b"</text:p>"
                block = para * (MiB // len(para))
                members.append(
                    deflated_member(
                        info.filename, xml[:cut].encode(), block, unpacked, xml[cut:].encode()
                    )
                )
            else:
                members.append(deflated_member(info.filename, data, b"x", len(data), b""))
    return zip_of(members)


def write_odt_bomb(path: Path, unpacked: int) -> Path:
    path.write_bytes(odt_bomb_bytes(unpacked))
    return path
