"""A bounce's copy of the returned message's header block (a ``text/rfc822-headers``
part, RFC 6522, or a ``message/rfc822`` copy with no text), folded into the bounce's own
item.

The copy has no body: read as a message of its own it was an item holding four header
lines and nothing else ("Subject: TEST\\nFrom: …\\nTo: …\\nDate: …"), one per bounce, 31 of
the 72 items of a mailbox of bounces. It says which message failed, which is part of
what the bounce says: its Subject / From / To / Date lines are read at the end of the
bounce's text (as a header block pasted into a plain-text bounce is,
:mod:`.header_blocks`), and its subject, recipients and Message-ID go to the bounce's
extra, so a bounce can be found from the message it returns:

    returned = returned_headers(part)
    returned.text      # 'Subject: TEST\\nFrom: …\\nTo: …\\nDate: …'
    returned.extra     # {'returned_subject': 'TEST', 'returned_to': …, 'returned_message_id': …}
"""

from __future__ import annotations

import email
import email.policy
from email.message import Message

from pydantic import BaseModel, Field

from omnireader.formats.mail.body import payload
from omnireader.formats.mail.header_blocks import returned_headers_message
from omnireader.formats.mail.headers import mail_headers

__all__ = ["RETURNED_TYPES", "ReturnedHeaders", "returned_headers", "bodiless_copy"]

#: A returned message's header block (RFC 6522), and a returned copy with no text
#: (:func:`bodiless_copy`: a whole message in a bounce is a member of its own).
RETURNED_TYPES = frozenset({"text/rfc822-headers", "message/rfc822"})


class ReturnedHeaders(BaseModel):
    """What a returned header block says: its lines for the bounce's text, its fields for
    the bounce's extra."""

    text: str = ""
    extra: dict[str, str] = Field(default_factory=dict)


def bodiless_copy(part: Message) -> bool:
    """Whether the ``message/rfc822`` part of a bounce copies a message with a header
    block and no text (some MTAs return that instead of ``text/rfc822-headers``)."""
    inner = _inner(part)
    if inner is None or inner.is_multipart():
        return False
    return not (payload(inner) or b"").strip()


def returned_headers(part: Message) -> ReturnedHeaders:
    """The returned header block ``part``, decoded (RFC 2047 words, charsets) as the
    headers of the message it copies; its trace fields (Received, DKIM, X-) left out."""
    inner = _inner(part)
    if inner is None:
        head = returned_headers_message(payload(part) or b"")
        inner = email.message_from_bytes(head, policy=email.policy.compat32)
    headers = mail_headers(inner)
    fields = (
        ("returned_subject", headers.subject),
        ("returned_to", headers.to),
        ("returned_message_id", headers.message_id),
    )
    return ReturnedHeaders(
        text="\n".join(headers.lines()), extra={key: value for key, value in fields if value}
    )


def _inner(part: Message) -> Message | None:
    """The message a ``message/rfc822`` part holds; None for a ``text/rfc822-headers``."""
    inner = part.get_payload()
    inner = inner[0] if isinstance(inner, list) and inner else inner
    return inner if isinstance(inner, Message) else None
