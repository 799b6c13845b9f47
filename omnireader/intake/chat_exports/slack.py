"""A Slack export's channel file (one day of one channel: a list of message events).

Slack writes messages in its own markup ("mrkdwn"): ``&amp; &lt; &gt;`` escaped, links as
``<https://x|label>``, mentions as ``<@U123>``, channels as ``<#C1|general>``, special
mentions and dates as ``<!here>`` / ``<!date^…|Mar 10>``. Each becomes what a reader of
the channel saw. Channel housekeeping (joins, leaves, topic changes) is not conversation.
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.intake.chat_exports.times import message_time
from omnireader.models import Message

__all__ = ["is_slack_export", "slack_messages", "slack_text"]

_HOUSEKEEPING = frozenset(
    {
        "channel_join",
        "channel_leave",
        "group_join",
        "group_leave",
        "channel_topic",
        "channel_purpose",
        "channel_name",
        "channel_archive",
        "channel_unarchive",
        "group_topic",
        "group_purpose",
        "group_name",
        "group_archive",
        "group_unarchive",
        "pinned_item",
        "unpinned_item",
        "bot_add",
        "bot_remove",
        "channel_convert_to_private",
        "tombstone",
        "message_deleted",
        "reminder_add",
        "joiner_notification",
    }
)
_MARKUP = re.compile(r"<([^<>\n]+)>")


def is_slack_export(data: Any) -> bool:
    """A list of events, most of them ``type: message`` with a ``ts``."""
    if not (isinstance(data, list) and data and all(isinstance(e, dict) for e in data)):
        return False
    messages = sum(1 for e in data if e.get("type") == "message" and "ts" in e)
    return messages * 2 > len(data) and not any("role" in e for e in data)


def slack_messages(data: list[dict[str, Any]]) -> list[Message]:
    """The channel's messages, speakers named as the export names them."""
    names = _names(data)
    out: list[Message] = []
    for e in data:
        if e.get("type") != "message" or e.get("subtype") in _HOUSEKEEPING:
            continue
        text = "\n".join(
            s
            for s in (slack_text(str(e.get("text") or ""), names), *_extras(e, names))
            if s.strip()
        )
        if not text.strip():
            continue
        bot = e.get("subtype") == "bot_message" or ("bot_id" in e and "user" not in e)
        out.append(
            Message(
                role="assistant" if bot else "user",  # a bot speaks for software, not a person
                name=_speaker(e, names),
                content=text,
                chat_time=message_time(e.get("ts")),
                message_id=str(e.get("client_msg_id") or e.get("ts") or "") or None,
            )
        )
    return out


def slack_text(text: str, names: dict[str, str]) -> str:
    """Slack markup as plain text (``names``: user id → name, for mentions)."""

    def plain(m: re.Match[str]) -> str:
        inner = m.group(1)
        target, _, label = inner.partition("|")
        if target.startswith("@"):
            return "@" + (label or names.get(target[1:], target[1:]))
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("!"):  # <!here>, <!date^…|fallback>, <!subteam^ID|@team>
            return label or "@" + target[1:].split("^", 1)[0]
        return label or target.removeprefix("mailto:")

    # Markup first: an escaped "&lt;" in the text is a literal "<", never a link's start.
    text = _MARKUP.sub(plain, text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _names(data: list[dict[str, Any]]) -> dict[str, str]:
    """User id → the name the file gives them (a day file carries each poster's profile)."""
    names: dict[str, str] = {}
    for e in data:
        user = e.get("user")
        name = _profile_name(e)
        if isinstance(user, str) and name:
            names.setdefault(user, name)
    return names


def _profile_name(e: dict[str, Any]) -> str | None:
    profile = e.get("user_profile") if isinstance(e.get("user_profile"), dict) else {}
    for value in (
        profile.get("real_name"),
        profile.get("display_name"),
        profile.get("name"),
        e.get("user_name"),
    ):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _speaker(e: dict[str, Any], names: dict[str, str]) -> str:
    user = e.get("user") if isinstance(e.get("user"), str) else None
    bot = e.get("bot_profile") if isinstance(e.get("bot_profile"), dict) else {}
    for value in (
        _profile_name(e),
        names.get(user or ""),
        e.get("username"),
        bot.get("name"),
        user,
        e.get("bot_id"),
    ):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "unknown"


def _extras(e: dict[str, Any], names: dict[str, str]) -> list[str]:
    """What a message shows besides its text: attachment cards and shared files."""
    lines: list[str] = []
    for a in e.get("attachments") or []:
        if isinstance(a, dict):
            body = a.get("text") or a.get("fallback")
            for value in (a.get("pretext"), a.get("title"), body):
                if isinstance(value, str) and value.strip():
                    lines.append(slack_text(value, names))
    for f in e.get("files") or []:
        if isinstance(f, dict) and (f.get("name") or f.get("title")):
            lines.append(f"[file: {f.get('name') or f.get('title')}]")
    return lines
