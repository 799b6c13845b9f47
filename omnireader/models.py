"""The data model: memory items, their sources, and the input shapes omnireader reads.

Input shapes follow the OpenAI chat format agents already speak (messages with ``role``,
``content`` as a string or a list of parts, ``tool_calls``, ``tool_call_id``) plus
``chat_time`` and ``message_id``.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from omnireader.fast_construct import trusted

__all__ = [
    "SourceKind",
    "MemoryType",
    "UpdateType",
    "Mode",
    "Source",
    "ToolUse",
    "MemoryMetadata",
    "MemoryItem",
    "TextPart",
    "FileSpec",
    "FilePart",
    "ImageURL",
    "ImagePart",
    "InputAudio",
    "AudioPart",
    "ContentPart",
    "ToolCallFunction",
    "ToolCall",
    "Message",
    "ReadInfo",
    "ReadFailure",
    "utc_now",
    "trusted",
]

SourceKind = Literal["string", "chat", "file", "image", "audio", "tool"]
MemoryType = Literal["UserMemory", "LongTermMemory", "WorkingMemory", "ToolTrajectoryMemory"]
#: Why a memory's version changed (``Store.update``, ``archive``, ``rollback``, consolidation):
#: ``edit`` a caller changed it; ``duplicate`` the same fact came again (sources merged);
#: ``update`` a newer fact replaced it; ``conflict`` a contradicting one did; ``source_changed``
#: its file changed and was read again; ``rollback`` an older version was made current again.
UpdateType = Literal["edit", "duplicate", "update", "conflict", "source_changed", "rollback"]


class Mode(StrEnum):
    """How items are made: ``fast`` by rules (offline), ``fine`` by an LLM / vision / speech
    model. A ``str`` enum: ``Mode.FINE == "fine"``, and it is written as ``"fine"``."""

    FAST = "fast"
    FINE = "fine"


def utc_now() -> str:
    """Now as an ISO 8601 UTC timestamp (seconds precision)."""
    global _NOW
    second = int(time.time())
    if _NOW[0] != second:  # formatted once a second: every item asks twice
        _NOW = (second, datetime.fromtimestamp(second, UTC).isoformat())
    return _NOW[1]


_NOW: tuple[int, str] = (-1, "")


class Source(BaseModel):
    """Where an item came from: enough to trace it back and re-process it."""

    model_config = ConfigDict(extra="forbid")

    kind: SourceKind
    role: str | None = None
    name: str | None = None
    chat_time: str | None = None
    message_id: str | None = None
    # The original text of a message / string / tool step, so chat items can be rebuilt.
    content: str | None = None
    path: str | None = None
    url: str | None = None
    filename: str | None = None
    file_id: str | None = None
    member: str | None = None  # archive member name, for items read out of a ZIP
    mime: str | None = None
    page: int | None = None
    # The last page the text runs onto, when it goes on past ``page`` (a PDF paragraph a
    # page break cut, read whole on the page where it began).
    page_end: int | None = None
    chunk_index: int | None = None
    chunk_total: int | None = None
    char_start: int | None = None
    char_end: int | None = None
    content_hash: str | None = None
    lang: str | None = None
    tool_call_id: str | None = None
    segment_start: float | None = None  # seconds, for audio transcript segments
    segment_end: float | None = None


class ToolUse(BaseModel):
    """One tool call inside a trajectory and what came of it."""

    name: str
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    call_id: str | None = None
    success: bool | None = None  # None: no result was seen for this call
    error_type: str | None = None
    result_preview: str | None = None


class MemoryMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str | None = None
    session_id: str | None = None
    memory_type: MemoryType = "LongTermMemory"
    mode: Mode = Mode.FAST
    key: str | None = None
    tags: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    summary: str | None = None
    timestamp: str | None = None  # ISO 8601, absolute
    # Where ``timestamp`` came from when it is not the item's own time: "mtime" is the file's
    # modification time, used when the content carries no date (Markdown, CSV, plain text...).
    time_source: Literal["mtime"] | None = None
    persons: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    location: str | None = None
    topic: str | None = None
    sources: list[Source] = Field(default_factory=list)
    # Every location (path or URL, "!member" for an archive member) where this item's content
    # was seen: ids hash content, so identical bytes at several paths are one item.
    seen_at: list[str] = Field(default_factory=list)
    status: Literal["activated", "archived", "deleted"] = "activated"
    # Flags a reader should see: e.g. "needs_ocr", "unresolved_reference", "truncated".
    flags: list[str] = Field(default_factory=list)
    # Format facts that are not worth a column: image size, audio duration, document title...
    extra: dict[str, Any] = Field(default_factory=dict)
    created_at: str = Field(default_factory=utc_now)
    updated_at: str = Field(default_factory=utc_now)
    # Tool trajectories.
    tools: list[ToolUse] = Field(default_factory=list)
    correctness: Literal["success", "failed", "partial", "unknown"] | None = None
    experience: str | None = None
    # Fast->fine transfer: a refined fast item links to its fine items and back.
    refine_status: Literal["refined", "failed"] | None = None
    refine_reason: str | None = None
    refined_into: list[str] = Field(default_factory=list)
    refined_from: list[str] = Field(default_factory=list)
    # Versions (see omnireader.store.versions): the current version's number and why it last
    # changed; an archived version also says when and by which item it was superseded.
    version: int = 1
    update_type: UpdateType | None = None
    superseded_by: str | None = None
    superseded_at: str | None = None


class MemoryItem(BaseModel):
    """One self-contained memory: its text and everything known about it."""

    id: str
    memory: str
    metadata: MemoryMetadata

    @property
    def source(self) -> Source | None:
        """The first source, the one most items have exactly one of."""
        return self.metadata.sources[0] if self.metadata.sources else None


# ---------------------------------------------------------------- input shapes


class _Part(BaseModel):
    model_config = ConfigDict(extra="allow")


class TextPart(_Part):
    type: Literal["text"] = "text"
    text: str


class FileSpec(BaseModel):
    model_config = ConfigDict(extra="allow")

    file_data: str | None = None  # base64 data URL, http(s) URL, or plain text
    path: str | None = None
    filename: str | None = None
    file_id: str | None = None


class FilePart(_Part):
    type: Literal["file"] = "file"
    file: FileSpec


class ImageURL(BaseModel):
    url: str
    detail: Literal["auto", "low", "high"] | None = None


class ImagePart(_Part):
    type: Literal["image_url"] = "image_url"
    image_url: ImageURL


class InputAudio(BaseModel):
    data: str  # base64
    format: str = "wav"


class AudioPart(_Part):
    type: Literal["input_audio"] = "input_audio"
    input_audio: InputAudio


ContentPart = Annotated[TextPart | FilePart | ImagePart | AudioPart, Field(discriminator="type")]


class ToolCallFunction(BaseModel):
    name: str
    arguments: str | dict[str, Any] = "{}"


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str | None = None
    type: Literal["function"] = "function"
    function: ToolCallFunction


class Message(BaseModel):
    """A chat message in the OpenAI format, plus ``chat_time`` and ``message_id``."""

    model_config = ConfigDict(extra="allow")

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[ContentPart] | None = None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    chat_time: str | None = None
    message_id: str | None = None

    def text(self) -> str:
        """The message's text: the string content, or its text parts joined."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(p.text for p in self.content if isinstance(p, TextPart))


class ReadInfo(BaseModel):
    """Who and what a read is for; validated so a typo fails loudly."""

    model_config = ConfigDict(extra="forbid")

    user_id: str | None = None
    session_id: str | None = None


class ReadFailure(BaseModel):
    """One input that could not be read, as a record (never stored as a memory)."""

    input: str
    error: str  # the error code: unsupported, encrypted, corrupt, empty, too_large, ...
    message: str
    # For code "internal" (a bug, not a bad input): the traceback, to put in a bug report.
    detail: str | None = None
    # The pages of the input it concerns, when it is about pages (code "needs_ocr").
    pages: list[int] = Field(default_factory=list)
