"""ChatGPT's data export (``conversations.json``): each conversation as the messages shown.

A conversation is a tree (``mapping``: node id → message, parent, children): every edit
or regeneration starts a branch. ``current_node`` is the leaf the user last saw, so the
conversation is the path from it back to the root; abandoned branches are not part of it.
System prompts, hidden messages (custom instructions, memory updates) and empty ones are
left out. An assistant message addressed to a tool (``recipient`` other than ``all``: the
Python sandbox, the browser, DALL·E) is a tool call, and the tool's reply its result.
"""

from __future__ import annotations

import json
from typing import Any

from omnireader.intake.chat_exports.times import message_time
from omnireader.models import Message, ToolCall, ToolCallFunction

__all__ = ["is_chatgpt_export", "chatgpt_conversations"]

# Content types whose text is conversation; the rest (thoughts, model context, user
# instructions...) is the app's machinery.
_SHOWN = (
    "text",
    "multimodal_text",
    "code",
    "execution_output",
    "tether_quote",
    "tether_browsing_display",
)


def is_chatgpt_export(data: Any) -> bool:
    """A list of conversations (or one) each with a ``mapping`` of message nodes."""
    convos = data if isinstance(data, list) else [data]
    return bool(convos) and all(
        isinstance(c, dict) and isinstance(c.get("mapping"), dict) for c in convos
    )


def chatgpt_conversations(data: Any) -> list[tuple[str | None, list[Message]]]:
    """(title, messages) for each conversation of the export, in the export's order."""
    convos = data if isinstance(data, list) else [data]
    out: list[tuple[str | None, list[Message]]] = []
    for convo in convos:
        title = convo.get("title") if isinstance(convo.get("title"), str) else None
        out.append((title, _messages(_branch(convo["mapping"], convo.get("current_node")))))
    return out


def _branch(mapping: dict[str, Any], leaf: Any) -> list[dict[str, Any]]:
    """The nodes from the root to ``leaf`` (the latest leaf when the export names none)."""
    if not isinstance(leaf, str) or leaf not in mapping:
        leaves = [k for k, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
        leaf = max(leaves, key=lambda k: _created(mapping[k]), default=None)
    path: list[dict[str, Any]] = []
    seen: set[str] = set()
    while isinstance(leaf, str) and leaf in mapping and leaf not in seen:
        seen.add(leaf)  # a malformed export with a cycle still ends
        node = mapping[leaf]
        if not isinstance(node, dict):
            break
        path.append(node)
        leaf = node.get("parent")
    return path[::-1]


def _created(node: dict[str, Any]) -> float:
    message = node.get("message")
    when = message.get("create_time") if isinstance(message, dict) else None
    return float(when) if isinstance(when, (int, float)) else 0.0


def _messages(nodes: list[dict[str, Any]]) -> list[Message]:
    out: list[Message] = []
    pending: list[ToolCall] = []  # calls made and not yet answered, oldest first
    for node in nodes:
        m = node.get("message")
        if not isinstance(m, dict) or _hidden(m):
            continue
        role = (m.get("author") or {}).get("role")
        content = m.get("content") if isinstance(m.get("content"), dict) else {}
        if content.get("content_type") not in _SHOWN:
            continue
        text = _text(content)
        if not text.strip():
            continue
        when, mid = message_time(m.get("create_time")), m.get("id")
        recipient = m.get("recipient")
        if role == "assistant" and recipient not in (None, "all"):
            function = ToolCallFunction(name=recipient, arguments=_args(text, content))
            call = ToolCall(id=mid or f"call_{len(out)}", function=function)
            pending.append(call)
            out.append(Message(role="assistant", tool_calls=[call], chat_time=when, message_id=mid))
        elif role == "tool":
            if not pending:
                continue  # the app talking to itself (e.g. a memory update), not a reply
            call = pending.pop(0)
            out.append(
                Message(
                    role="tool",
                    content=text,
                    tool_call_id=call.id,
                    name=call.function.name,
                    chat_time=when,
                    message_id=mid,
                )
            )
        elif role in ("user", "assistant"):
            out.append(Message(role=role, content=text, chat_time=when, message_id=mid))
    return out


def _hidden(m: dict[str, Any]) -> bool:
    meta = m.get("metadata") if isinstance(m.get("metadata"), dict) else {}
    role = (m.get("author") or {}).get("role")
    return role == "system" or bool(
        meta.get("is_visually_hidden_from_conversation") or meta.get("is_user_system_message")
    )


def _text(content: dict[str, Any]) -> str:
    """The text of a message's content; images and audio noted, never their pointers."""
    if isinstance(content.get("text"), str):  # code, execution output, quotes
        return content["text"]
    if isinstance(content.get("result"), str):  # a browsing tool's page
        return content["result"]
    pieces: list[str] = []
    for part in content.get("parts") or []:
        if isinstance(part, str):
            pieces.append(part)
        elif isinstance(part, dict):
            kind = str(part.get("content_type", ""))
            if isinstance(part.get("text"), str):  # e.g. an audio transcription
                pieces.append(part["text"])
            elif "image" in kind:
                pieces.append("[image]")
            elif "audio" in kind:
                pieces.append("[audio]")
    return "\n".join(p for p in pieces if p.strip())


def _args(text: str, content: dict[str, Any]) -> dict[str, Any]:
    """A tool call's arguments: the JSON object the model wrote, or its code / query."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value
    return {"code" if content.get("content_type") == "code" else "input": text}
