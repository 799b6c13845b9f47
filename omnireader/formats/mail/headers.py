"""The header fields of an e-mail that become item metadata, decoded to text.

RFC 2047 encoded words (``=?koi8-r?B?...?=``) are decoded in their charset, raw 8-bit
header bytes (which many mailers send) by the same guess as text files, and addresses are
split into names and addresses:

    >>> h = mail_headers(email.message_from_bytes(b"Subject: =?utf-8?q?Caf=C3=A9?=\\n"
    ...     b"From: Ann Lee <ann@example.org>\\n\\nhi"))
    >>> h.subject, h.persons
    ('Café', ['Ann Lee', 'ann@example.org'])
"""

from __future__ import annotations

import email
import email.header
import email.utils
import re
from datetime import UTC, datetime
from email.message import Message

from pydantic import BaseModel, Field

from omnireader.formats.name_order import natural_order
from omnireader.formats.plain.text import codec_for, decode_text
from omnireader.formats.word_lists import load_word_list

__all__ = ["MailHeaders", "mail_headers", "header_text"]

_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_ENCODED_WORD = re.compile(r"=\?([A-Za-z0-9_.:-]+)(?:\*[^?]*)?\?[QqBb]\?")


class MailHeaders(BaseModel):
    """What a message's headers say, decoded."""

    subject: str = ""
    sender: str = ""  # the From field as written (names and addresses)
    to: str = ""
    cc: str = ""
    bcc: str = ""  # kept by the sender's copy of a message (a Sent folder, a draft)
    reply_to: str = ""  # where replies go when not to From: a list, an assistant, a desk
    date: str | None = None  # ISO 8601
    date_text: str = ""  # the Date field as written
    message_id: str | None = None
    in_reply_to: str | None = None
    references: list[str] = Field(default_factory=list)
    # names and addresses of From/To/Cc/Bcc/Reply-To
    persons: list[str] = Field(default_factory=list)

    @property
    def thread(self) -> str | None:
        """The id of the message that started the thread: the first reference, else the
        message replied to, else this message itself."""
        if self.references:
            return self.references[0]
        return self.in_reply_to or self.message_id

    def lines(self) -> list[str]:
        """The fields worth reading, as ``Name: value`` lines."""
        fields = [
            ("Subject", self.subject),
            ("From", self.sender),
            ("To", self.to),
            ("Cc", self.cc),
            ("Date", self.date_text),
        ]
        return [f"{name}: {value}" for name, value in fields if value]


def _decode_bytes(raw: bytes, charset: str | None, charsets: tuple[str, ...]) -> str:
    codec = codec_for(charset)
    if codec:
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            pass  # a wrong charset label: decode as unlabelled bytes
    return raw.decode("ascii") if raw.isascii() else _raw_8bit(raw, charsets)


def _raw_8bit(raw: bytes, charsets: tuple[str, ...]) -> str:
    """Header bytes sent unencoded: UTF-8 if they are, else the charset the rest of the
    message uses (a few bytes are too short to guess from), else a guess."""
    for charset in ("utf-8", *charsets):
        try:
            return raw.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return decode_text(raw, "<header>")


