"""Containers: files that hold other files (ZIP, TAR, e-mail, Outlook message, mailbox).

One rule for all of them: each member goes back to the router as a file of its own, named
``container!member`` (``mail.eml!attachment/report.pdf``, ``box.mbox!message/7.eml``,
``a.zip!docs/b.docx``, ``b.tar.gz!dir/c.md``), under the same limits -- ``max_archive_depth``
containers inside containers, ``max_archive_members`` members, ``max_archive_bytes``
unpacked -- and a member that cannot be read is reported by its own name while the others
are read. Which formats are containers, and how each yields its members, is in its record
in the format registry (``members``, ``has_body``, ``find_member``).

    for member in container_members(blob, "eml", ReadOptions()):
        route(member)

An e-mail and an Outlook message are also documents themselves (their headers and body);
a ZIP, a TAR and a mailbox are not (``Format.has_body``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from omnireader.errors import InvalidInputError, ReadError
from omnireader.formats import registry
from omnireader.formats.archives.limits import check_depth
from omnireader.formats.sniff import sniff
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["is_container", "has_body", "container_members", "read_member", "container_depth"]


def is_container(kind: str) -> bool:
    """Whether files sniffed as ``kind`` hold members that are read as files."""
    fmt = registry.get(kind)
    return fmt is not None and fmt.members is not None


def has_body(kind: str) -> bool:
    """Whether a container of ``kind`` is also a document (an e-mail's headers and body)."""
    fmt = registry.get(kind)
    return fmt is not None and fmt.has_body


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
    fmt = registry.get(kind)
    if fmt is None or fmt.members is None:
        names = [f.name for f in registry.formats() if f.members is not None]
        raise InvalidInputError(f"{kind!r} is not a container; containers are {names}")
    check_depth(blob, options)
    yield from fmt.members(blob, options, on_error)


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
    current = blob.model_copy(update={"member": None})
    name_for_sniff = current.display_name
    remaining = blob.member
    while True:
        kind = sniff(_head(current, blob.label), name_for_sniff).kind
        fmt = registry.get(kind)
        if fmt is not None and fmt.find_member is not None:
            # random access (a ZIP), or read front to back until the member comes by (TAR)
            name, found = fmt.find_member(current, remaining, options, blob.label)
        elif fmt is not None and fmt.members is not None:
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
