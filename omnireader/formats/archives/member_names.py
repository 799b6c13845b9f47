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
from datetime import UTC, datetime

from omnireader.formats.archives.zip_times import zip_entry_time
from omnireader.payloads import Blob

__all__ = ["safe_member_name", "member_blob", "zip_entry_time", "tar_entry_time", "MAX_NAME"]

MAX_NAME = 200
_SPACES = re.compile(r"\s+")


def safe_member_name(name: str, fallback: str) -> str:
    """The last path part of ``name``, without control characters or ``!`` (the member
    separator), at most :data:`MAX_NAME` characters; ``fallback`` when nothing is left."""
    name = "".join(ch if ch.isprintable() else " " for ch in name or "")
    name = name.replace("\\", "/").rsplit("/", 1)[-1].replace("!", "_")
    name = _SPACES.sub(" ", name).strip(" .")
    return name[:MAX_NAME] if name else fallback


def member_blob(container: Blob, name: str, data: bytes, time: str | None = None) -> Blob:
    """A member of ``container`` with its bytes, carrying the container's provenance.

    ``time`` is when the container says the member was made or sent: a ZIP or TAR entry's
    stored time, the ``Date`` of the message an attachment came in. It becomes the member's
    ``chat_time``, the time its items fall back on when the member carries no date of its
    own, so an attachment is dated by its message, not by the file's mtime or today. With
    no such time the member keeps its container's.
    """
    return Blob(
        data=data,
        path=container.path,
        url=container.url,
        filename=container.filename,
        file_id=container.file_id,
        member=f"{container.member}!{name}" if container.member else name,
        context=container.context,
        role=container.role,
        chat_time=time or container.chat_time,
        message_id=container.message_id,
        parent=container.parent,
        password=container.password,
    )


def tar_entry_time(mtime: float) -> str | None:
    """A TAR entry's stored time (seconds since 1970, UTC) as ISO 8601; None for 0, which
    tools write when they keep no time."""
    if not mtime or mtime <= 0:
        return None
    try:
        return datetime.fromtimestamp(int(mtime), UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return None
