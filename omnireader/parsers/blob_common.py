"""What the parsers of binary inputs share: reading a blob, its source, rebuilding it, and
reference-only items.

An image or recording is one item with one source; these helpers keep the two parsers to
what differs between them (which metadata, which sentence).
"""

from __future__ import annotations

from typing import Any

from omnireader.errors import ReadError
from omnireader.file_names import disk_path
from omnireader.ids import content_hash
from omnireader.models import MemoryItem, MemoryType, Source, SourceKind
from omnireader.normalize import normalize_time
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext, Parser
from omnireader.payloads import Blob

__all__ = [
    "blob_bytes",
    "blob_source",
    "rebuild_blob",
    "reference_item",
    "with_message",
    "message_time",
    "memory_type_for",
]


def blob_bytes(blob: Blob, options: ReadOptions | None = None) -> bytes | None:
    """The blob's content, or None when it is only a reference (a URL or a file id).

    A URL is never fetched here: parsers do no network; the router fetches before parsing.
    An archive member (a rebuilt source) is read out of the archive at ``path``.
    """
    if blob.data is not None:
        return blob.data
    if blob.path is None:
        return None
    try:
        if blob.member:
            from omnireader.formats.archives.containers import read_member

            blob.data = read_member(blob, options or ReadOptions())
            return blob.data
        return blob.read_bytes()
    except OSError as e:
        raise ReadError(blob.label, f"cannot read: {e.strerror or e}") from None


def blob_source(blob: Blob, kind: SourceKind) -> Source:
    """The provenance of a blob; ``content`` keeps the message text that came with it."""
    data = blob_bytes(blob)
    return Source(
        kind=kind,
        role=blob.role,
        chat_time=blob.chat_time,
        message_id=blob.message_id,
        content=blob.context or None,
        path=blob.path,
        url=blob.url,
        filename=blob.filename,
        file_id=blob.file_id,
        member=blob.member,
        mime=blob.mime,
        content_hash=content_hash(data) if data is not None else None,
    )


def rebuild_blob(source: Source) -> Blob:
    """The blob again from its source: a path or URL to read, and the message around it.
    A path stored in its shown form (a name that is not UTF-8, ``\\xNN``) is the file's."""
    return Blob(
        path=(disk_path(source.path) or source.path) if source.path else None,
        url=source.url,
        filename=source.filename,
        file_id=source.file_id,
        member=source.member,
        mime=source.mime,
        context=source.content or "",
        role=source.role,
        chat_time=source.chat_time,
        message_id=source.message_id,
    )


def with_message(text: str, context: str) -> str:
    """``text`` followed by the message the file came with, if there was one."""
    context = context.strip()
    return f"{text} Message: {context}" if context else text


def reference_item(
    parser: Parser[Any], blob: Blob, ctx: ParseContext, *, kind: SourceKind, noun: str
) -> MemoryItem:
    """An item that keeps the mention of content that could not be read here."""
    where = blob.url or blob.label
    text = f"{noun} was referenced ({where}) but its content was not read."
    text = with_message(text, blob.context)
    return parser.make_item(
        text,
        ctx,
        sources=[blob_source(blob, kind)],
        # No content hash to anchor the id: the reference and its message tell it apart.
        position=("reference", blob.label, blob.message_id or "", blob.chat_time or ""),
        memory_type=memory_type_for(blob),
        timestamp=message_time(blob),
        tags=[kind],
        flags=["unresolved_reference"],
    )


def message_time(blob: Blob) -> str | None:
    """The time of the message the blob came in, as ISO 8601."""
    return normalize_time(blob.chat_time)


def memory_type_for(blob: Blob) -> MemoryType:
    # The rule chat windows and text parts follow: what the user shared is UserMemory.
    return "UserMemory" if blob.role == "user" else "LongTermMemory"
