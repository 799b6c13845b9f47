"""What fine mode asks the LLM for: the JSON shapes of extracted memories, per task.

Every prompt in :mod:`omnireader.prompts` names one of these as its output. Field descriptions
travel inside the JSON schema sent to the model, so they are written as instructions to it.
Defaults make small models' omissions harmless: in an item only ``memory`` is required; the
``memories`` list itself is required, so a reply of some other shape is caught and re-asked
instead of passing as "nothing to remember".
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "ExtractedMemory",
    "Extraction",
    "ImageReading",
    "ToolVerdict",
    "TrajectoryReview",
    "SCHEMA_FOR_TASK",
]


def _cap(chars: int | None = None, *, items: int | None = None, each: int | None = None) -> Any:
    """Length bounds for a server that compiles the schema into a grammar (see
    :func:`omnireader.llm.json_reply.grammar_json_schema`); never validated on the way back."""
    if items is None:
        return {"maxLength": chars}
    return {"maxItems": items, "items": {"type": "string", "maxLength": each}}


class ExtractedMemory(BaseModel):
    """One self-contained fact, readable without the conversation or document it came from."""

    memory: str = Field(
        description="one fact, self-contained: names instead of pronouns, absolute dates",
        json_schema_extra=_cap(500),
    )
    key: str = Field(
        "", description="a short title for the fact, at most ten words", json_schema_extra=_cap(100)
    )
    memory_type: Literal["UserMemory", "LongTermMemory"] = Field(
        "LongTermMemory",
        description="UserMemory: about the user (preferences, plans, life); "
        "LongTermMemory: world or document knowledge",
    )
    tags: list[str] = Field(
        default_factory=list,
        description="a few broad category labels",
        json_schema_extra=_cap(items=8, each=40),
    )
    keywords: list[str] = Field(
        default_factory=list,
        description="exact words a search should match",
        json_schema_extra=_cap(items=12, each=60),
    )
    persons: list[str] = Field(
        default_factory=list,
        description="people named in the fact",
        json_schema_extra=_cap(items=8, each=60),
    )
    entities: list[str] = Field(
        default_factory=list,
        description="organisations, products, places, works",
        json_schema_extra=_cap(items=12, each=80),
    )
    location: str | None = Field(None, description="where the fact happens, if stated")
    topic: str | None = Field(None, description="the subject area, in two or three words")
    timestamp: str | None = Field(
        None, description="when the fact happens, ISO 8601, absolute; null if unknown"
    )
    source_indexes: list[int] = Field(
        default_factory=list,
        description="the [n] numbers of the input messages or segments it comes from",
    )


class Extraction(BaseModel):
    """Memories from a chat window, a document chunk, a text or a transcript."""

    memories: list[ExtractedMemory] = Field(
        description="empty when nothing is worth remembering", json_schema_extra={"maxItems": 40}
    )
    summary: str | None = Field(
        None, description="one or two sentences on the whole input", json_schema_extra=_cap(600)
    )


class ImageReading(BaseModel):
    """What a vision model saw: a description, the text it read, and the memories it supports."""

    description: str = Field(description="what the image shows, in two or three sentences")
    text_in_image: str = Field(
        "", description="all legible text in the image, verbatim, in reading order"
    )
    memories: list[ExtractedMemory] = Field(description="empty when nothing is worth remembering")


class ToolVerdict(BaseModel):
    """How one tool call went."""

    name: str
    success: bool
    error_type: str | None = Field(
        None, description="e.g. timeout, not_found, bad_arguments; null on success"
    )


class TrajectoryReview(BaseModel):
    """A tool-use trajectory judged: did it work, and what should be done next time."""

    correctness: Literal["success", "failed", "partial"]
    experience: str = Field(
        description="a reusable lesson phrased 'when <situation>, then <action>'"
    )
    tools: list[ToolVerdict] = Field(default_factory=list)
    memories: list[ExtractedMemory] = Field(default_factory=list)


#: The output schema of each prompt task.
SCHEMA_FOR_TASK: dict[str, type[BaseModel]] = {
    "chat_window": Extraction,
    "document_chunk": Extraction,
    "general_text": Extraction,
    "audio_transcript": Extraction,
    "image": ImageReading,
    "tool_trajectory": TrajectoryReview,
}
