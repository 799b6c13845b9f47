"""Naming the members of containers (ZIP, e-mail, mbox, Outlook) so provenance can say
where an item came from: ``outer.zip!inner.eml!attachment/report.pdf``.

A name a container gives is untrusted: an attachment may be called ``../../etc/passwd`` or
carry a CR/LF meant to inject a header. Nothing is ever written under such a name (members
stay in memory), and :func:`safe_member_name` keeps only its last path part, printable.

    >>> safe_member_name("../../etc/passwd", "part-1")
    'passwd'
    >>> safe_member_name("report.pdf\\r\\nBcc: x@example.org", "part-1")
    'report.pdf Bcc: x@example.org'
"""

from __future__ import annotations

import re

from omnireader.payloads import Blob

__all__ = ["safe_member_name", "member_blob", "MAX_NAME"]

MAX_NAME = 200
_SPACES = re.compile(r"\s+")


def safe_member_name(name: str, fallback: str) -> str:
    """The last path part of ``name``, without control characters or ``!`` (the member
    separator), at most :data:`MAX_NAME` characters; ``fallback`` when nothing is left."""
    name = "".join(ch if ch.isprintable() else " " for ch in name or "")
    name = name.replace("\\", "/").rsplit("/", 1)[-1].replace("!", "_")
    name = _SPACES.sub(" ", name).strip(" .")
    return name[:MAX_NAME] if name else fallback


def member_blob(container: Blob, name: str, data: bytes) -> Blob:
    """A member of ``container`` with its bytes, carrying the container's provenance."""
    return Blob(
        data=data,
        path=container.path,
        url=container.url,
        filename=container.filename,
        file_id=container.file_id,
        member=f"{container.member}!{name}" if container.member else name,
        context=container.context,
        role=container.role,
        chat_time=container.chat_time,
        message_id=container.message_id,
        password=container.password,
    )
