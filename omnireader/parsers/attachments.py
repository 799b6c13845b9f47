"""What the items of an e-mail attachment say about it: its own file name as their key,
and the message it came in.

The mail reader names an attachment ``attachment/<file name>`` (its member path, under
which it is found again in the message) and gives it the message's subject and Message-ID
(:class:`~omnireader.payloads.ParentMessage`). The path is provenance, not a name: the
key is the file name, so a search shows "Test TxtA.txt", not "attachment/Test TxtA.txt":

    >>> from omnireader.payloads import Blob
    >>> member_key(Blob(path="mail.eml", member="attachment/report.pdf"))
    'report.pdf'
    >>> member_key(Blob(path="mail.eml", member="attachment/docs.zip!q3/report.pdf"))
    'docs.zip!q3/report.pdf'
    >>> member_key(Blob(path="archive.zip", member="q3/report.pdf"))
    'q3/report.pdf'
"""

from __future__ import annotations

from omnireader.formats.mail import ATTACHMENT_PREFIX
from omnireader.payloads import Blob

__all__ = ["member_key", "parent_extra"]


def member_key(blob: Blob) -> str:
    """``blob``'s display name, from its innermost attachment on, without the
    ``attachment/`` path: the name the sender gave the file (then, for an attached
    archive, the path inside it)."""
    name = blob.display_name
    steps = name.split("!")
    last = max(
        (n for n, step in enumerate(steps) if step.startswith(ATTACHMENT_PREFIX)), default=None
    )
    if last is None:
        return name
    return "!".join([steps[last].removeprefix(ATTACHMENT_PREFIX), *steps[last + 1 :]])


def parent_extra(blob: Blob) -> dict[str, str]:
    """``parent_subject`` and ``parent_message_id`` of the message ``blob`` came in."""
    return blob.parent.extra() if blob.parent is not None else {}
