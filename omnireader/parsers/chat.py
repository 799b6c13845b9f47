"""Conversations: one item per message in fast mode, token-counted windows for an LLM.

Every message is rendered as a ``[chat_time] speaker: text`` line. Fast mode makes one item
per message (``ReadOptions.chat_units="message"``, the default): small match units for search,
each linked to the messages around it in the same sitting (:mod:`omnireader.units`), so a
search returns a hit with its neighbours. A sitting ends where the chat falls silent for more
than :data:`.chat_windows.SITTING_GAP` (windows and sittings: :mod:`.chat_windows`).

Fine mode (and ``chat_units="window"``) groups messages into windows: runs of consecutive
lines that fit a token budget; the last ``overlap`` messages of one window open the next, so
a question and its answer are never cut apart without context. System prompts are context,
not memories: they ride along in ``extra["system_prompt"]`` unless they are all there is.

    >>> from omnireader.models import Message
    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Conversation
    >>> convo = Conversation(messages=[Message(role="user", content="I live in Lyon.")])
    >>> [item] = ChatParser().parse_fast(convo, ParseContext())
    >>> item.memory, item.metadata.memory_type
    ('user: I live in Lyon.', 'UserMemory')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar, get_args

from pydantic import ValidationError

from omnireader.errors import EmptyInputError, InvalidInputError
from omnireader.fast_construct import trusted
from omnireader.ids import content_hash
from omnireader.models import MemoryItem, MemoryType, Message, Source
from omnireader.normalize import guess_lang, normalize_time
from omnireader.parsers.base import ParseContext, Parser, register
from omnireader.parsers.chat_windows import (
    SITTING_GAP,
    Turn,
    attachment_notes,
    message_turns,
    render_line,
    sittings,
    windows,
)
from omnireader.payloads import Conversation
from omnireader.units import link_units

__all__ = [
    "Turn",
    "ChatParser",
    "attachment_notes",
    "render_line",
    "windows",
    "window_tokens",
    "split_system",
    "message_source",
    "conversation_from_sources",
    "sittings",
    "SITTING_GAP",
]

_SYSTEM_PREVIEW = 200
_JSON = "application/json"  # Source.mime marking content that is serialised messages


def _context(system: Sequence[Message], title: str | None) -> dict[str, object]:
    """What every item of a conversation carries in ``extra``: the start of its system
    prompt, and the chat's title in the app it was exported from (also the items' key)."""
    prompt = "\n".join(m.text().strip() for m in system if m.text().strip())
    extra: dict[str, object] = {"system_prompt": prompt[:_SYSTEM_PREVIEW]} if prompt else {}
    if title and title.strip():
        extra["chat_title"] = title.strip()
    return extra


def _title(extra: dict[str, object]) -> str | None:
    title = extra.get("chat_title")
    return title if isinstance(title, str) else None


def window_tokens(ctx: ParseContext) -> int:
    """The window budget for the context's mode: small windows fast, large ones for an LLM."""
    opts = ctx.options
    large = ctx.mode == "fine" or ctx.large_windows
    return opts.chat_window_tokens_fine if large else opts.chat_window_tokens_fast


def split_system(messages: Sequence[Message]) -> tuple[list[Message], list[Message]]:
    """(system messages, the rest), each in order."""
    # "developer" is the newer OpenAI name for the system role (o-series, Responses API).
    system = [m for m in messages if m.role in ("system", "developer")]
    return system, [m for m in messages if m.role not in ("system", "developer")]


def message_source(message: Message, text: str | None = None) -> Source:
    """The chat source of one message (``text``: the piece of it an item carries)."""
    full = message.text()
    return Source(
        kind="chat",
        role=message.role,
        name=message.name,
        chat_time=message.chat_time,
        message_id=message.message_id,
        content=full if text is None else text,
        content_hash=content_hash(full),
        lang=guess_lang(full if text is None else text),
    )


def _turn_source(turn: Turn) -> Source:
    """:func:`message_source` for the piece of the message a turn carries.

    Built as trusted (the message was validated on the way in, the rest is computed here):
    a window holds every message's source, and validating one and then copying it to add
    the piece's place was half the parse of a chat in fine mode, which its first LLM call
    waits on.
    """
    m = turn.message
    full = m.text()
    return trusted(
        Source,
        kind="chat",
        role=m.role,
        name=m.name,
        chat_time=m.chat_time,
        message_id=m.message_id,
        content=turn.text,
        content_hash=content_hash(full),
        lang=guess_lang(turn.text),
        chunk_index=turn.chunk_index,
        chunk_total=turn.chunk_total,
        char_start=turn.char_start,
        char_end=turn.char_end,
    )


def _message_from_source(source: Source) -> Message:
    if source.content is None:
        raise InvalidInputError(f"a {source.kind} source without content cannot be rebuilt")
    role = source.role or "user"
    if role not in get_args(Message.model_fields["role"].annotation):
        raise InvalidInputError(f"cannot rebuild a message with role {role!r}")
    return Message(
        role=role,  # type: ignore[arg-type]  (checked against the Literal just above)
        content=source.content,
        name=source.name,
        chat_time=source.chat_time,
        message_id=source.message_id,
        tool_call_id=source.tool_call_id,
    )


