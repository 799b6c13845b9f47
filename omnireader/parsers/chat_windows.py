"""How a conversation is cut for reading: each message as a rendered line, runs of lines that
fit a token budget (windows), and sittings (where the chat falls silent).

A message far longer than a window is split into window-sized pieces, each a :class:`Turn`
of its own, so no window is bigger than an LLM prompt or an embedding can take.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath

from pydantic import BaseModel

from omnireader.fast_construct import trusted
from omnireader.models import AudioPart, FilePart, ImagePart, Message
from omnireader.normalize import normalize_time
from omnireader.text.chunking import chunk_text
from omnireader.text.tokens import count_tokens

__all__ = [
    "Turn",
    "attachment_notes",
    "render_line",
    "message_turns",
    "windows",
    "sittings",
    "SITTING_GAP",
]

#: A silence longer than this between two messages starts a new sitting: search context
#: (the messages shown around a hit) never reaches across it.
SITTING_GAP = timedelta(hours=3)

# A message this many windows long is split into window-sized pieces instead of becoming
# one giant window that no LLM prompt or embedding could take whole.
_ENORMOUS = 4


class Turn(BaseModel):
    """One message (or one piece of an enormous one) as it sits in a window."""

    message: Message
    position: int  # index of the message in the list given to :func:`windows`
    text: str  # the message text this turn carries
    line: str  # what the window shows: ``[chat_time] speaker: text [attachments]``
    tokens: int
    chunk_index: int | None = None
    chunk_total: int | None = None
    char_start: int | None = None
    char_end: int | None = None


def attachment_notes(message: Message) -> list[str]:
    """``[attached file: x.pdf]`` / ``[image]`` / ``[audio]`` for each non-text part.

    The attachments themselves are read by their own parsers; the note keeps the chat
    honest that something was shared at this point.
    """
    if not isinstance(message.content, list):
        return []
    notes: list[str] = []
    for part in message.content:
        if isinstance(part, FilePart):
            spec = part.file
            name = spec.filename or (PurePosixPath(spec.path).name if spec.path else None)
            notes.append(f"[attached file: {name or spec.file_id or 'file'}]")
        elif isinstance(part, ImagePart):
            url = part.image_url.url
            name = url.rsplit("/", 1)[-1].split("?", 1)[0] if url.startswith("http") else ""
            notes.append(f"[image: {name}]" if name else "[image]")
        elif isinstance(part, AudioPart):
            notes.append(f"[audio: {part.input_audio.format}]")
    return notes


def render_line(message: Message, text: str, notes: Sequence[str] = ()) -> str:
    """``[chat_time] speaker: text [notes]``; the time normalised to ISO 8601 when it parses."""
    speaker = message.name or message.role
    when = normalize_time(message.chat_time) or message.chat_time
    body = " ".join(s for s in (text.strip(), *notes) if s)
    return f"[{when}] {speaker}: {body}" if when else f"{speaker}: {body}"


def message_turns(messages: Sequence[Message], max_tokens: int) -> list[Turn]:
    """Each message with something in it as a :class:`Turn` (an enormous one as pieces)."""
    turns: list[Turn] = []
    for pos, m in enumerate(messages):
        text, notes = m.text(), attachment_notes(m)
        if not text.strip() and not notes:
            continue  # nothing was said or shared
        line = render_line(m, text, notes)
        tokens = count_tokens(line)
        if tokens <= _ENORMOUS * max_tokens:
            # trusted: every value is built here (the message validated on the way in);
            # validating 300 turns again costs a 300-message chat's first LLM call ~1 ms.
            turns.append(
                trusted(Turn, message=m, position=pos, text=text, line=line, tokens=tokens)
            )
            continue
        prefix = count_tokens(render_line(m, "x")) - 1
        pieces = chunk_text(text, max(16, max_tokens - prefix))
        for c in pieces:
            last = c.index == c.total - 1
            piece_line = render_line(m, c.text, notes if last else ())
            turns.append(
                Turn(
                    message=m,
                    position=pos,
                    text=c.text,
                    line=piece_line,
                    tokens=count_tokens(piece_line),
                    chunk_index=c.index,
                    chunk_total=c.total,
                    char_start=c.char_start,
                    char_end=c.char_end,
                )
            )
    return turns


def windows(
    messages: Sequence[Message], max_tokens: int, overlap_messages: int = 1
) -> list[list[Turn]]:
    """Group messages into windows of at most ``max_tokens`` tokens, in order.

    Each window after the first opens with the last ``overlap_messages`` turns of the one
    before (fewer if they would not fit beside the next message). A message longer than a
    window gets a window of its own; one over four windows long is split into pieces.
    Messages with no text and no attachments are skipped.
    """
    out: list[list[Turn]] = []
    current: list[Turn] = []
    used = 0
    for turn in message_turns(messages, max_tokens):
        if current and used + turn.tokens > max_tokens:
            out.append(current)
            carry = current[len(current) - overlap_messages :] if overlap_messages else []
            # Overlap is context, never a reason to break the budget.
            while carry and sum(t.tokens for t in carry) + turn.tokens > max_tokens:
                carry = carry[1:]
            current, used = list(carry), sum(t.tokens for t in carry)
        current.append(turn)
        used += turn.tokens
    if current:
        out.append(current)
    return out


def sittings(turns: Sequence[Turn]) -> list[list[Turn]]:
    """Split turns where the chat time jumps by more than :data:`SITTING_GAP` (or back).

    Turns without a readable time stay in the sitting they are in.
    """
    out: list[list[Turn]] = []
    last: datetime | None = None
    for turn in turns:
        when = _moment(turn.message.chat_time)
        if (
            out
            and when is not None
            and last is not None
            and not (timedelta(0) <= when - last <= SITTING_GAP)
        ):
            out.append([])
        if not out:
            out.append([])
        out[-1].append(turn)
        last = when if when is not None else last
    return out


def _moment(value: str | None) -> datetime | None:
    text = normalize_time(value) if value else None
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    # Naive times are taken as UTC, like the store does.
    return moment if moment.tzinfo is None else moment.astimezone(UTC).replace(tzinfo=None)
