"""Chat exports people download from their apps, as conversations of :class:`Message`.

One module per app: ChatGPT's ``conversations.json`` (:mod:`.chatgpt`), a Slack channel
file (:mod:`.slack`), a WhatsApp ``.txt`` export (:mod:`.whatsapp`). Each is recognised by
its shape, never by its file name alone, so any other JSON or text stays a document.
Message lists in the OpenAI or Claude shape are not exports: :mod:`omnireader.intake.openai_shapes`
reads those.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from omnireader.intake.chat_exports.chatgpt import chatgpt_conversations, is_chatgpt_export
from omnireader.intake.chat_exports.slack import is_slack_export, slack_messages
from omnireader.intake.chat_exports.times import message_time
from omnireader.intake.chat_exports.whatsapp import looks_like_whatsapp, whatsapp_messages
from omnireader.models import Message

__all__ = ["ChatLog", "json_export", "text_export", "looks_like_whatsapp", "message_time"]


@dataclass
class ChatLog:
    """One conversation of a file: its messages, and its title when the export has one."""

    messages: list[Message]
    title: str | None = None


def json_export(data: Any) -> list[ChatLog] | None:
    """The conversations of a loaded JSON export, or None when it is no export we know."""
    if is_chatgpt_export(data):
        return [ChatLog(messages, title) for title, messages in chatgpt_conversations(data)]
    if is_slack_export(data):
        return [ChatLog(slack_messages(data))]
    return None


def text_export(text: str, name: str) -> list[ChatLog] | None:
    """The conversation of a text export (``name``: the file's name, its title)."""
    if not looks_like_whatsapp(text):
        return None
    return [ChatLog(whatsapp_messages(text), PurePath(name).stem or None)]
