"""E-mail: parsing a message's MIME structure, refusing MIME bombs before the parser sees them.

The standard library parses the MIME structure. Its parser slows down with the square of
the nesting depth (500 nested multiparts take 20 s), so the structure is counted first, in
one pass over the bytes, and a message with more multiparts than :data:`MAX_MULTIPARTS` or
more parts than ``max_archive_members`` is refused as a MIME bomb before it is parsed.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import Message

from omnireader.errors import TooLargeError
from omnireader.options import ReadOptions

__all__ = ["parse_message", "wide_text_to_utf8", "MAX_MULTIPARTS", "PARSE_POLICY"]

#: Multipart containers one message may declare (real mail has a handful).
MAX_MULTIPARTS = 200


class _TextHeaders(email.policy.Compat32):
    """compat32, except that a header holding raw 8-bit bytes (an attachment's file name
    sent unencoded, in Latin-1...) is given as text, its bytes as surrogates, not as a
    ``Header`` object: string methods work on every field (a ``Header`` has none: such a
    message failed as a whole), and :func:`.headers.header_text` decodes the bytes in the
    message's charsets instead of the U+FFFD that ``str(Header)`` leaves of them."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        return value


#: compat32 parses structure 15-20 times faster than policy.default, which builds a full
#: header object for every part's Content-Type; the fields we keep are decoded by
#: :mod:`.headers` instead.
PARSE_POLICY = _TextHeaders()
_BOUNDARY = re.compile(rb"""boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))""", re.I)


def _check_structure(data: bytes, label: str, options: ReadOptions) -> None:
    """Refuse a MIME bomb from its bytes alone (linear time), before the parser sees it."""
    declared = {a or b for a, b in _BOUNDARY.findall(data)}
    count = len(_BOUNDARY.findall(data))
    if count > MAX_MULTIPARTS:
        raise TooLargeError(
            label,
            f"declares {count} multipart containers, over the limit of "
            f"{MAX_MULTIPARTS} (a MIME bomb); not parsed",
        )
    if not declared:
        return
    delimiter = re.compile(rb"^--(?:" + b"|".join(re.escape(b) for b in declared) + rb")", re.M)
    parts = sum(1 for _ in delimiter.finditer(data))
    if parts > 2 * options.max_archive_members + 2 * count:
        raise TooLargeError(
            label,
            f"holds about {parts} MIME parts, over the max_archive_members limit of "
            f"{options.max_archive_members} (a MIME bomb); not parsed",
        )


def wide_text_to_utf8(data: bytes) -> bytes:
    """A message saved as UTF-16 or UTF-32 (with or without a BOM; Windows tools do this)
    as the UTF-8 bytes it decodes to, which the MIME parser reads; other bytes unchanged.

    MIME is a byte format: parsed as it is, a UTF-16 message has NUL bytes between every
    header letter, so no field is found and the whole file is stored as raw MIME."""
    from omnireader.formats.plain.text import bomless_unicode, detect_encoding

    if b"\x00" not in data[:4096]:
        return data
    encoding = detect_encoding(data[:4096])
    if not encoding.startswith(("utf-16", "utf-32")):
        encoding = bomless_unicode(data) or ""
    if not encoding:
        return data
    if encoding in ("utf-16", "utf-32"):  # a BOM says the byte order; the codec reads it
        text = data.decode(encoding, errors="replace")
    else:
        width = 4 if encoding.startswith("utf-32") else 2
        text = data[: len(data) // width * width].decode(encoding, errors="replace")
    return text.lstrip("\ufeff").encode("utf-8")


def parse_message(data: bytes, label: str, options: ReadOptions) -> Message:
    """The parsed message, after the bomb check; raises :class:`TooLargeError` for bombs.
    A message saved as UTF-16 / UTF-32 is decoded first (:func:`wide_text_to_utf8`)."""
    data = wide_text_to_utf8(data)
    _check_structure(data, label, options)
    try:
        return email.message_from_bytes(data, policy=PARSE_POLICY)
    except RecursionError:
        raise TooLargeError(label, "MIME parts nested too deeply to read") from None
