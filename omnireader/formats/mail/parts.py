"""E-mail: which parts of a message are its text, which are members, which are ciphertext.

Text parts shown inline are body (of a ``multipart/alternative`` only the best one: the
plain text, else the HTML); resources of an HTML page (``multipart/related``: style sheets,
scripts, the logos it shows inline, :mod:`.related`) are neither, the images named in
``inline_images``; everything else is a member, attached messages (``message/rfc822``,
digest entries) included. PGP and S/MIME ciphertext is sorted apart, never read as text.
"""

from __future__ import annotations

import re
from email.message import Message
from typing import NamedTuple

from omnireader.formats.mail.body import best_alternative, payload
from omnireader.formats.mail.related import related_parts
from omnireader.formats.mail.returned import RETURNED_TYPES, bodiless_copy

__all__ = ["PartLayout", "part_layout"]

_PGP_ARMOUR = re.compile(rb"\s{0,64}-----BEGIN PGP MESSAGE-----")
_ENCRYPTED_TYPES = {
    "application/pgp-encrypted",
    "application/pkcs7-mime",
    "application/x-pkcs7-mime",
}
_SIGNATURE_TYPES = {
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
}
_BODY_TEXT = {"text/plain", "text/html", "message/delivery-status"}


class PartLayout(NamedTuple):
    """The parts of one message, sorted by what becomes of them."""

    body: list[Message]  # parts read as the message's text, in order
    members: list[tuple[Message, bool]]  # (part, is a whole message)
    encrypted: list[Message]  # ciphertext parts
    furniture: list[Message]  # what an HTML body shows inline (:mod:`.related`): not read


def _is_attachment(part: Message) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    return disposition == "attachment" or bool(part.get_filename())


def _is_ciphertext(part: Message, ctype: str) -> bool:
    """PGP / S/MIME ciphertext: by its type, or, when a mailer (Outlook, a webmail export)
    labelled it ``application/octet-stream``, by its S/MIME file name (``smime.p7m``)."""
    declared = (part.get("Content-Type") or "").lower()
    if "signed-data" in declared:
        return False  # an opaque signature wraps readable content: not ciphertext
    if ctype in _ENCRYPTED_TYPES:
        return True
    name = (part.get_filename() or "").strip().lower()
    if ctype == "application/octet-stream" and name.endswith((".p7m", ".pgp", ".gpg")):
        return True
    # PGP armour in an attachment of any label (Outlook saves a PGP/MIME message's
    # ciphertext as "encrypted.asc", text/plain or octet-stream): ciphertext, never text.
    return _is_attachment(part) and _PGP_ARMOUR.match(payload(part) or b"") is not None


def part_layout(msg: Message) -> PartLayout:
    """Sort the parts of ``msg``: body, members, ciphertext (iteratively: no recursion)."""
    out = PartLayout([], [], [], [])
    stack: list[tuple[Message, str]] = [(msg, "")]  # (part, subtype of its parent)
    while stack:
        part, parent = stack.pop()
        ctype = part.get_content_type()
        if parent == "digest" and not part.get("Content-Type"):
            ctype = "message/rfc822"  # a digest's entries are messages unless they say
        if ctype == "message/delivery-status":  # a bounce's report: header lines, read as text
            out.body.append(part)
            continue
        if ctype in RETURNED_TYPES and (  # a bounce's copy of a header block: its own text
            ctype != "message/rfc822" or (parent == "report" and bodiless_copy(part))
        ):
            out.body.append(part)
            continue
        if ctype == "message/rfc822" or (part.is_multipart() and ctype.startswith("message/")):
            out.members.append((part, True))
            continue
        if part.is_multipart():
            sub = part.get_content_subtype()
            children = part.get_payload()
            if not isinstance(children, list):
                continue
            if sub == "encrypted":
                out.encrypted.append(part)
                continue
            if sub == "alternative":
                children = [best_alternative(children)] if children else []
            elif sub == "signed":
                children = [c for c in children if c.get_content_type() not in _SIGNATURE_TYPES]
            elif sub == "related":  # the page's own images and styles are not members
                children, furniture = related_parts(part)
                out.furniture.extend(furniture)
            stack.extend((child, sub) for child in reversed(children))
            continue
        if _is_ciphertext(part, ctype):
            out.encrypted.append(part)
        elif ctype in _SIGNATURE_TYPES:
            continue
        elif ctype in _BODY_TEXT and not _is_attachment(part):
            out.body.append(part)
        else:
            out.members.append((part, False))
    return out
