"""Containers: files that hold other files (ZIP, TAR, e-mail, Outlook message, mailbox).

One rule for all of them: each member goes back to the router as a file of its own, named
``container!member`` (``mail.eml!attachment/report.pdf``, ``box.mbox!message/7.eml``,
``a.zip!docs/b.docx``, ``b.tar.gz!dir/c.md``), under the same limits -- ``max_archive_depth`` containers inside
containers, ``max_archive_members`` members, ``max_archive_bytes`` unpacked -- and a member
that cannot be read is reported by its own name while the others are read.

    for member in container_members(blob, "eml", ReadOptions()):
        route(member)

An e-mail and an Outlook message are also documents themselves (their headers and body);
a ZIP, a TAR and a mailbox are not (:data:`HAS_BODY`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from omnireader.errors import ReadError
from omnireader.options import ReadOptions
from omnireader.payloads import Blob
from omnireader.formats.sniff import sniff
from omnireader.formats.archives.limits import check_depth

__all__ = ["CONTAINERS", "HAS_BODY", "container_members", "read_member", "container_depth"]

CONTAINERS = ("zip", "tar", "eml", "msg", "mbox")
HAS_BODY = ("eml", "msg")


def container_depth(blob: Blob) -> int:
    """How many containers ``blob`` is inside of (0 for a file that came from none)."""
    return 0 if not blob.member else blob.member.count("!") + 1


def container_members(
    blob: Blob,
    kind: str,
    options: ReadOptions,
    *,
    on_error: Callable[[ReadError], None] | None = None,
) -> Iterator[Blob]:
    """The members of ``blob`` (sniffed as ``kind``), each a :class:`Blob` with its bytes.

    Raises :class:`TooLargeError` when ``blob`` is nested deeper than ``max_archive_depth``
    or breaks the container's own limits; a member that cannot be read goes to
    ``on_error`` (or is raised).
    """
    check_depth(blob, options)
    if kind == "zip":
        from omnireader.formats.archives.zip import iter_members

        yield from iter_members(blob, options, on_error=on_error)
    elif kind == "tar":
        from omnireader.formats.archives.tar import tar_members

        yield from tar_members(blob, options, on_error=on_error)
    elif kind == "eml":
        from omnireader.formats.mail.message import email_members

        yield from email_members(blob, options, on_error=on_error)
    elif kind == "msg":
        from omnireader.formats.mail.message import email_members, parse_message
        from omnireader.formats.mail.outlook import msg_to_mime

        mime = msg_to_mime(blob.read_bytes(), blob.label)
        msg = parse_message(mime, blob.label, options)
        yield from email_members(blob, options, on_error=on_error, msg=msg)
    elif kind == "mbox":
        from omnireader.formats.mail.mbox import iter_messages, message_member
        from omnireader.formats.archives.member_names import member_blob

        for n, data in iter_messages(blob):
            yield member_blob(blob, message_member(n), data)
    else:
        raise ValueError(f"{kind!r} is not a container; containers are {CONTAINERS}")


def _ignore(error: ReadError) -> None:
    """Other members' failures do not matter when looking for one member."""


def _head(blob: Blob, label: str) -> bytes:
    """Enough of ``blob`` to tell what it is; a ZIP or TAR on disk is then opened in place."""
    from omnireader.formats.archives.tar_sniff import tar_codec

    if blob.data is not None:
        return blob.data
    try:
        with open(blob.path or "", "rb") as f:
            head = f.read(1 << 20)
    except OSError as e:
        raise ReadError(label, f"cannot read: {e.strerror or e}") from None
    return head if head.startswith(b"PK") or tar_codec(head) is not None else blob.read_bytes()


def read_member(blob: Blob, options: ReadOptions) -> bytes:
    """The bytes of ``blob.member`` from the container at ``blob.path`` (or in
    ``blob.data``), through every container on the way (``a.zip!b.eml!attachment/c.pdf``).
    """
    if not blob.member:
        raise ReadError(blob.label, "not a member of an archive, e-mail or mailbox")
    from omnireader.formats.archives.zip import zip_member
    from omnireader.formats.archives.tar import tar_member

    current = blob.model_copy(update={"member": None})
    name_for_sniff = current.display_name
    remaining = blob.member
    while True:
        kind = sniff(_head(current, blob.label), name_for_sniff).kind
        if kind in ("zip", "docx", "pptx", "xlsx", "epub", "odt", "ods", "odp"):
            name, found = zip_member(current, remaining, options, blob.label)
        elif kind == "tar":  # read front to back until the member comes by
            name, found = tar_member(current, remaining, options, blob.label)
        elif kind in CONTAINERS:
            bare = current.model_copy(update={"member": None})
            name, found = "", b""
            for member in container_members(bare, kind, options, on_error=_ignore):
                m = member.member or ""
                if (remaining == m or remaining.startswith(m + "!")) and len(m) > len(name):
                    name, found = m, member.read_bytes()
                    if remaining == m:
                        break
            if not name:
                raise ReadError(blob.label, f"the {kind} has no member {remaining!r}")
        else:
            raise ReadError(blob.label, f"a {kind} file holds no member {remaining!r}")
        if remaining == name:
            return found
        remaining = remaining[len(name) + 1 :]
        current = Blob(data=found, path=blob.path, password=blob.password)
        name_for_sniff = name
