"""E-mail (RFC 822 / MIME): the message's own text, and the parts to read as files.

A message becomes one document: its header fields (subject, sender, recipients, date) and
its body, decoded from base64 or quoted-printable in whatever charset it declares (or,
when that label is wrong, the charset its bytes fit). Attachments and attached messages
are *members* (:mod:`.attachments`), handed back to the router as files like the members
of a ZIP:

    extract_email(Blob(path="mail.eml"), ReadOptions())      # headers + body
    for member in email_members(Blob(path="mail.eml"), ReadOptions()):
        print(member.label)                                  # mail.eml!attachment/report.pdf

What is body and what is a member is :mod:`.parts`; the message is parsed behind a
MIME-bomb check (:mod:`.parse`). PGP and S/MIME ciphertext is never read as text: an
encrypted message raises :class:`EncryptedError`, an encrypted attachment is reported as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import Message

from omnireader.errors import EmptyInputError, EncryptedError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.mail.attachments import email_members
from omnireader.formats.mail.body import html_text, part_text
from omnireader.formats.mail.header_blocks import summarized_header_blocks
from omnireader.formats.mail.headers import MailHeaders, header_text, mail_headers
from omnireader.formats.mail.parse import MAX_MULTIPARTS, parse_message, wide_text_to_utf8
from omnireader.formats.mail.parts import part_layout
from omnireader.formats.mail.quotes import QuoteSplit, split_quoted
from omnireader.formats.mail.related import resource_name
from omnireader.formats.mail.returned import RETURNED_TYPES, returned_headers
from omnireader.formats.mail.threads import mailbox_thread, parent_in_mailbox
from omnireader.formats.registry import Format, Magic, OnError, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = [
    "extract_email",
    "email_members",
    "parse_message",
    "message_text",
    "wide_text_to_utf8",
    "MAX_MULTIPARTS",
]

_WHITE_LINES = re.compile(r"^[ \t\u00a0\u3000]+$", re.M)
_BLANK_RUNS = re.compile(r"\n{3,}")
_PGP_BLOCK = re.compile(r"-----BEGIN PGP MESSAGE-----.*?(?:-----END PGP MESSAGE-----|\Z)", re.S)


def message_text(
    msg: Message, headers: MailHeaders, label: str, quotes_read: bool = False
) -> QuoteSplit:
    """The header lines and the body of ``msg`` as one text; ciphertext refused. With
    ``quotes_read`` (the message it answers is read too), the quoted history at the
    body's end apart (:mod:`.quotes`): else it is the only copy of what it quotes, and stays
    searchable."""
    layout = part_layout(msg)
    pieces: list[str] = []
    for part in layout.body:
        text = part_text(part)
        if part.get_content_type() in RETURNED_TYPES:
            text = returned_headers(part).text  # which message failed: Subject, From, To
        elif part.get_content_type() == "text/html":
            text = html_text(text)
        elif part.get_content_type() == "text/plain":
            text = summarized_header_blocks(text)  # a bounce's pasted copy of headers
            # Outlook's empty paragraphs are a space or a no-break space on a line: blank.
            text = _BLANK_RUNS.sub("\n\n", _WHITE_LINES.sub("", text))
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
    layout = part_layout(msg)
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
