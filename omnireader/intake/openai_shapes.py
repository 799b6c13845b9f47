"""Validate the chat-format inputs agents pass: messages, content parts, tool-call pairing.

Messages come in the OpenAI shape, or in Claude's (content blocks for tool calls, results,
images and documents: rewritten by :mod:`omnireader.intake.claude_shapes`), with their time as
``chat_time`` or under a name other tools use for it (``timestamp``, ``created_at``...).
Files holding messages, or an app's chat export (:mod:`omnireader.intake.chat_exports`), are read
by :func:`chat_log` as conversations.

Errors are :class:`~omnireader.errors.InvalidInputError` naming what is wrong and what is
valid, never a validation trace from deep inside pydantic.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath
from typing import Any

from pydantic import TypeAdapter, ValidationError

from omnireader.errors import CorruptError, InvalidInputError
from omnireader.intake.chat_exports import (
    ChatLog,
    json_export,
    looks_like_whatsapp,
    message_time,
    text_export,
)
from omnireader.intake.claude_shapes import expand_message, system_message
from omnireader.models import AudioPart, ContentPart, FilePart, ImagePart, Message, TextPart

__all__ = [
    "PART_TYPES",
    "normalize_part",
    "parse_messages",
    "parse_parts",
    "is_message",
    "is_part",
    "check_tool_pairing",
    "chat_log",
    "chat_logs",
    "chat_in_bytes",
    "CHAT_SUFFIXES",
    "ChatLog",
]

PART_TYPES = (
    "text, file, image_url, input_audio (and the Responses API's input_text, input_image, "
    "input_file, output_text)"
)
_MESSAGES = TypeAdapter(list[Message])
_PARTS = TypeAdapter(list[ContentPart])


def _first_error(e: ValidationError, origin: list[int] | None = None) -> str:
    """The error that says what is wrong, with its place in the input.

    A union (content: str | list of parts) fails once per branch; the deepest location is
    the branch the input was meant for, e.g. the part whose type is unknown. ``origin``
    maps each validated message to the one it came from, when one became several.
    """
    err = max(e.errors(), key=lambda x: len(x["loc"]))
    if origin and err["loc"] and isinstance(err["loc"][0], int) and err["loc"][0] < len(origin):
        err = {**err, "loc": (origin[err["loc"][0]], *err["loc"][1:])}
    # pydantic names union branches in the location ("str", "list[tagged-union[...]]").
    loc = ".".join(
        str(p) for p in err["loc"] if not (isinstance(p, str) and (p in _BRANCHES or "[" in p))
    )
    msg = err["msg"]
    value = err.get("input")
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        msg += f", got {str(value)[:40]!r}"  # what was sent, so the mistake is plain to see
    return f"{loc}: {msg}" if loc else msg


_BRANCHES = {"str", "int", "float", "bool", "list", "dict", "none"}


def normalize_part(raw: Any) -> Any:
    """A content part in the Chat Completions shape the models validate.

    Agents also send the Responses API's parts (``input_text``, ``output_text``,
    ``input_image`` with ``image_url`` as a string, ``input_file`` with its fields at the top)
    and ``image_url`` given as a plain string; each is the same content in another shape.
    """
    if not isinstance(raw, dict):
        return raw
    kind = raw.get("type")
    rest = {k: v for k, v in raw.items() if k != "type"}
    if kind in ("input_text", "output_text"):
        return {
            "type": "text",
            "text": raw.get("text"),
            **{k: v for k, v in rest.items() if k != "text" and k != "annotations"},
        }
    if kind == "image_url" and isinstance(raw.get("image_url"), str):
        return {**raw, "image_url": {"url": raw["image_url"]}}
    if kind == "input_image":
        url = raw.get("image_url")
        if isinstance(url, dict):
            url = url.get("url")
        if url:
            image: dict[str, Any] = {"url": url}
            if raw.get("detail") in ("auto", "low", "high"):
                image["detail"] = raw["detail"]
            return {"type": "image_url", "image_url": image}
        if raw.get("file_id"):  # an uploaded image, by reference only
            return {
                "type": "file",
                "file": {"file_id": raw["file_id"], "filename": raw.get("filename")},
            }
        return raw  # fails validation below, naming the part
    if kind == "input_file":
        spec = {k: raw[k] for k in ("file_data", "filename", "file_id") if raw.get(k)}
        if raw.get("file_url") and not spec.get("file_data"):
            spec["file_data"] = raw["file_url"]
        return {"type": "file", "file": spec}
    return raw


# Where other tools and exports keep a message's time, in the order they are trusted.
TIME_ALIASES = ("timestamp", "created_at", "create_time", "time", "ts")


def _with_time(raw: Any) -> Any:
    """``chat_time`` from the first alias that reads as a time, when the message has none.

    An alias that is not a time (``"time": "morning"``) is left alone, not guessed at.
    """
    if not isinstance(raw, dict) or raw.get("chat_time") is not None:
        return raw
    for key in TIME_ALIASES:
        when = message_time(raw.get(key))
        if when:
            return {**raw, "chat_time": when}
    return raw


def _normalize_message(raw: Any, n: int) -> list[Any]:
    """One input message as the OpenAI-shaped messages it stands for (Claude: several)."""
    out = expand_message(_with_time(raw), n)
    return [
        {**m, "content": [normalize_part(p) for p in m["content"]]}
        if isinstance(m, dict) and isinstance(m.get("content"), list)
        else m
        for m in out
    ]


def parse_messages(raw: list[Any]) -> list[Message]:
    """Validate chat messages; a clear :class:`InvalidInputError` names what is wrong."""
    shaped: list[Any] = []
    origin: list[int] = []  # the input message each shaped one came from, for errors
    for n, m in enumerate(raw):
        for one in _normalize_message(m, n):
            shaped.append(one)
            origin.append(n)
    try:
        return _MESSAGES.validate_python(shaped)
    except ValidationError as e:
        raise InvalidInputError(
            f"not a valid chat message list ({_first_error(e, origin)}); messages need a role of "
            f"system / developer / user / assistant / tool and content parts of type "
            f"{PART_TYPES}"
        ) from None


def parse_parts(raw: list[Any]) -> list[Any]:
    try:
        return _PARTS.validate_python([normalize_part(p) for p in raw])
    except ValidationError as e:
        kinds = sorted({str(p.get("type")) for p in raw if isinstance(p, dict)})
        raise InvalidInputError(
            f"not a valid content part ({_first_error(e)}); got type(s) {kinds}, "
            f"valid types are {PART_TYPES}"
        ) from None


def is_message(x: Any) -> bool:
    return isinstance(x, Message) or (isinstance(x, dict) and "role" in x)


def is_part(x: Any) -> bool:
    return isinstance(x, (TextPart, FilePart, ImagePart, AudioPart)) or (
        isinstance(x, dict) and "type" in x and "role" not in x
    )


def check_tool_pairing(messages: list[Message], label: str) -> None:
    called: set[str] = set()
    for n, m in enumerate(messages):
        ids = [call.id for call in m.tool_calls or [] if call.id]
        if len(ids) != len(set(ids)):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise InvalidInputError(
                f"{label}: message {n} makes two tool calls with the same id {dup!r}; "
                "each call needs its own id so its result can be paired with it"
            )
        called.update(ids)
        if m.role == "tool" and m.tool_call_id and called and m.tool_call_id not in called:
            raise InvalidInputError(
                f"{label}: message {n} is a tool result for tool_call_id "
                f"{m.tool_call_id!r}, but no assistant message before it made that call "
                f"(calls made: {sorted(called)})"
            )


#: File names whose content may be a conversation (checked by shape, not trusted).
CHAT_SUFFIXES = (".json", ".jsonl", ".txt")
_TEXT_PEEK = 64 << 10  # enough of a .txt to tell a chat export from any other text


def chat_log(path: Path) -> list[ChatLog] | None:
    """The conversations of a chat log or export file, or None when it is another document.

    A .txt is peeked at first: a 5 MB log is not read whole to learn it is no chat.
    """
    try:
        if path.suffix.lower() == ".txt":
            with path.open("rb") as f:
                head = f.read(_TEXT_PEEK).decode("utf-8-sig", errors="ignore")
            if not looks_like_whatsapp(head):
                return None
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return chat_logs(text, path.name)
    except InvalidInputError as e:
        raise InvalidInputError(f"{path}: {e}") from None


def chat_logs(text: str, name: str) -> list[ChatLog] | None:
    """:func:`chat_log` for content in hand (``name``: its file name, which says the syntax)."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".txt":
        return text_export(text, name)
    try:
        if suffix == ".jsonl":
            data: Any = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    system = None
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        system = system_message(data.get("system"))  # a Claude request keeps it apart
        data = data["messages"]
    if (
        isinstance(data, list)
        and data
        and all(isinstance(m, dict) for m in data)
        and all("role" in m and ("content" in m or "tool_calls" in m) for m in data)
    ):
        return [ChatLog(parse_messages([system, *data] if system else data))]
    return json_export(data)


def chat_in_bytes(data: bytes | None, name: str, label: str, kind: str) -> list[ChatLog] | None:
    """:func:`chat_log` for an in-memory file (an upload, an archive member) sniffed as
    ``kind``: only JSON and text named like a chat file are decoded, so other bytes cost
    nothing here."""
    if data is None or kind not in ("json", "text") or not name.lower().endswith(CHAT_SUFFIXES):
        return None
    if name.lower().endswith(".txt") and not looks_like_whatsapp(
        data[:_TEXT_PEEK].decode("utf-8-sig", errors="ignore")
    ):
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    try:
        return chat_logs(text, name)
    except InvalidInputError as e:
        # A read error, not a wrong call: inside an archive, the other members still read.
        raise CorruptError(label, str(e)) from None