def conversation_from_sources(sources: Sequence[Source]) -> Conversation:
    """The messages an item was made from, in order (e.g. to refine a stored window)."""
    return Conversation(messages=[_message_from_source(s) for s in sources])


@register
class ChatParser(Parser[Conversation]):
    """system / user / assistant messages → one item per token-counted window."""

    name: ClassVar[str] = "chat"
    payload: ClassVar[type[Conversation]] = Conversation
    label: ClassVar[str] = "<conversation>"

    def parse_fast(self, input: Conversation, ctx: ParseContext) -> list[MemoryItem]:
        system, rest = split_system(input.messages)
        size = window_tokens(ctx)
        if ctx.options.chat_units == "message" and not (ctx.mode == "fine" or ctx.large_windows):
            turns = message_turns(rest, size)
            if turns:
                return self._message_items(turns, ctx, _context(system, input.title))
        groups = windows(rest, size, ctx.options.chat_overlap_messages)
        if not groups:
            # Only a system prompt: still something the user gave us, kept as working memory.
            groups = windows(system, size, 0)
            if not groups:
                raise EmptyInputError(self.label, "no message has text or attachments")
            return [
                self._window_item(g, k, len(groups), ctx, "WorkingMemory", ["system_prompt"], {})
                for k, g in enumerate(groups)
            ]
        extra = _context(system, input.title)
        return [
            self._window_item(g, k, len(groups), ctx, None, [], extra) for k, g in enumerate(groups)
        ]

    def _message_items(
        self, turns: list[Turn], ctx: ParseContext, extra: dict[str, object]
    ) -> list[MemoryItem]:
        """One item per message (or piece of an enormous one), linked within its sitting."""
        items: list[MemoryItem] = []
        for sitting in sittings(turns):
            made = [self._message_item(t, ctx, extra) for t in sitting]
            first = sitting[0]
            link_units(made, thread=content_hash(f"{ctx.scope}|{first.position}|{first.line}"))
            items.extend(made)
        return items

    def _message_item(self, turn: Turn, ctx: ParseContext, extra: dict[str, object]) -> MemoryItem:
        m = turn.message
        return self.make_item(
            turn.line,
            ctx,
            sources=[_turn_source(turn)],
            # The message's place and text: the same message in the same place, the same id.
            position=("message", content_hash(turn.line), turn.position, turn.chunk_index),
            memory_type="UserMemory" if m.role == "user" else "LongTermMemory",
            timestamp=normalize_time(m.chat_time),
            persons=[m.name] if m.role == "user" and m.name else [],
            key=_title(extra),
            extra=dict(extra),
        )

    def _window_item(
        self,
        turns: list[Turn],
        index: int,
        total: int,
        ctx: ParseContext,
        memory_type: MemoryType | None,
        tags: list[str],
        extra: dict[str, object],
    ) -> MemoryItem:
        text = "\n".join(t.line for t in turns)
        if memory_type is None:
            only_user = all(t.message.role == "user" for t in turns)
            memory_type = "UserMemory" if only_user else "LongTermMemory"
        times = (normalize_time(t.message.chat_time) for t in reversed(turns))
        persons = [t.message.name for t in turns if t.message.role == "user" and t.message.name]
        return self.make_item(
            text,
            ctx,
            sources=[_turn_source(t) for t in turns],
            # The window's own hash: the same messages in the same place give the same id.
            position=(content_hash(text), index),
            memory_type=memory_type,
            tags=tags,
            timestamp=next((t for t in times if t), None),
            persons=list(dict.fromkeys(persons)),
            key=_title(extra),
            extra={**extra, "window_index": index, "window_total": total},
        )

    def create_source(self, input: Conversation) -> Source:
        """One message: its source. Several: the messages as JSON, so they rebuild whole."""
        if len(input.messages) == 1:
            return message_source(input.messages[0])
        data = json.dumps(
            [m.model_dump(mode="json", exclude_none=True) for m in input.messages],
            ensure_ascii=False,
        )
        last_time = next((m.chat_time for m in reversed(input.messages) if m.chat_time), None)
        return Source(
            kind="chat",
            content=data,
            content_hash=content_hash(data),
            mime=_JSON,
            chat_time=last_time,
            lang=guess_lang(" ".join(m.text() for m in input.messages)),
        )

    def rebuild_from_source(self, source: Source) -> Conversation:
        """A conversation of the one message a window source names (or all, for JSON)."""
        if source.mime == _JSON and source.content is not None:
            try:
                return Conversation.model_validate({"messages": json.loads(source.content)})
            except (ValueError, ValidationError) as e:
                raise InvalidInputError(f"the source's messages do not parse: {e}") from None
        return Conversation(messages=[_message_from_source(source)])
