"""Fine mode for text: chat windows, document chunks, plain text and tool trajectories.

Each function makes one LLM call for one fast item and returns the fine items; failures
raise :class:`~omnireader.errors.LLMError`, which the engine turns into a marked fast item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..llm.schemas import Extraction, TrajectoryReview
from ..models import MemoryItem, Source, ToolUse
from ..normalize import guess_lang, normalize_time
from ..prompts import load_prompt
from .build import fine_items

__all__ = [
    "refine_chat",
    "refine_document",
    "refine_text",
    "refine_tool",
    "reference_time",
    "fine_items_from_text",
]


def reference_time(item: MemoryItem) -> str:
    """The latest message time among the item's sources, else its timestamp."""
    times = [t for s in item.metadata.sources if (t := normalize_time(s.chat_time))]
    return max(times) if times else (item.metadata.timestamp or "unknown")


def _line(n: int, s: Source) -> str:
    who = s.role or "unknown"
    if s.name:
        who += f" ({s.name})"
    when = normalize_time(s.chat_time) or s.chat_time or "no time"
    return f"[{n}] {when}, {who}: {s.content or ''}"


async def refine_chat(llm: Any, item: MemoryItem, earlier: Sequence[str] = ()) -> list[MemoryItem]:
    """A chat window: restatements with absolute times; sources are the messages used."""
    sources = [s for s in item.metadata.sources if s.kind == "chat" or s.role]
    if not sources:  # a text part without its message: treat as general text
        return await refine_text(llm, item)
    lines = "\n".join(_line(n, s) for n, s in enumerate(sources))
    prompt = load_prompt("chat_window", guess_lang(lines))
    messages = prompt.render(
        messages=lines, reference_time=reference_time(item), earlier_memories=list(earlier)
    )
    got, _ = await llm.acomplete_json(messages, Extraction)
    return fine_items(item, got.memories, sources=sources)


async def refine_document(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """A document chunk: facts with table rows and numbers exact; page provenance kept."""
    s = item.source
    where = (s.member or s.filename or s.path or s.url or "document") if s else "document"
    if s and s.page is not None:
        where += f", page {s.page}"
    if item.metadata.key:
        where = f"{item.metadata.key} ({where})"
    prompt = load_prompt("document_chunk", guess_lang(item.memory))
    messages = prompt.render(
        document=item.memory, source=where, reference_time=item.metadata.timestamp or "unknown"
    )
    got, _ = await llm.acomplete_json(messages, Extraction)
    return fine_items(item, got.memories, memory_type=None)


async def refine_text(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """Strings and text parts: the general-text prompt."""
    prompt = load_prompt("general_text", guess_lang(item.memory))
    messages = prompt.render(text=item.memory, reference_time=reference_time(item))
    got, _ = await llm.acomplete_json(messages, Extraction)
    return fine_items(item, got.memories)


async def refine_tool(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """A tool trajectory: correctness, a "when … then …" experience, per-tool verdicts."""
    steps = "\n".join(
        f"[{n}] {s.role or 'step'}"
        + (f" (call {s.tool_call_id})" if s.tool_call_id else "")
        + f": {s.content or ''}"
        for n, s in enumerate(item.metadata.sources)
    ) or item.memory
    prompt = load_prompt("tool_trajectory", guess_lang(item.memory))
    review: TrajectoryReview
    review, _ = await llm.acomplete_json(
        prompt.render(trajectory=steps, reference_time=reference_time(item)), TrajectoryReview
    )
    tools = _merge_verdicts(item.metadata.tools, review)
    text = f"{item.memory}\nOutcome: {review.correctness}. Experience: {review.experience}"
    trajectory = fine_items_from_text(item, text, tools=tools, correctness=review.correctness,
                                      experience=review.experience)
    facts = fine_items(item, review.memories, first_index=1)
    return [*trajectory, *facts]


def fine_items_from_text(item: MemoryItem, text: str, **metadata: Any) -> list[MemoryItem]:
    """One fine item carrying ``text`` with the fast item's type, at position 0."""
    from ..llm.schemas import ExtractedMemory

    memory = ExtractedMemory(memory=text, key=item.metadata.key or "", tags=item.metadata.tags,
                             keywords=item.metadata.keywords)
    return fine_items(item, [memory], memory_type=item.metadata.memory_type, **metadata)


def _merge_verdicts(tools: Sequence[ToolUse], review: TrajectoryReview) -> list[ToolUse]:
    merged = [t.model_copy() for t in tools]
    for n, verdict in enumerate(review.tools):
        match = merged[n] if n < len(merged) and merged[n].name == verdict.name else next(
            (t for t in merged if t.name == verdict.name), None
        )
        if match is None:
            merged.append(ToolUse(name=verdict.name, success=verdict.success,
                                  error_type=verdict.error_type))
            continue
        match.success = verdict.success
        match.error_type = verdict.error_type or match.error_type if not verdict.success else None
    return merged
