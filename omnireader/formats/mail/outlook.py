"""Outlook messages (.msg) as the MIME message they stand for, so one e-mail path reads them.

python-oxmsg (MIT) reads the message's properties out of the OLE file: subject, sender,
recipients by kind (To / Cc / Bcc), dates, message ids, plain and HTML body, and the attachments
with their file names. They are written into a MIME message, attachments as parts and
attached Outlook messages as ``message/rfc822`` parts (converted the same way), which the
e-mail reader then reads like any ``.eml``:

    mime = msg_to_mime(Path("note.msg").read_bytes(), "note.msg")
    # -> bytes of an RFC 822 message; formats.email reads its text and attachments

An S/MIME-encrypted message (class ``IPM.Note.SMIME``) raises :class:`EncryptedError`.
"""

from __future__ import annotations

import email.policy
import email.utils
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

from omnireader.errors import CorruptError, EncryptedError, TooLargeError
from omnireader.formats.document import Extraction
from omnireader.formats.registry import Format, Magic, OnError
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["msg_to_mime", "MAX_EMBEDDED_DEPTH"]

#: Outlook messages attached to attached messages, and so on, up to this depth.
MAX_EMBEDDED_DEPTH = 8
_EMBEDDED = "__substg1.0_3701000D"  # the storage of an attached Outlook message
_EMBEDDED_HEADER = 24  # [MS-OXMSG] 2.4.1.2: an embedded message's property header size
_TO, _CC, _BCC = 1, 2, 3


def _recipients(message: Any, kind: int) -> list[str]:
    from oxmsg.domain import constants as c

    out = []
    for r in message.recipients:
        if (r.properties.int_prop_value(c.PID_RECIPIENT_TYPE) or _TO) & 0x0F != kind:
            continue
        name, addr = (r.name or "").strip(), (r.email_address or "").strip()
        out.append(email.utils.formataddr((name, addr)) if addr else name)
    return [x for x in out if x]


def _sender(message: Any) -> str:
    """The sender as Outlook recorded it (name and SMTP address), else the From header.
    An Exchange sender's address is a directory path (``/O=...``), not an address."""
    from oxmsg.domain import constants as c

    props = message.properties
    name = (props.str_prop_value(c.PID_SENDER_NAME) or "").strip()
    address = next(
        (
            a
            for a in (
                props.str_prop_value(c.PID_SENDER_EMAIL_ADDRESS),
                props.str_prop_value(c.PID_SENDER_SMTP_ADDRESS),
            )
            if a and "@" in a
        ),
        None,
    )
    if address:
        return email.utils.formataddr((name, address))
    return message.sender or name


# [MS-OXCDATA] 2.2.5.1: a one-off entry id (an address typed in, not a directory entry):
# this provider id, 4 bytes of version and flags, then display name, address type and
# address, each ending in a null; UTF-16 when flag 0x8000 is set.
_ONE_OFF = bytes.fromhex("812b1fa4bea310199d6e00dd010f5402")


def _reply_to(message: Any) -> str:
    """Reply-To as ``Name <address>, ...``: from the one-off entries Outlook keeps
    (PidTagReplyRecipientEntries), else the names alone (PidTagReplyRecipientNames)."""
    from oxmsg.domain import constants as c

    props = message.properties
    raw = props.binary_prop_value(c.PID_REPLY_RECIPIENT_ENTRIES) or b""
    found = []
    for start in (i for i in range(len(raw)) if raw.startswith(_ONE_OFF, i)):
        flags = int.from_bytes(raw[start + 18 : start + 20], "little")
        wide = bool(flags & 0x8000)
        body = raw[start + 20 :]
        fields = (
            body.decode("utf-16-le", "replace").split("\x00", 3)
            if wide
            else body.decode("latin-1").split("\x00", 3)
        )
        if len(fields) >= 3 and "@" in (address := fields[2].strip()):
            name = fields[0].strip()  # often the address again: then the address alone
            found.append(email.utils.formataddr((name, address)) if name != address else address)
    if found:
        return ", ".join(found)
    return (props.str_prop_value(c.PID_REPLY_RECIPIENT_NAMES) or "").replace(";", ",")


def _headers(out: EmailMessage, message: Any) -> None:
    from oxmsg.domain import constants as c

    props = message.properties
    fields = {
        "Subject": message.subject,
        "From": _sender(message),
        "To": ", ".join(_recipients(message, _TO)),
        "Cc": ", ".join(_recipients(message, _CC)),
        # A sent message's copy keeps its Bcc recipients: they are persons of it too.
        "Bcc": ", ".join(_recipients(message, _BCC)),
        "Message-ID": props.str_prop_value(c.PID_INTERNET_MESSAGE_ID),
        "In-Reply-To": props.str_prop_value(c.PID_IN_REPLY_TO_ID),
        "Reply-To": _reply_to(message),
    }
    sent = message.sent_date or props.date_prop_value(c.PID_MESSAGE_DELIVERY_TIME)
    if sent is not None:
        fields["Date"] = email.utils.format_datetime(sent)
    for name, value in fields.items():
        value = " ".join(str(value or "").split())  # one line: no folded or injected fields
        if value:
            out[name] = value


