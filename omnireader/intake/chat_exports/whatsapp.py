"""A WhatsApp chat export ("Export chat" → ``WhatsApp Chat with Alice.txt``).

Each message starts a line with its date and time, then the sender:

    12/03/2024, 10:15 - Alice Moreau: are we still meeting?        (Android)
    [12/03/2024, 10:15:07] Alice Moreau: are we still meeting?     (iOS)

and lines without that header continue the message above. The date's order follows the
phone's locale and is not written down: a first field over 12 anywhere in the file means
day first, a second field over 12 means month first; with neither, day first (most of the
world). System lines (the encryption notice, "X added Y", deleted messages) are not what
anyone said; attachments become ``[media]``.
"""

from __future__ import annotations

import re
from datetime import datetime

from omnireader.models import Message

__all__ = ["looks_like_whatsapp", "whatsapp_messages"]

_DATE = r"(\d{1,2})[./-](\d{1,2})[./-](\d{2,4})"
_TIME = r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[\s\u202f]?([AaPp])\.?\s?[Mm]\.?)?"
_ANDROID = re.compile(rf"^{_DATE},?\s{_TIME}\s[-\u2013]\s(.*)$")
_IOS = re.compile(rf"^\[{_DATE},?\s{_TIME}\]\s(.*)$")
# Invisible marks WhatsApp puts before media and system lines, and around names.
_MARKS = "\u200e\u200f\u202a\u202c\ufeff"
_MEDIA = re.compile(
    r"^(?:<Media omitted>|<attached: [^>]*>|(?:image|video|audio|sticker|GIF|document|"
    r"Contact card) omitted|.* \(file attached\))$",
    re.I,
)
_DELETED = re.compile(r"^(?:This message was deleted\.?|You deleted this message\.?)$", re.I)
_SYSTEM = re.compile(r"end-to-end encrypted|security code (?:changed|with)", re.I)
_EDITED = re.compile(r"\s*<This message was edited>$")
_HEAD_LINES = 200  # enough lines to judge a file by, without reading a 5 MB log whole


def _header(line: str) -> re.Match[str] | None:
    line = line.lstrip(_MARKS)
    return _ANDROID.match(line) or _IOS.match(line)


def looks_like_whatsapp(text: str) -> bool:
    """Most of the first non-empty lines open with a WhatsApp date-time header.

    Continuation lines of long messages do not, so "most" is more than half: a log or a
    diary with the odd dated line stays ordinary text.
    """
    lines = [ln for ln in text.splitlines()[: _HEAD_LINES * 2] if ln.strip()][:_HEAD_LINES]
    hits = [m for m in map(_header, lines) if m]
    return len(hits) >= 2 and len(hits) * 2 > len(lines) and any(": " in m[8] for m in hits)


def whatsapp_messages(text: str) -> list[Message]:
    """The messages of an export, each with its sender as the speaker and its local time."""
    lines = text.splitlines()
    heads = [_header(ln) for ln in lines]
    day_first = _day_first([m for m in heads if m])
    out: list[tuple[str, str, str | None]] = []  # (sender, text, time); None sender = system
    for line, m in zip(lines, heads):
        if m is None:
            if out and out[-1][0]:  # a continuation of the message above
                sender, body, when = out[-1]
                out[-1] = (sender, f"{body}\n{line.strip(_MARKS)}", when)
            continue
        sender, sep, body = m[8].partition(": ")
        when = _when(m, day_first)
        if not sep:  # "Bob added Alice", "You changed the group name": no one said it
            out.append(("", "", when))
            continue
        out.append((sender.strip(_MARKS + " "), body, when))
    messages: list[Message] = []
    for sender, body, when in out:
        body = _body(body)
        if sender and body:
            messages.append(Message(role="user", name=sender, content=body, chat_time=when))
    return messages


def _body(body: str) -> str:
    """The message as its reader saw it: media noted, system notices and deletions gone."""
    body = _EDITED.sub("", body.strip(_MARKS).strip())
    first = body.split("\n", 1)[0].strip(_MARKS)
    if _MEDIA.match(first):
        rest = body.split("\n", 1)[1] if "\n" in body else ""  # a caption on later lines
        return "\n".join(s for s in ("[media]", rest.strip()) if s)
    if (
        _DELETED.match(body)
        or _SYSTEM.search(first)
        and body.startswith(("Messages and calls", "Messages to this", "Your security code"))
    ):
        return ""
    return body


def _day_first(heads: list[re.Match[str]]) -> bool:
    if any(int(m[1]) > 12 for m in heads):
        return True
    return not any(int(m[2]) > 12 for m in heads)


def _when(m: re.Match[str], day_first: bool) -> str | None:
    """The header's date and time, naive ISO 8601: the export does not say its zone."""
    a, b, year = int(m[1]), int(m[2]), int(m[3])
    day, month = (a, b) if day_first else (b, a)
    hour, minute, second = int(m[4]), int(m[5]), int(m[6] or 0)
    if m[7]:  # 12-hour clock: 12 am is midnight, 12 pm noon
        hour = hour % 12 + (12 if m[7].lower() == "p" else 0)
    try:
        moment = datetime(year + 2000 if year < 100 else year, month, day, hour, minute, second)
    except ValueError:
        return None
    return moment.isoformat()
