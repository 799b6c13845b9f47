"""Mailboxes (mbox): the messages one after another, read as a stream.

An mbox is messages joined together, each opened by a ``From `` line. They are read one
at a time from the file, so a mailbox of 10,000 messages takes the memory of its largest
message, not of the whole file:

    for n, data in iter_messages(Blob(path="archive.mbox")):
        ...                                          # n = 1, 2, ...; data = one message

A message starts at a ``From `` line that opens the file or follows a blank line (a body
line starting "From " without a blank line before it is text; writers that quote such lines
as ``>From `` are undone, mboxrd style).

A mailbox is read like a folder of messages: ``max_archive_members`` does not cap how many it
holds (nothing in it is compressed, so its size is bounded by ``max_file_bytes``), while each
message's attachments are under the container limits like any e-mail's.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import IO

from omnireader.errors import EmptyInputError, ReadError
from omnireader.formats.archives.member_names import member_blob
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic, OnError, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["iter_messages", "message_member", "MESSAGE_PREFIX"]

#: Members of an mbox are named ``message/<n>.eml`` (n counts from 1).
MESSAGE_PREFIX = "message/"
_QUOTED_FROM = re.compile(rb"^>(>*From )")


def message_member(n: int) -> str:
    return f"{MESSAGE_PREFIX}{n}.eml"


def _open(blob: Blob) -> IO[bytes]:
    if blob.data is not None:
        return io.BytesIO(blob.data)
    if blob.path is None:
        raise ReadError(blob.label, "no mailbox content given (neither bytes nor a path)")
    try:
        return open(blob.path, "rb")
    except OSError as e:
        raise ReadError(blob.label, f"cannot read: {e.strerror or e}") from None


def iter_messages(blob: Blob) -> Iterator[tuple[int, bytes]]:
    """``(n, message bytes)`` for each message of the mailbox, without its ``From `` line."""
    n = 0
    lines: list[bytes] = []
    blank_before = True
    with _open(blob) as f:
        for line in f:
            if line.startswith(b"From ") and blank_before:
                if any(ln.strip() for ln in lines):
                    n += 1
                    yield n, b"".join(lines)
                lines, blank_before = [], False
                continue
            blank_before = not line.strip()
            if line.startswith(b">") and _QUOTED_FROM.match(line):
                line = line[1:]
            lines.append(line)
    if any(ln.strip() for ln in lines):
        n += 1
        yield n, b"".join(lines)


_MBOX_FROM = re.compile(rb"^From \S+")


def _is_mbox(p: Probe) -> bool:
    return bool(_MBOX_FROM.match(p.stripped)) and p.mail_headers(p.stripped.split(b"\n", 1)[-1])


_HEADER_LINE = re.compile(rb"^[!-9;-~]{1,76}:")
_FOLDER_DATA = re.compile(rb"^X-IMAP(?:base)?:", re.I | re.M)


def _not_a_message(data: bytes) -> str | None:
    """Why a stretch of the mailbox is not a message, or None when it is one: text before
    the first ``From`` line or after the last message's end that opens with no header
    line (a trailer a tool appended), or the "FOLDER INTERNAL DATA" record IMAP servers
    keep as a mailbox's first message (``X-IMAP`` header)."""
    head = data.lstrip(b"\r\n")
    if not _HEADER_LINE.match(head):
        return "no header lines: not a message but text around the mailbox's messages"
    block = head.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    if _FOLDER_DATA.search(block):
        return "the mail server's folder data (X-IMAP), not a message"
    return None


def _members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    for n, data in iter_messages(blob):
        if (why := _not_a_message(data)) is not None:
            # Not content: skipped, and reported so the count of what was left out is true.
            error = EmptyInputError(f"{blob.label}!{message_member(n)}", f"{why}; skipped")
            if on_error is None:
                raise error
            on_error(error)
            continue
        yield member_blob(blob, message_member(n), data)


FORMATS = (
    Format(
        name="mbox",
        rank=18,
        display="MBOX",
        extensions=(".mbox",),
        mimes=("application/mbox",),
        magic=(Magic(40, _is_mbox, "text"), Magic(80, by_extension(".mbox"), "text")),
        members=_members,
        readme_group="MBOX",
        hint="a mailbox: route it (omnireader.route) so each message is read",
        readme="each message its own input (`box.mbox!message/7.eml`), streamed from the file",
    ),
)
