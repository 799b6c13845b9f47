"""Fine mode for text: chat windows, document chunks, plain text and tool trajectories.

Each function makes one LLM call for one fast item and returns the fine items; failures
raise :class:`~omnireader.errors.LLMError`, which the engine turns into a marked fast item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omnireader.llm.schemas import ExtractedMemory, Extraction, TrajectoryReview
from omnireader.models import MemoryItem, Source, ToolUse
from omnireader.normalize import guess_lang, normalize_time
from omnireader.prompts import load_prompt
from omnireader.refine.asking import ask_while
from omnireader.refine.build import check_written, fine_items
from omnireader.refine.memory_guard import MemoryGuard

__all__ = [
    "refine_chat",
    "refine_document",
    "refine_text",
    "refine_tool",
    "reference_time",
    "ALREADY_PROCESSED",
]

#: How a chat window marks the messages the window before it already covered.
ALREADY_PROCESSED = "(already processed; context only)"


def reference_time(item: MemoryItem) -> str:
    """The latest message time among the item's sources, else its timestamp."""
    times = [t for s in item.metadata.sources if (t := normalize_time(s.chat_time))]
    return max(times) if times else (item.metadata.timestamp or "unknown")


def _line(n: int, s: Source, seen: bool) -> str:
    who = s.role or "unknown"
    if s.name:
        who += f" ({s.name})"
    when = normalize_time(s.chat_time) or s.chat_time or "no time"
    mark = f"{ALREADY_PROCESSED} " if seen else ""
    return f"[{n}] {mark}{when}, {who}: {s.content or ''}"


async def refine_chat(llm: Any, item: MemoryItem, overlap: int = 0) -> list[MemoryItem]:
    """A chat window: restatements with absolute times; sources are the messages used.

    The first ``overlap`` messages were in the window before (windows are refined
    concurrently, so instead of that window's memories the prompt says which messages
    were already processed).
    """
    sources = [s for s in item.metadata.sources if s.kind == "chat"]
    if not sources:  # not a window of messages: read it as general text
        return await refine_text(llm, item)
    lines = "\n".join(_line(n, s, n < overlap) for n, s in enumerate(sources))
    prompt = load_prompt("chat_window", guess_lang(lines))
    messages = prompt.render(messages=lines, reference_time=reference_time(item))
    got, guard = await ask_while(
        llm,
        messages,
        Extraction,
        lambda: MemoryGuard(
            lines, times=[s.chat_time for s in sources], prompt=_instructions(messages)
        ),
    )
    return fine_items(item, got.memories, sources=sources, summary=got.summary, guard=guard)


def _instructions(messages: Sequence[dict[str, Any]]) -> str:
    """The prompt's instructions (its system turn), which a memory must not repeat."""
    return "\n".join(
        m["content"]
        for m in messages
        if m.get("role") == "system" and isinstance(m.get("content"), str)
    )


def _where(item: MemoryItem) -> str:
    s = item.source
    where = (s.member or s.filename or s.path or s.url or "document") if s else "document"
    if s and s.page is not None:
        where += f", page {s.page}"
    if s and s.chunk_total and s.chunk_total > 1 and s.chunk_index is not None:
        where += f", part {s.chunk_index + 1} of {s.chunk_total}"
    heading = item.metadata.extra.get("heading")
    if heading:
        where += f", section {heading!r}"
    if item.metadata.key:
        where = f"{item.metadata.key} ({where})"
    return where


