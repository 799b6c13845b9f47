"""Which conversation a message of a mailbox belongs to, across the mailbox's messages.

A message's headers name its thread (:attr:`MailHeaders.thread`): the first id of
``References`` (RFC 5322 3.6.4: the parent's references, then the parent, so the first is the
root), else the ``In-Reply-To`` parent, else the message itself. That holds when mailers
write ``References`` in full; many do not (Yahoo writes only the parent, some clients only
``In-Reply-To``), and each reply of one conversation then names a different "root":
complex.mbox's three messages named three threads.

In an mbox the parents are often there too, so a message whose ``References`` or
``In-Reply-To`` names a message of the same mailbox takes that message's thread, the oldest
such ancestor first (References lists them oldest first), followed up the chain:

    mailbox_thread(blob, headers)   # blob: box.mbox!message/3.eml -> its conversation's root

The mailbox's headers are read once per file (one pass, headers only) and kept for a few
files. A message not read from an mbox file on disk (a single .eml, an mbox inside a ZIP or
given as bytes) keeps the thread its own headers name.
"""

from __future__ import annotations

import email.parser
import email.policy
import os
import stat
from functools import lru_cache

from omnireader.formats.mail.headers import MailHeaders, mail_headers
from omnireader.formats.mail.mbox import MESSAGE_PREFIX, iter_messages
from omnireader.payloads import Blob

__all__ = ["MailboxThreads", "mailbox_thread", "parent_in_mailbox"]

_HEADERS_ONLY = email.parser.BytesHeaderParser(policy=email.policy.compat32)


class MailboxThreads:
    """The messages of one mailbox by Message-ID: the ancestors each names, and its thread."""

    def __init__(self) -> None:
        self._named: dict[str, tuple[list[str], str]] = {}  # id -> (ancestors, own thread)
        self._memo: dict[str, str] = {}

    def add(self, headers: MailHeaders) -> None:
        own = headers.message_id
        if own and own not in self._named and headers.thread:
            self._named[own] = (self._ancestors(headers), headers.thread)

    @staticmethod
    def _ancestors(headers: MailHeaders) -> list[str]:
        found = [*headers.references, *([headers.in_reply_to] if headers.in_reply_to else [])]
        return [i for i in dict.fromkeys(found) if i != headers.message_id]

    def _root_of(self, message_id: str) -> str:
        """The thread of a message of the mailbox, up its chain of ancestors there."""
        chain: list[str] = []
        current = message_id
        while True:
            if current in self._memo:
                root = self._memo[current]
                break
            if current in chain:  # ids that name each other: the headers' own answer
                root = self._named[current][1]
                break
            chain.append(current)
            ancestors, own = self._named[current]
            parent = next((a for a in ancestors if a in self._named), None)
            if parent is None:
                root = own
                break
            current = parent
        for visited in chain:
            self._memo[visited] = root
        return root

    def holds_parent(self, headers: MailHeaders) -> bool:
        """Whether a message that ``headers`` answers is in the mailbox."""
        return any(a in self._named for a in self._ancestors(headers))

    def thread(self, headers: MailHeaders) -> str | None:
        """The thread of a message with ``headers``: that of its oldest ancestor in the
        mailbox, else the one its headers name."""
        for ancestor in self._ancestors(headers):
            if ancestor in self._named:
                return self._root_of(ancestor)
        return headers.thread


@lru_cache(maxsize=4)
def _mailbox(path: str, mtime_ns: int, size: int) -> MailboxThreads:
    # mtime and size are in the key so a mailbox changed on disk is read again
    threads = MailboxThreads()
    for _, data in iter_messages(Blob(path=path)):
        head = data.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
        threads.add(mail_headers(_HEADERS_ONLY.parsebytes(head)))
    return threads


def _own_mailbox(blob: Blob) -> MailboxThreads | None:
    """The mailbox of the message ``blob`` when it is a message of an mbox file on disk
    (``box.mbox!message/<n>.eml``), else None."""
    member = blob.member or ""
    if not (blob.path and member.startswith(MESSAGE_PREFIX) and "!" not in member):
        return None
    try:
        found = os.stat(blob.path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return _mailbox(blob.path, found.st_mtime_ns, found.st_size)


def mailbox_thread(blob: Blob, headers: MailHeaders) -> str | None:
    """The thread of the message ``blob``: resolved across its mailbox when it is a message
    of an mbox file (``box.mbox!message/<n>.eml``), else the one its headers name."""
    box = _own_mailbox(blob)
    return box.thread(headers) if box is not None else headers.thread


def parent_in_mailbox(blob: Blob, headers: MailHeaders) -> bool:
    """Whether a message the message ``blob`` answers is in its own mbox file: then what
    it quotes of that message is read there already."""
    box = _own_mailbox(blob)
    return box is not None and box.holds_parent(headers)
