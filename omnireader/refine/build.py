"""Turn what the LLM extracted into fine memory items linked to their fast item."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from omnireader.errors import LLMError
from omnireader.ids import item_id
from omnireader.llm.schemas import ExtractedMemory
from omnireader.models import MemoryItem, MemoryMetadata, MemoryType, Source, utc_now
from omnireader.normalize import normalize_time
from omnireader.refine.guard import is_error_text, is_injection_echo
from omnireader.refine.memory_guard import MemoryGuard, note_rejection

__all__ = [
    "fine_items",
    "check_written",
    "mark_refined",
    "mark_failed",
    "mark_rejected",
    "NO_MEMORIES",
]

#: ``refine_reason`` of a fast item the LLM read and found nothing worth remembering in.
NO_MEMORIES = "no_memories"


def _pick_sources(sources: Sequence[Source], indexes: Sequence[int]) -> list[Source]:
    picked = [sources[i] for i in dict.fromkeys(indexes) if 0 <= i < len(sources)]
    return picked or list(sources)


def _unique(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v and v.strip()))


def fine_items(
    fast: MemoryItem,
    memories: Sequence[ExtractedMemory],
    *,
    sources: Sequence[Source] | None = None,
    memory_type: MemoryType | None = None,
    first_index: int = 0,
    verbatim: bool = False,
    guard: MemoryGuard | None = None,
    **metadata: Any,
) -> list[MemoryItem]:
    """Fine items for ``memories``; ids derive from the fast item's id and the position.

    ``sources`` are what ``source_indexes`` point into (messages, segments); by default
    every fine item keeps all of the fast item's sources. ``verbatim`` marks text copied
    from the input (a transcript, a page's OCR text) rather than written by the model: it
    is data, so instructions inside it are not held against the reply. ``metadata``
    overrides the fine items' metadata fields.

    Error text and refusals are dropped (a reply made only of them raises
    ``LLMError(reason="error_text")``); an injected instruction passed off as a memory
    fails the whole reply (``LLMError(reason="injection_echo")``). ``guard`` checks each
    memory against its source and prompt (:class:`MemoryGuard`): a rejected memory is
    dropped and counted; when every memory is rejected the item fails with the commonest
    reason (``placeholder``, ``unknown_person``...), so the fast item is kept.
    """
    base_sources = list(sources if sources is not None else fast.metadata.sources)
    fm = fast.metadata
    out: list[MemoryItem] = []
    errors = 0
    rejected: Counter[str] = Counter()
    for n, m in enumerate(memories, start=first_index):
        text = m.memory.strip()
        if not verbatim and (is_injection_echo(text) or is_injection_echo(m.key)):
            raise LLMError(
                "the reply repeats instructions found in the input", reason="injection_echo"
            )
        if is_error_text(text):
            errors += 1
            continue
        chosen = (
            _pick_sources(base_sources, m.source_indexes) if sources is not None else base_sources
        )
        if guard is not None and not verbatim:
            times = [t for s in chosen if (t := normalize_time(s.chat_time))]
            m, why = guard.check(m, max(times) if times else None)
            if why is not None:
                rejected[why] += 1
                note_rejection(why)
                continue
            text = m.memory.strip()
        fields: dict[str, Any] = dict(
            user_id=fm.user_id,
            session_id=fm.session_id,
            memory_type=memory_type or m.memory_type,
            mode="fine",
            key=m.key.strip() or None,
            tags=_unique(m.tags),
            keywords=_unique(m.keywords),
            timestamp=normalize_time(m.timestamp) or fm.timestamp,
            persons=_unique(m.persons),
            entities=_unique(m.entities),
            location=m.location or fm.location,
            topic=m.topic or None,
            sources=chosen,
            refined_from=[fast.id],
        )
        fields.update(metadata)
        out.append(
            MemoryItem(
                id=item_id(fast.id, "fine", n), memory=text, metadata=MemoryMetadata(**fields)
            )
        )
    if rejected and not out:
        why = rejected.most_common(1)[0][0]
        listed = ", ".join(f"{r} {k}" for r, k in rejected.most_common())
        raise LLMError(f"the guard rejected every memory ({listed})", reason=why)
    if errors and not out:
        raise LLMError("the reply holds only error messages or refusals", reason="error_text")
    return out


def check_written(text: str, what: str) -> str:
    """``text`` the model wrote (a description, an experience), checked like a memory.

    Raises ``LLMError`` for an obeyed injection; returns "" for error text or a refusal.
    """
    if is_injection_echo(text):
        raise LLMError(
            f"the {what} repeats instructions found in the input", reason="injection_echo"
        )
    return "" if is_error_text(text) else " ".join(text.split())


def mark_refined(fast: MemoryItem, fine_ids: Sequence[str]) -> MemoryItem:
    """The fast item, kept and linked to the fine items made from it.

    With no fine items (the LLM found nothing worth remembering) the reason says so.
    """
    return fast.model_copy(
        update={
            "metadata": fast.metadata.model_copy(
                update={
                    "refine_status": "refined",
                    "refine_reason": None if fine_ids else NO_MEMORIES,
                    "refined_into": list(dict.fromkeys(fine_ids)),
                    "updated_at": utc_now(),
                }
            )
        }
    )


def mark_failed(fast: MemoryItem, reason: str) -> MemoryItem:
    """The fast item, kept as it is and marked with why the LLM could not refine it."""
    return fast.model_copy(
        update={
            "metadata": fast.metadata.model_copy(
                update={
                    "refine_status": "failed",
                    "refine_reason": reason,
                    "refined_into": [],
                    "updated_at": utc_now(),
                }
            )
        }
    )


def mark_rejected(fast: MemoryItem, rejected: dict[str, int]) -> MemoryItem:
    """The fast item noting the memories the guard kept out of its fine items, by reason
    (``extra["guard_rejected"]``); as it is when there were none."""
    if not rejected:
        return fast
    extra = {**fast.metadata.extra, "guard_rejected": dict(rejected)}
    return fast.model_copy(update={"metadata": fast.metadata.model_copy(update={"extra": extra})})
