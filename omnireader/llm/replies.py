"""What a chat backend answers: one round trip's reply, a transcript of speech, and what the
calls cost."""

from __future__ import annotations

from pydantic import BaseModel

__all__ = ["ChatReply", "Usage", "Segment", "Transcript"]


class Usage(BaseModel):
    """What a request cost: HTTP calls sent (retries and re-asks included) and tokens; how many
    replies were re-asked, and how many were cut at ``max_tokens`` and closed (``repaired``)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasked: int = 0
    repaired: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(**{f: getattr(self, f) + getattr(other, f) for f in Usage.model_fields})


class Segment(BaseModel):
    """A stretch of speech: seconds from the start of the audio, and what was said."""

    start: float
    end: float | None = None  # None when the server gave no timings
    text: str


class Transcript(BaseModel):
    """What a speech backend heard: the text, its timed segments, its language and length."""

    text: str
    segments: list[Segment]
    language: str | None = None
    duration: float | None = None


class ChatReply(BaseModel):
    """One round trip's answer, before parsing."""

    content: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    truncated: bool = False  # the server stopped at max_tokens (finish_reason "length")
