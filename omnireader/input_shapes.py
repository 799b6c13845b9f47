"""Validate the chat-format inputs agents pass: messages, content parts, tool-call pairing.

Errors are :class:`~omnireader.errors.InvalidInputError` naming what is wrong and what is
valid, never a validation trace from deep inside pydantic.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from .errors import InvalidInputError
from .models import AudioPart, ContentPart, FilePart, ImagePart, Message, TextPart

__all__ = [
    "PART_TYPES",
    "parse_messages",
    "parse_parts",
    "is_message",
    "is_part",
    "check_tool_pairing",
]

PART_TYPES = "text, file, image_url, input_audio"
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


def parse_messages(raw: list[Any]) -> list[Message]:
    """Validate chat messages; a clear :class:`InvalidInputError` names what is wrong."""
    try:
        return _MESSAGES.validate_python(raw)
    except ValidationError as e:
        raise InvalidInputError(
            f"not a valid chat message list ({_first_error(e)}); messages need a role of "
            f"system / user / assistant / tool and content parts of type {PART_TYPES}"
        ) from None


def parse_parts(raw: list[Any]) -> list[Any]:
    try:
        return _PARTS.validate_python(raw)
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