def header_text(value: object, charsets: tuple[str, ...] = ()) -> str:
    """A header value as text: encoded words decoded, raw 8-bit bytes decoded in the
    message's own ``charsets`` (or guessed), folding and control characters removed."""
    if value is None:
        return ""
    if isinstance(value, email.header.Header):
        pieces = email.header.decode_header(value)
    else:
        text = str(value)
        if any("\udc80" <= ch <= "\udcff" for ch in text):
            # Raw 8-bit bytes in the header (parsed with surrogateescape).
            text = _raw_8bit(text.encode("ascii", "surrogateescape"), charsets)
        try:
            pieces = email.header.decode_header(text)
        except (ValueError, AssertionError):  # a malformed encoded word: keep it as written
            pieces = [(text, None)]
    out = []
    for piece, charset in pieces:
        out.append(_decode_bytes(piece, charset, charsets) if isinstance(piece, bytes) else piece)
    # decode_header drops the space between an encoded word and plain text only when the
    # standard says so; joining with "" keeps what it returned.
    joined = "".join(out) if any(isinstance(p, bytes) for p, _ in pieces) else " ".join(out)
    # Control characters (a CR/LF smuggled into a name) never survive into metadata.
    return _SPACE.sub(" ", _CONTROL.sub(" ", joined)).strip()


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    out = []
    for name, addr in email.utils.getaddresses(values):
        name, addr = name.strip(), addr.strip()
        if any(ch.isspace() for ch in addr):
            # Words in angle brackets are no mailbox (an address has no spaces): a saved
            # web page's "From: <Saved by Windows Internet Explorer 7>" names a program.
            addr = ""
        if name or addr:
            out.append((name, addr))
    return out


def _system_mailbox(address: str) -> bool:
    """Whether ``address`` (or a bare mailbox name) is a mail system's or a program's
    (``data/system_mailboxes.txt``): MAILER-DAEMON, postmaster, noreply, …"""
    local = address.rsplit("@", 1)[0].strip()
    return bool(local) and " " not in local and load_word_list("system_mailboxes").match(local)


def _iso_date(value: str) -> str | None:
    """The Date field as ISO 8601: RFC 5322 dates, and the ISO 8601 dates some tools and
    exports write instead ("2024-03-01T10:00:00Z")."""
    if not value:
        return None
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        moment = _iso_8601(value)
    if moment is not None and moment.tzinfo is None:
        # parsedate_to_datetime returns a naive time for "-0000" and for an unknown zone
        # name; RFC 5322 (3.3, 4.3) says both are UTC, with the sender's zone unknown. A
        # naive value would be read as local time and could not be compared with the rest.
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat() if moment is not None else None


def _iso_8601(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value.strip())  # 3.11: "Z", offsets, a space for T
    except ValueError:
        return None
    return moment  # a date with no zone is made UTC by the caller, as "-0000" is


def _ids(value: str) -> list[str]:
    return _MESSAGE_ID.findall(value or "")


def _charsets(msg: Message) -> tuple[str, ...]:
    """The charsets a message names: in its encoded words, then in its parts."""
    found: list[str] = []
    for value in msg.values():
        found += [c.lower() for c in _ENCODED_WORD.findall(str(value))]
    try:
        found += [c for c in msg.get_charsets() if c]
    except (TypeError, ValueError, LookupError):
        pass
    return tuple(dict.fromkeys(c for c in found if c not in ("us-ascii", "utf-8")))


def mail_headers(msg: Message) -> MailHeaders:
    """The decoded header fields of ``msg`` (parsed with any policy)."""
    charsets = _charsets(msg)

    def get(name: str) -> str:
        return header_text(msg.get(name), charsets)

    sender, to, cc, bcc = get("From"), get("To"), get("Cc"), get("Bcc")
    reply_to = get("Reply-To")
    persons: list[str] = []
    for name, addr in _addresses([v for v in (sender, to, cc, bcc, reply_to) if v]):
        if _system_mailbox(addr or name):
            continue  # a bounce's MAILER-DAEMON, a notice's noreply: no person
        # "Bottema, Benny" (a directory's order) is the Benny Bottema of another message
        for value in (natural_order(name.strip("'\" ")), addr):
            if value and value not in persons:
                persons.append(value)
    date_text = get("Date")
    own = _ids(get("Message-ID"))
    replied = _ids(get("In-Reply-To"))
    return MailHeaders(
        subject=get("Subject"),
        sender=sender,
        to=to,
        cc=cc,
        bcc=bcc,
        reply_to=reply_to,
        date=_iso_date(date_text),
        date_text=date_text,
        message_id=own[0] if own else None,
        in_reply_to=replied[0] if replied else None,
        references=_ids(get("References")),
        persons=persons,
    )
