"""Plain strings: one item per chunk of the text, each chunk tracing back to its span.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import TextInput
    >>> text = TextInput(text="Paris is lovely in May.")
    >>> [item] = StringParser().parse_fast(text, ParseContext())
    >>> item.memory, item.source.kind
    ('Paris is lovely in May.', 'string')
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import ClassVar

from ..chunking import chunk_text
from ..errors import EmptyInputError, InvalidInputError
from ..ids import content_hash
from ..models import MemoryItem, MemoryType, SourceKind, Source
from ..payloads import TextInput
from .base import ParseContext, Parser, register

__all__ = ["StringParser", "guess_lang", "normalize_time"]

# Han ideographs only: kana and hangul mean Japanese / Korean, which are not "zh".
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_OTHER_WORD = re.compile(rf"[^\W\d_{_CJK}]+")  # a run of letters in any other script


def guess_lang(text: str) -> str:
    """``"zh"`` when Han characters outnumber the words of other scripts, else ``"en"``.

    Counted like :func:`omnireader.tokens.count_tokens` (one token per Han character, one
    per word), so a Chinese sentence with a few English names still reads as Chinese.
    """
    han = len(_HAN.findall(text))
    other = len(_OTHER_WORD.findall(text))
    return "zh" if han and han >= other else "en"


_EPOCH = re.compile(r"^\d{9,13}(\.\d+)?$")
_FALLBACK_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y/%m/%d", "%Y:%m:%d %H:%M:%S")


def normalize_time(value: str | int | float | None) -> str | None:
    """A message time as ISO 8601, or None when it does not read as a date and time.

    Accepts ISO 8601 (``T`` or space, with ``Z`` or an offset, or naive), ``2025/01/15
    10:00`` and epoch seconds (or milliseconds). Naive times stay naive: the message did
    not say its zone, and guessing one would move the event.

    >>> normalize_time("2025-01-15 10:00"), normalize_time("2025-01-15T10:00:00Z")
    ('2025-01-15T10:00:00', '2025-01-15T10:00:00+00:00')
    """
    if value is None or isinstance(value, bool):
        return None
    raw = str(value).strip()
    if not raw:
        return None
    if isinstance(value, (int, float)) or _EPOCH.match(raw):
        seconds = float(raw)
        if seconds > 1e11:  # milliseconds: no one chats in the year 5138
            seconds /= 1000
        try:
            return datetime.fromtimestamp(seconds, timezone.utc).isoformat()
        except (OverflowError, OSError, ValueError):
            return None
    try:
        return datetime.fromisoformat(raw).isoformat()
    except ValueError:
        pass
    for fmt in _FALLBACK_FORMATS:
        try:
            return datetime.strptime(raw, fmt).isoformat()
        except ValueError:
            continue
    return None


@register
class StringParser(Parser[TextInput]):
    """A string the caller passed in: chunked when long, one LongTermMemory per chunk."""

    name: ClassVar[str] = "string"
    payload: ClassVar[type[TextInput]] = TextInput
    label: ClassVar[str] = "<string>"  # how errors name the input

    def source_kind(self, input: TextInput) -> SourceKind:
        return "string"

    def memory_type(self, input: TextInput) -> MemoryType:
        return "LongTermMemory"

    def parse_fast(self, input: TextInput, ctx: ParseContext) -> list[MemoryItem]:
        text = input.text
        if not text.strip():
            raise EmptyInputError(self.label, "the text is empty or only whitespace")
        chunks = chunk_text(text, ctx.options.chunk_tokens)
        whole = self.create_source(input)
        timestamp = normalize_time(input.chat_time)
        persons = [input.name] if input.name and input.role == "user" else []
        items: list[MemoryItem] = []
        for chunk in chunks:
            source = whole.model_copy(
                update=dict(
                    chunk_index=chunk.index,
                    chunk_total=chunk.total,
                    char_start=chunk.char_start,
                    char_end=chunk.char_end,
                    # One chunk carries the whole input, so it rebuilds exactly; a piece of a
                    # long text rebuilds its own span (the hash still names the whole text).
                    content=text if chunk.total == 1 else chunk.text,
                    lang=guess_lang(chunk.text),
                )
            )
            items.append(
                self.make_item(
                    chunk.text.strip(),
                    ctx,
                    sources=[source],
                    position=(chunk.index,),
                    memory_type=self.memory_type(input),
                    timestamp=timestamp,
                    persons=persons,
                )
            )
        return items

    def create_source(self, input: TextInput) -> Source:
        return Source(
            kind=self.source_kind(input),
            role=input.role,
            name=input.name,
            chat_time=input.chat_time,
            message_id=input.message_id,
            content=input.text,
            content_hash=content_hash(input.text),
            char_start=0,
            char_end=len(input.text),
            lang=guess_lang(input.text),
        )

    def rebuild_from_source(self, source: Source) -> TextInput:
        if source.content is None:
            raise InvalidInputError(f"a {source.kind} source without content cannot be rebuilt")
        return TextInput(
            text=source.content,
            role=source.role,
            name=source.name,
            chat_time=source.chat_time,
            message_id=source.message_id,
        )
