"""E-mail (RFC 822 / MIME): the message's own text, and the parts to read as files.

A message becomes one document: its header fields (subject, sender, recipients, date) and
its body, decoded from base64 or quoted-printable in whatever charset it declares (or,
when that label is wrong, the charset its bytes fit). Attachments and attached messages
are *members*, handed back to the router as files like the members of a ZIP:

    extract_email(Blob(path="mail.eml"), ReadOptions())      # headers + body
    for member in email_members(Blob(path="mail.eml"), ReadOptions()):
        print(member.label)                                  # mail.eml!attachment/report.pdf

What is body and what is a member: text parts shown inline are body (of a
``multipart/alternative`` only the best one: the plain text, else the HTML); resources of
an HTML page (``multipart/related``: style sheets, scripts, the logos it shows inline,
:mod:`.related`) are neither, the images named in ``inline_images``; everything else is
a member, attached messages (``message/rfc822``, digest entries) included. PGP and S/MIME
ciphertext is never read as text: an encrypted message raises :class:`EncryptedError`,
an encrypted attachment is reported as one.

The standard library parses the MIME structure. Its parser slows down with the square of
the nesting depth (500 nested multiparts take 20 s), so the structure is counted first, in
one pass over the bytes, and a message with more multiparts than :data:`MAX_MULTIPARTS` or
more parts than ``max_archive_members`` is refused as a MIME bomb before it is parsed.
"""

from __future__ import annotations

import email
import email.policy
import re
from collections.abc import Callable, Iterator
from email.message import Message
from typing import NamedTuple

from omnireader.errors import EmptyInputError, EncryptedError, ReadError, TooLargeError
from omnireader.formats.archives.member_names import member_blob, safe_member_name
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.mail import ATTACHMENT_PREFIX
from omnireader.formats.mail.body import best_alternative, html_text, part_text, payload
from omnireader.formats.mail.header_blocks import summarized_header_blocks
from omnireader.formats.mail.headers import MailHeaders, header_text, mail_headers
from omnireader.formats.mail.quotes import QuoteSplit, split_quoted
from omnireader.formats.mail.related import related_parts, resource_name
from omnireader.formats.mail.returned import RETURNED_TYPES, bodiless_copy, returned_headers
from omnireader.formats.mail.threads import mailbox_thread, parent_in_mailbox
from omnireader.formats.registry import Format, Magic, OnError, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob, ParentMessage

__all__ = [
    "extract_email",
    "email_members",
    "parse_message",
    "message_text",
    "wide_text_to_utf8",
    "MAX_MULTIPARTS",
]

#: Multipart containers one message may declare (real mail has a handful).
MAX_MULTIPARTS = 200
# compat32 parses structure 15-20 times faster than policy.default, which builds a full
# header object for every part's Content-Type; the fields we keep are decoded by
# :mod:`.mail_headers` instead.
_POLICY = email.policy.compat32
_BOUNDARY = re.compile(rb"""boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))""", re.I)
_PGP_ARMOUR = re.compile(rb"\s{0,64}-----BEGIN PGP MESSAGE-----")
_PGP_BLOCK = re.compile(r"-----BEGIN PGP MESSAGE-----.*?(?:-----END PGP MESSAGE-----|\Z)", re.S)
_ENCRYPTED_TYPES = {
    "application/pgp-encrypted",
    "application/pkcs7-mime",
    "application/x-pkcs7-mime",
}
_SIGNATURE_TYPES = {
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
}
_BODY_TEXT = {"text/plain", "text/html", "message/delivery-status"}


class _Layout(NamedTuple):
    body: list[Message]  # parts read as the message's text, in order
    members: list[tuple[Message, bool]]  # (part, is a whole message)
    encrypted: list[Message]  # ciphertext parts
    furniture: list[Message]  # what an HTML body shows inline (:mod:`.related`): not read


def _check_structure(data: bytes, label: str, options: ReadOptions) -> None:
    """Refuse a MIME bomb from its bytes alone (linear time), before the parser sees it."""
    declared = {a or b for a, b in _BOUNDARY.findall(data)}
    count = len(_BOUNDARY.findall(data))
    if count > MAX_MULTIPARTS:
        raise TooLargeError(
            label,
            f"declares {count} multipart containers, over the limit of "
            f"{MAX_MULTIPARTS} (a MIME bomb); not parsed",
        )
    if not declared:
        return
    delimiter = re.compile(rb"^--(?:" + b"|".join(re.escape(b) for b in declared) + rb")", re.M)
    parts = sum(1 for _ in delimiter.finditer(data))
    if parts > 2 * options.max_archive_members + 2 * count:
        raise TooLargeError(
            label,
            f"holds about {parts} MIME parts, over the max_archive_members limit of "
            f"{options.max_archive_members} (a MIME bomb); not parsed",
        )


