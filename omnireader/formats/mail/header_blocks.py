"""Header blocks inside mail: a returned message's headers in a bounce, read as what they
say (subject, sender, recipients, date) instead of as text.

A bounce carries a copy of the message that failed, or of its header block alone: as a
``text/rfc822-headers`` part (RFC 6522), or pasted into the plain-text report under a line
like qmail's "--- Below this line is a copy of the message.". Stored as they are, those are
twenty lines of ``Received:``, ``DKIM-Signature:`` and ``X-`` fields per bounce: junk in a
memory, and the same junk in every bounce of a mailbox.

    returned_headers_message(part_bytes)   # a header-only message, read like an attachment
    summarized_header_blocks(text)         # pasted blocks cut to Subject / From / To / Date

>>> summarized_header_blocks("Sorry.\\n\\nReturn-Path: <a@x.org>\\nReceived: by mx\\n"
...     "Message-ID: <1@x.org>\\nFrom: a@x.org\\nSubject: Hi\\n\\nHello")
'Sorry.\\n\\nSubject: Hi\\nFrom: a@x.org\\n\\nHello'
"""

from __future__ import annotations

import email
import email.policy
import re

__all__ = ["returned_headers_message", "summarized_header_blocks"]

_POLICY = email.policy.compat32
_FIELD = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]{0,60}):[ \t]*(.*)$")
# Fields only a transport writes: a block with two of them is a copy of a header block,
# not text someone typed (a forwarded "From: / Sent: / To: / Subject:" quote has none).
_TRACE = frozenset(
    {
        "received",
        "return-path",
        "message-id",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
        "dkim-signature",
        "domainkey-signature",
        "authentication-results",
        "received-spf",
        "arc-seal",
        "arc-message-signature",
        "arc-authentication-results",
        "delivered-to",
        "envelope-to",
        "thread-index",
        "x-mailer",
        "x-originating-ip",
        "x-original-to",
        "x-priority",
        "x-msmail-priority",
        "x-mimeole",
    }
)
_MIN_TRACE = 2
_SHOWN = ("subject", "from", "to", "cc", "date")
_BLANK = re.compile(r"(\n[ \t]*\n)")


def returned_headers_message(data: bytes) -> bytes:
    """A returned message's header block as a message of its own, without the fields that
    describe its body: the body is not there, and a multipart type with no parts would
    read as an empty attachment."""
    head = data.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    header = email.message_from_bytes(head, policy=_POLICY)
    for name in ("Content-Type", "Content-Transfer-Encoding", "MIME-Version"):
        del header[name]
    return header.as_bytes(policy=_POLICY)


def _fields(block: str) -> list[tuple[str, str]] | None:
    """The (name, value) fields of ``block`` when every line is a header field or its
    folded continuation, else None."""
    fields: list[tuple[str, str]] = []
    for line in block.strip("\n").split("\n"):
        if line[:1] in (" ", "\t") and fields:
            name, value = fields[-1]
            fields[-1] = (name, f"{value} {line.strip()}".strip())
            continue
        found = _FIELD.match(line)
        if not found:
            return None
        fields.append((found.group(1).lower(), found.group(2).strip()))
    return fields


def _summary(block: str) -> str | None:
    fields = _fields(block)
    if not fields:
        return None
    trace = sum(1 for name, _ in fields if name in _TRACE or name.startswith("x-"))
    if trace < _MIN_TRACE:
        return None
    values = {name: value for name, value in reversed(fields)}  # the first of each wins
    lines = [f"{name.capitalize()}: {values[name]}" for name in _SHOWN if values.get(name)]
    return "\n".join(lines)


def summarized_header_blocks(text: str) -> str:
    """``text`` with every paragraph that is a copied header block cut to its Subject,
    From, To, Cc and Date lines (dropped when it has none)."""
    if ":" not in text:
        return text
    pieces = _BLANK.split(text)
    out: list[str] = []
    for n, piece in enumerate(pieces):
        summary = None if n % 2 else _summary(piece)  # odd pieces are the blank lines
        out.append(piece if summary is None else summary)
    return re.sub(r"\n{3,}", "\n\n", "".join(out)).strip("\n")
