"""E-mail: a message's attachments and attached messages, as member blobs.

Each is handed back to the router as a file, like the members of a ZIP, named
``attachment/<file name>`` (``mail.eml!attachment/report.pdf``); an attached message is
named by its subject (``message-<n>.eml`` without one). Ciphertext beside readable text is
reported as ``encrypted``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from email.message import Message

from omnireader.errors import EncryptedError, ReadError, TooLargeError
from omnireader.formats.archives.member_names import member_blob, safe_member_name
from omnireader.formats.mail import ATTACHMENT_PREFIX
from omnireader.formats.mail.body import payload
from omnireader.formats.mail.headers import header_text, mail_headers
from omnireader.formats.mail.parse import PARSE_POLICY, parse_message
from omnireader.formats.mail.parts import part_layout
from omnireader.options import ReadOptions
from omnireader.payloads import Blob, ParentMessage

__all__ = ["email_members"]


def _member_bytes(part: Message, whole_message: bool) -> bytes:
    if not whole_message:
        return payload(part) or b""
    inner = part.get_payload()
    if isinstance(inner, list) and inner:
        inner = inner[0]
    if isinstance(inner, Message):
        data = inner.as_bytes(policy=PARSE_POLICY)
        return _transfer_decoded(part, data) or data
    return payload(part) or (str(inner).encode("utf-8", "surrogateescape") if inner else b"")


def _transfer_decoded(part: Message, data: bytes) -> bytes | None:
    """An attached message sent in base64 or quoted-printable (RFC 2046 forbids it, mail
    clients do it): the parser took the encoded text for a message with no headers, so it
    is decoded here; None when it is not encoded, or does not decode."""
    import base64
    import binascii
    import quopri

    encoding = (part.get("Content-Transfer-Encoding") or "").strip().lower()
    try:
        if encoding == "base64":
            return base64.b64decode(data) or None  # not strict: line breaks are skipped
        if encoding == "quoted-printable":
            return quopri.decodestring(data) or None
    except (binascii.Error, ValueError):
        return None
    return None


def _member_name(part: Message, whole_message: bool, n: int) -> str:
    name = header_text(part.get_filename()) if part.get_filename() else ""
    if whole_message:
        inner = part.get_payload()
        inner = inner[0] if isinstance(inner, list) and inner else inner
        subject = header_text(inner.get("Subject")) if isinstance(inner, Message) else ""
        name = name or subject or f"message-{n}"
        name = name if name.lower().endswith(".eml") else f"{name}.eml"
    return safe_member_name(name, f"part-{n}")


def email_members(
    blob: Blob,
    options: ReadOptions,
    *,
    on_error: Callable[[ReadError], None] | None = None,
    msg: Message | None = None,
) -> Iterator[Blob]:
    """The attachments and attached messages of the message ``blob``, as member blobs
    named ``attachment/<file name>``. Encrypted attachments are reported as
    ``encrypted`` (to ``on_error``, or raised)."""
    if msg is None:
        msg = parse_message(blob.read_bytes(), blob.label, options)
    layout = part_layout(msg)
    if len(layout.members) > options.max_archive_members:
        raise TooLargeError(
            blob.label,
            f"has {len(layout.members)} attachments, over the max_archive_members "
            f"limit of {options.max_archive_members}",
        )
    taken: set[str] = set()
    headers = mail_headers(msg) if layout.members else None
    sent = headers.date if headers else None  # each attachment's date
    parent = (  # which message each attachment came in, for its items to say
        ParentMessage(subject=headers.subject or None, message_id=headers.message_id)
        if headers
        else None
    )
    for n, (part, whole) in enumerate(layout.members, 1):
        name = _unique(_member_name(part, whole, n), taken)
        member = member_blob(blob, ATTACHMENT_PREFIX + name, _member_bytes(part, whole), sent)
        yield member.model_copy(update={"parent": parent})
    if layout.body:  # ciphertext beside readable text: the text is read, this reported
        for n, part in enumerate(layout.encrypted, 1):
            name = safe_member_name(header_text(part.get_filename() or ""), f"encrypted-{n}")
            error = EncryptedError(
                f"{blob.label}!attachment/{name}", "PGP / S/MIME ciphertext; it is not stored"
            )
            if on_error is None:
                raise error
            on_error(error)


def _unique(name: str, taken: set[str]) -> str:
    stem, dot, ext = name.rpartition(".")
    candidate, n = name, 2
    while candidate in taken:
        candidate = f"{stem} ({n}).{ext}" if dot and stem else f"{name} ({n})"
        n += 1
    taken.add(candidate)
    return candidate
