"""Plain strings: one item per chunk of the text, each chunk tracing back to its span.

>>> from omnireader.parsers.base import ParseContext
>>> from omnireader.payloads import TextInput
>>> text = TextInput(text="Paris is lovely in May.")
>>> [item] = StringParser().parse_fast(text, ParseContext())
>>> item.memory, item.source.kind
('Paris is lovely in May.', 'string')
"""

from __future__ import annotations

from typing import ClassVar

from omnireader.errors import EmptyInputError, InvalidInputError
from omnireader.ids import content_hash
from omnireader.models import MemoryItem, MemoryType, Source, SourceKind
from omnireader.normalize import guess_lang, normalize_time
from omnireader.parsers.base import ParseContext, Parser, chunk_source, register
from omnireader.payloads import TextInput
from omnireader.text.chunking import chunk_text

__all__ = ["StringParser"]


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
            # One chunk carries the whole input, so it rebuilds exactly; a piece of a long
            # text rebuilds its own span (the hash still names the whole text).
            source = chunk_source(whole, chunk, content=text if chunk.total == 1 else chunk.text)
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