def wide_text_to_utf8(data: bytes) -> bytes:
    """A message saved as UTF-16 or UTF-32 (with or without a BOM; Windows tools do this)
    as the UTF-8 bytes it decodes to, which the MIME parser reads; other bytes unchanged.

    MIME is a byte format: parsed as it is, a UTF-16 message has NUL bytes between every
    header letter, so no field is found and the whole file is stored as raw MIME."""
    from omnireader.formats.plain.text import bomless_unicode, detect_encoding

    if b"\x00" not in data[:4096]:
        return data
    encoding = detect_encoding(data[:4096])
    if not encoding.startswith(("utf-16", "utf-32")):
        encoding = bomless_unicode(data) or ""
    if not encoding:
        return data
    if encoding in ("utf-16", "utf-32"):  # a BOM says the byte order; the codec reads it
        text = data.decode(encoding, errors="replace")
    else:
        width = 4 if encoding.startswith("utf-32") else 2
        text = data[: len(data) // width * width].decode(encoding, errors="replace")
    return text.lstrip("\ufeff").encode("utf-8")


def parse_message(data: bytes, label: str, options: ReadOptions) -> Message:
    """The parsed message, after the bomb check; raises :class:`TooLargeError` for bombs.
    A message saved as UTF-16 / UTF-32 is decoded first (:func:`wide_text_to_utf8`)."""
    data = wide_text_to_utf8(data)
    _check_structure(data, label, options)
    try:
        return email.message_from_bytes(data, policy=_POLICY)
    except RecursionError:
        raise TooLargeError(label, "MIME parts nested too deeply to read") from None


def _is_attachment(part: Message) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    return disposition == "attachment" or bool(part.get_filename())


def _is_ciphertext(part: Message, ctype: str) -> bool:
    """PGP / S/MIME ciphertext: by its type, or, when a mailer (Outlook, a webmail export)
    labelled it ``application/octet-stream``, by its S/MIME file name (``smime.p7m``)."""
    declared = (part.get("Content-Type") or "").lower()
    if "signed-data" in declared:
        return False  # an opaque signature wraps readable content: not ciphertext
    if ctype in _ENCRYPTED_TYPES:
        return True
    name = (part.get_filename() or "").strip().lower()
    if ctype == "application/octet-stream" and name.endswith((".p7m", ".pgp", ".gpg")):
        return True
    # PGP armour in an attachment of any label (Outlook saves a PGP/MIME message's
    # ciphertext as "encrypted.asc", text/plain or octet-stream): ciphertext, never text.
    return _is_attachment(part) and _PGP_ARMOUR.match(payload(part) or b"") is not None


def _layout(msg: Message) -> _Layout:
    """Sort the parts of ``msg``: body, members, ciphertext (iteratively: no recursion)."""
    out = _Layout([], [], [], [])
    stack: list[tuple[Message, str]] = [(msg, "")]  # (part, subtype of its parent)
    while stack:
        part, parent = stack.pop()
        ctype = part.get_content_type()
        if parent == "digest" and not part.get("Content-Type"):
            ctype = "message/rfc822"  # a digest's entries are messages unless they say
        if ctype == "message/delivery-status":  # a bounce's report: header lines, read as text
            out.body.append(part)
            continue
        if ctype in RETURNED_TYPES and (  # a bounce's copy of a header block: its own text
            ctype != "message/rfc822" or (parent == "report" and bodiless_copy(part))
        ):
            out.body.append(part)
            continue
        if ctype == "message/rfc822" or (part.is_multipart() and ctype.startswith("message/")):
            out.members.append((part, True))
            continue
        if part.is_multipart():
            sub = part.get_content_subtype()
            children = part.get_payload()
            if not isinstance(children, list):
                continue
            if sub == "encrypted":
                out.encrypted.append(part)
                continue
            if sub == "alternative":
                children = [best_alternative(children)] if children else []
            elif sub == "signed":
                children = [c for c in children if c.get_content_type() not in _SIGNATURE_TYPES]
            elif sub == "related":  # the page's own images and styles are not members
                children, furniture = related_parts(part)
                out.furniture.extend(furniture)
            stack.extend((child, sub) for child in reversed(children))
            continue
        if _is_ciphertext(part, ctype):
            out.encrypted.append(part)
        elif ctype in _SIGNATURE_TYPES:
            continue
        elif ctype in _BODY_TEXT and not _is_attachment(part):
            out.body.append(part)
        else:
            out.members.append((part, False))
    return out


def message_text(
    msg: Message, headers: MailHeaders, label: str, quotes_read: bool = False
) -> QuoteSplit:
    """The header lines and the body of ``msg`` as one text; ciphertext refused. With
    ``quotes_read`` (the message it answers is read too), the quoted history at the
    body's end apart (:mod:`.quotes`): else it is the only copy of what it quotes, and stays
    searchable."""
    layout = _layout(msg)
    pieces: list[str] = []
    for part in layout.body:
        text = part_text(part)
        if part.get_content_type() in RETURNED_TYPES:
            text = returned_headers(part).text  # which message failed: Subject, From, To
        elif part.get_content_type() == "text/html":
            text = html_text(text)
        elif part.get_content_type() == "text/plain":
            text = summarized_header_blocks(text)  # a bounce's pasted copy of headers
        pieces.append(text.strip())
    body = "\n\n".join(p for p in pieces if p)
    if "-----BEGIN PGP MESSAGE-----" in body:
        body = _PGP_BLOCK.sub("", body).strip()
        if not body:
            raise EncryptedError(label, "the message is PGP-encrypted; its text is not stored")
    if layout.encrypted and not body:
        raise EncryptedError(
            label, "the message is encrypted (PGP / S/MIME); its text is not stored"
        )
    own = QuoteSplit(text=body)
    if quotes_read and msg.get_content_type() != "multipart/report":  # a bounce quotes none
        own = split_quoted(body, headers.subject)
    head = "\n".join(headers.lines())
    return QuoteSplit(text=head + ("\n\n" + own.text if own.text else ""), quoted=own.quoted)


def extract_email(blob: Blob, options: ReadOptions) -> Extraction:
    """The message's header fields and body as one section; info from its headers."""
    msg = parse_message(blob.read_bytes(), blob.label, options)
    headers = mail_headers(msg)
    split = message_text(msg, headers, blob.label, parent_in_mailbox(blob, headers))
    if not split.text.strip():
        raise EmptyInputError(blob.label, "the message has no header fields and no text")
    info = mail_info(headers, thread=mailbox_thread(blob, headers))
    layout = _layout(msg)
    shown = [resource_name(p) for p in layout.furniture if p.get_content_maintype() == "image"]
    if shown:  # not read, not lost: the images the HTML shows inline are named
        info.extra["inline_images"] = shown
    for part in layout.body:  # a bounce: the message it returns, for search to link them
        if part.get_content_type() in RETURNED_TYPES:
            for key, value in returned_headers(part).extra.items():
                info.extra.setdefault(key, value)
    if split.quoted:  # kept with the reply's items, not stored again as their text
        info.extra["quoted"] = split.quoted
    declared = header_text(msg.get("Content-Language") or "").split(",")[0].strip()
    if declared:  # RFC 3282: the language the sender says the message is in
        info.extra["lang"] = declared
    return Extraction(info=info, sections=iter([Section(text=split.text)]))


def mail_info(headers: MailHeaders, thread: str | None = None) -> DocInfo:
    """Document info from a message's headers: subject, people, date, thread (``thread``
    when the message's mailbox says more than its headers, :mod:`.threads`)."""
    extra: dict[str, object] = {"extractor": "email"}
    for key, value in (
        ("message_id", headers.message_id),
        ("in_reply_to", headers.in_reply_to),
        ("references", headers.references),
        ("thread", thread or headers.thread),
        ("sender", headers.sender),
        ("recipients", headers.to),
        ("cc", headers.cc),
        ("reply_to", headers.reply_to),
    ):
        if value:
            extra[key] = value
    return DocInfo(
        title=headers.subject or None, authors=headers.persons, created=headers.date, extra=extra
    )


def _member_bytes(part: Message, whole_message: bool) -> bytes:
    if not whole_message:
        return payload(part) or b""
    inner = part.get_payload()
    if isinstance(inner, list) and inner:
        inner = inner[0]
    if isinstance(inner, Message):
        data = inner.as_bytes(policy=_POLICY)
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
    layout = _layout(msg)
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


def _members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    return email_members(blob, options, on_error=on_error)


FORMATS = (
    Format(
        name="eml",
        rank=17,
        display="EML",
        extensions=(".eml",),
        mimes=("message/rfc822",),
        magic=(
            Magic(41, lambda p: p.mail_headers(), "text"),
            Magic(80, by_extension(".eml"), "text"),
        ),
        extract=extract_email,
        members=_members,
        has_body=True,
        readme_group="e-mail: EML (any name), `message/rfc822` parts",
        readme="standard library `email`: Subject → key, Date → timestamp, From / To / Cc → "
        "persons (Bcc too), `In-Reply-To` / `References` → thread; a message saved as UTF-16 / "
        "UTF-32 decoded first; body decoded (base64, quoted-printable, `format=flowed` "
        "unwrapped; each part's declared charset weighed against its bytes; HTML through the "
        "HTML path, decoded by its `<meta charset>` when the MIME header names none; "
        "`Content-Language` → each item's `lang`; a plain-text stub beside the real HTML "
        "gives way to the HTML; a bounce's copy of the returned headers read as that message's "
        "Subject / From / To / Date, not as Received lines); each attachment read as the file "
        "it is, named "
        "`mail.eml!attachment/report.pdf`; PGP / S/MIME ciphertext `encrypted`",
    ),
)
