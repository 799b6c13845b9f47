"""A file's content and provenance: its bytes reached (an archive member read, a rebuilt
URL fetched), hashed and sniffed, and the :class:`Source` its items trace back to."""

from __future__ import annotations

import hashlib

from omnireader.errors import EmptyInputError
from omnireader.formats.sniff import Sniffed, resniff_whole, sniff
from omnireader.ids import content_hash
from omnireader.models import Source
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["hash_file", "load_file", "file_source"]

_HEAD = 1 << 20


def hash_file(path: str) -> str:
    """The SHA-256 of the file at ``path``, as hex."""
    # Streamed: the extractor may read the file itself, no need to hold it here too.
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while piece := f.read(_HEAD):
            digest.update(piece)
    return digest.hexdigest()


def load_file(blob: Blob, options: ReadOptions) -> tuple[Blob, str, Sniffed]:
    """The blob with its content reachable, the content's hash and what it is."""
    if blob.data is None and blob.member and blob.path:
        from omnireader.formats.archives.containers import read_member

        blob = blob.model_copy(update={"data": read_member(blob, options)})
    elif blob.data is None and blob.path is None and blob.url:
        from omnireader.net.fetch import fetch_for  # only a rebuilt source comes here without bytes

        got = fetch_for(blob.url, options)
        blob = blob.model_copy(update={"data": got.data, "mime": blob.mime or got.mime})
    if blob.data is not None:
        if not blob.data:
            raise EmptyInputError(blob.label, "no content (0 bytes)")
        return blob, content_hash(blob.data), _sniffed(blob, blob.data)
    assert blob.path is not None
    try:
        digest = hash_file(blob.path)
        with open(blob.path, "rb") as f:
            head = f.read(_HEAD)
    except FileNotFoundError:
        raise EmptyInputError(blob.label, "no such file") from None
    if not head:
        raise EmptyInputError(blob.label, "the file is empty (0 bytes)")
    if blob.sniffed is not None:  # the router sniffed it (from the whole file if need be)
        return blob, digest, _sniffed(blob, head)
    sniffed = sniff(head, blob.display_name)
    if resniff_whole(sniffed.kind) and len(head) == _HEAD:
        # A ZIP's directory sits at its end: a DOCX over 1 MiB needs the whole file to tell.
        sniffed = sniff(blob.read_bytes(), blob.display_name)
    return blob, digest, sniffed


def _sniffed(blob: Blob, data: bytes) -> Sniffed:
    """What ``blob`` is: what the router found, or what its bytes show."""
    if blob.sniffed is not None:
        kind, mime = blob.sniffed
        return Sniffed(kind=kind, mime=mime)
    return sniff(data, blob.display_name)


def file_source(blob: Blob, digest: str | None) -> Source:
    """Where the file's items came from, without page or chunk (``digest`` its content hash)."""
    return Source(
        kind="file",
        role=blob.role,
        chat_time=blob.chat_time,
        message_id=blob.message_id,
        path=blob.path,
        url=blob.url,
        filename=blob.source_name,
        file_id=blob.file_id,
        member=blob.member,
        mime=blob.mime,
        content_hash=digest,
    )