def _attach(out: EmailMessage, attachment: Any, depth: int, label: str) -> None:
    from oxmsg.domain import constants as c

    props = attachment.properties
    name = (
        props.str_prop_value(c.PID_ATTACH_LONG_FILENAME)
        or props.str_prop_value(c.PID_ATTACH_FILENAME)
        or props.str_prop_value(c.PID_DISPLAY_NAME)
        or ""
    )
    inner = next((s for s in attachment._storage.storages if s.name == _EMBEDDED), None)
    if inner is not None:
        nested = _to_mime(_embedded(inner), depth + 1, label)
        filename = name if name.lower().endswith(".eml") else f"{name or 'message'}.eml"
        out.add_attachment(nested, filename=filename)
        return
    data = attachment.file_bytes
    if not data:
        return  # attached by reference (a link or a path): nothing here to read
    maintype, _, subtype = (attachment.mime_type or "application/octet-stream").partition("/")
    out.add_attachment(
        data,
        maintype=maintype or "application",
        subtype=subtype or "octet-stream",
        filename=name or "attachment",
    )


def _embedded(storage: Any) -> Any:
    from oxmsg import Message
    from oxmsg.properties import Properties

    class _Embedded(Message):  # type: ignore[misc]
        @property
        def properties(self) -> Any:
            return Properties(self._storage, properties_header_offset=_EMBEDDED_HEADER)

    return _Embedded(storage)


def _encrypted(message: Any) -> bool:
    """Whether the message is S/MIME ciphertext: its class says so (``IPM.Note.SMIME``, not
    ``...MultipartSigned``), or it has no text of its own and carries the ciphertext as an
    ``smime.p7m`` attachment (some clients save encrypted mail with a plain class)."""
    from oxmsg.domain import constants as c

    kind = (message.message_class or "").upper()
    if kind.startswith("IPM.NOTE.SMIME"):
        return "MULTIPARTSIGNED" not in kind
    if (message.body or "").strip() or (message.html_body or "").strip():
        return False
    for attachment in message.attachments:
        props = attachment.properties
        name = (
            (
                props.str_prop_value(c.PID_ATTACH_LONG_FILENAME)
                or props.str_prop_value(c.PID_ATTACH_FILENAME)
                or ""
            )
            .strip()
            .lower()
        )
        mime = (attachment.mime_type or "").lower()
        if name.endswith(".p7m") or mime.endswith("pkcs7-mime"):
            return True
    return False


def _to_mime(message: Any, depth: int, label: str) -> EmailMessage:
    if depth > MAX_EMBEDDED_DEPTH:
        raise TooLargeError(
            label, f"Outlook messages attached {depth} levels deep; read up to {MAX_EMBEDDED_DEPTH}"
        )
    if _encrypted(message):
        raise EncryptedError(
            label, "the Outlook message is S/MIME-encrypted; its text is not stored"
        )
    out = EmailMessage(policy=email.policy.SMTP)
    _headers(out, message)
    body, html = message.body, message.html_body
    if body and body.strip():
        out.set_content(body)
        if html:
            out.add_alternative(html, subtype="html")
    elif html:
        out.set_content(html, subtype="html")
    for attachment in message.attachments:
        _attach(out, attachment, depth, label)
    return out


def msg_to_mime(data: bytes, label: str) -> bytes:
    """The Outlook message ``data`` as the bytes of an RFC 822 message."""
    from oxmsg import Message

    try:
        message = Message.load(data)
        mime = _to_mime(message, 0, label)
    except (EncryptedError, TooLargeError):
        raise
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        raise CorruptError(
            label, f"cannot be read as an Outlook message ({type(e).__name__}: {e})"[:300]
        ) from None
    return mime.as_bytes()


def _read_msg(blob: Blob, options: ReadOptions) -> Extraction:
    from omnireader.formats.mail.message import extract_email

    mime = Blob(
        data=msg_to_mime(blob.read_bytes(), blob.label),
        path=blob.path,
        member=blob.member,
        filename=blob.filename,
        url=blob.url,
    )
    return extract_email(mime, options)


def _msg_members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    from omnireader.formats.mail.attachments import email_members
    from omnireader.formats.mail.parse import parse_message

    msg = parse_message(msg_to_mime(blob.read_bytes(), blob.label), blob.label, options)
    yield from email_members(blob, options, on_error=on_error, msg=msg)


FORMATS = (
    Format(
        name="msg",
        rank=19,
        display="MSG",
        extensions=(".msg",),
        mimes=("application/vnd.ms-outlook",),
        magic=(
            Magic(10, lambda p: p.ole_has("__substg1.0_"), "ole"),
            Magic(50, lambda p: p.ole_names is None and p.ext == ".msg", "ole"),
        ),
        extract=_read_msg,
        members=_msg_members,
        has_body=True,
        readme_group="MSG (Outlook)",
        readme="python-oxmsg, then the same e-mail reading: sender, recipients, date, body, "
        "attachments, attached messages",
    ),
)
