"""Text content parts: read like strings, but keep the message they came in.

A ``{"type": "text"}`` part passed on its own (or with other parts, outside a message) is
text the user shared. When the payload says which message it came from (role, time, id),
its source is a chat source, so the item traces back to that message.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import TextInput
    >>> part = TextInput(text="I moved to Lyon.", role="user", message_id="m1")
    >>> [item] = TextPartParser().parse_fast(part, ParseContext())
    >>> item.source.kind, item.source.message_id, item.metadata.memory_type
    ('chat', 'm1', 'UserMemory')
"""

from __future__ import annotations

from typing import ClassVar

from omnireader.models import MemoryType, SourceKind
from omnireader.parsers.base import register
from omnireader.parsers.string import StringParser
from omnireader.payloads import TextInput

__all__ = ["TextPartParser"]


@register
class TextPartParser(StringParser):
    """A text part: chunked like a string; a chat source when it came in a message."""

    name: ClassVar[str] = "text"
    label: ClassVar[str] = "<text part>"

    def source_kind(self, input: TextInput) -> SourceKind:
        return "chat" if input.role else "string"

    def memory_type(self, input: TextInput) -> MemoryType:
        # The same rule as chat windows: what the user said about themselves is UserMemory.
        return "UserMemory" if input.role == "user" else "LongTermMemory"
