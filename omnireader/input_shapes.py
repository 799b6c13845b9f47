"""Validate the chat-format inputs agents pass: messages, content parts, tool-call pairing.

Errors are :class:`~omnireader.errors.InvalidInputError` naming what is wrong and what is
valid, never a validation trace from deep inside pydantic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .errors import InvalidInputError
from .models import AudioPart, ContentPart, FilePart, ImagePart, Message, TextPart

__all__ = [
    "PART_TYPES",
    "normalize_part",
    "parse_messages",
    "parse_parts",
    "is_message",
    "is_part",
    "check_tool_pairing",
    "chat_log",
]

PART_TYPES = (
    "text, file, image_url, input_audio (and the Responses API's input_text, input_image, "
    "input_file, output_text)"
)
_MESSAGES = TypeAdapter(list[Message])
_PARTS = TypeAdapter(list[ContentPart])


def _first_error(e: ValidationError) -> str:
    """The error that says what is wrong, with its place in the input.

    A union (content: str | list of parts) fails once per branch; the deepest location is
    the branch the input was meant for, e.g. the part whose type is unknown.
    """
    err = max(e.errors(), key=lambda x: len(x["loc"]))
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
        return {"type": "text", "text": raw.get("text"),
                **{k: v for k, v in rest.items() if k != "text" and k != "annotations"}}
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
            return {"type": "file", "file": {"file_id": raw["file_id"],
                                             "filename": raw.get("filename")}}
        return raw  # fails validation below, naming the part
    if kind == "input_file":
        spec = {k: raw[k] for k in ("file_data", "filename", "file_id") if raw.get(k)}
        if raw.get("file_url") and not spec.get("file_data"):
            spec["file_data"] = raw["file_url"]
        return {"type": "file", "file": spec}
    return raw


def _normalize_message(raw: Any) -> Any:
    if isinstance(raw, dict) and isinstance(raw.get("content"), list):
        return {**raw, "content": [normalize_part(p) for p in raw["content"]]}
    return raw


def parse_messages(raw: list[Any]) -> list[Message]:
    """Validate chat messages; a clear :class:`InvalidInputError` names what is wrong."""
    try:
        return _MESSAGES.validate_python([_normalize_message(m) for m in raw])
    except ValidationError as e:
        raise InvalidInputError(
            f"not a valid chat message list ({_first_error(e)}); messages need a role of "
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


def chat_log(path: Path) -> list[Message] | None:
    """The messages of a .json / .jsonl chat log, or None when it is another JSON document."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        if path.suffix.lower() == ".jsonl":
            data: Any = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not (isinstance(data, list) and data and all(isinstance(m, dict) for m in data)):
        return None
    if not all("role" in m and ("content" in m or "tool_calls" in m) for m in data):
        return None
    try:
        return parse_messages(data)
    except InvalidInputError as e:
        raise InvalidInputError(f"{path}: {e}") from None