async def refine_document(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """A document chunk: facts with table rows and numbers exact; page provenance kept."""
    prompt = load_prompt("document_chunk", guess_lang(item.memory))
    messages = prompt.render(
        document=item.memory,
        source=_where(item),
        reference_time=item.metadata.timestamp or "unknown",
    )
    got, guard = await ask_while(
        llm,
        messages,
        Extraction,
        lambda: MemoryGuard(
            f"{_where(item)}\n{item.memory}",
            times=[item.metadata.timestamp],
            prompt=_instructions(messages),
        ),
    )
    # Title, heading, format and page count stay with the facts, like the page itself.
    return fine_items(
        item, got.memories, summary=got.summary, extra=dict(item.metadata.extra), guard=guard
    )


async def refine_text(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """Strings and text parts: the general-text prompt."""
    prompt = load_prompt("general_text", guess_lang(item.memory))
    when = reference_time(item)
    messages = prompt.render(text=item.memory, reference_time=when)
    got, guard = await ask_while(
        llm,
        messages,
        Extraction,
        lambda: MemoryGuard(item.memory, times=[when], prompt=_instructions(messages)),
    )
    return fine_items(item, got.memories, summary=got.summary, guard=guard)


def _step(n: int, s: Source) -> str:
    head = f"[{n}] {s.role or 'step'}"
    if s.name:
        head += f" ({s.name})"
    if s.tool_call_id:
        head += f" (result of call {s.tool_call_id})"
    return f"{head}: {s.content or ''}"


async def refine_tool(llm: Any, item: MemoryItem) -> list[MemoryItem]:
    """A tool trajectory: correctness, a "when … then …" experience, per-tool verdicts.

    The fine trajectory item (position 0) is the fast rendering plus the verdict; the
    facts the tools established follow as their own items.
    """
    sources = item.metadata.sources
    steps = "\n".join(_step(n, s) for n, s in enumerate(sources)) or item.memory
    # The fast rendering states each call's outcome plainly; the raw steps carry the detail.
    trajectory = f"{item.memory}\n\nRaw steps:\n{steps}" if sources else steps
    prompt = load_prompt("tool_trajectory", guess_lang(item.memory))
    review: TrajectoryReview
    messages = prompt.render(trajectory=trajectory, reference_time=reference_time(item))
    review, guard = await ask_while(
        llm,
        messages,
        TrajectoryReview,
        lambda: MemoryGuard(
            trajectory, times=[reference_time(item)], prompt=_instructions(messages)
        ),
    )
    experience = check_written(review.experience, "experience")
    # The head item repeats the trajectory verbatim (a tool result may legitimately say
    # "ignore previous instructions"); only what the model wrote is checked.
    verdict = ExtractedMemory(
        memory=f"{item.memory}\nOutcome: {review.correctness}."
        + (f" Experience: {experience}" if experience else ""),
        key=item.metadata.key or "",
        tags=item.metadata.tags,
        keywords=item.metadata.keywords,
    )
    [head] = fine_items(
        item,
        [verdict],
        verbatim=True,
        memory_type="ToolTrajectoryMemory",
        tools=_merge_verdicts(item.metadata.tools, review),
        correctness=review.correctness,
        experience=experience or None,
        persons=item.metadata.persons,
        timestamp=item.metadata.timestamp,
    )
    facts = fine_items(item, review.memories, sources=sources, first_index=1, guard=guard)
    return [head, *facts]


def _merge_verdicts(tools: Sequence[ToolUse], review: TrajectoryReview) -> list[ToolUse]:
    """The fast item's tool uses with the reviewer's success / error type for each.

    Verdicts pair with calls by position when the names agree, else with the first call of
    that name not yet judged; a verdict naming a tool that was never called is ignored
    when the calls are known (a model's invention must not add a tool).
    """
    merged = [t.model_copy() for t in tools]
    judged: set[int] = set()
    for n, verdict in enumerate(review.tools):
        if n < len(merged) and n not in judged and merged[n].name == verdict.name:
            idx: int | None = n
        else:
            idx = next(
                (i for i, t in enumerate(merged) if t.name == verdict.name and i not in judged),
                None,
            )
        if idx is None:
            if not tools:
                merged.append(
                    ToolUse(
                        name=verdict.name,
                        success=verdict.success,
                        error_type=None if verdict.success else verdict.error_type,
                    )
                )
            continue
        judged.add(idx)
        use = merged[idx]
        use.success = verdict.success
        use.error_type = (
            None if verdict.success else (verdict.error_type or use.error_type or "unknown")
        )
    return merged
