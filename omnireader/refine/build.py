"""Turn what the LLM extracted into fine memory items linked to their fast item."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import LLMError
from ..ids import item_id
from ..llm.schemas import ExtractedMemory
from ..models import MemoryItem, MemoryMetadata, MemoryType, Source, utc_now
from ..normalize import normalize_time
from .guard import is_error_text, is_injection_echo

__all__ = ["fine_items", "mark_refined", "mark_failed"]


def _pick_sources(sources: Sequence[Source], indexes: Sequence[int]) -> list[Source]:
    picked = [sources[i] for i in dict.fromkeys(indexes) if 0 <= i < len(sources)]
    return picked or list(sources)


def fine_items(
    fast: MemoryItem,
    memories: Sequence[ExtractedMemory],
    *,
    sources: Sequence[Source] | None = None,
    memory_type: MemoryType | None = None,
    first_index: int = 0,
    **metadata: object,
) -> list[MemoryItem]:
    """Fine items for ``memories``; ids derive from the fast item's id and the position.

    ``sources`` are what ``source_indexes`` point into (messages, segments); by default
    every fine item keeps all of the fast item's sources. Error text is dropped; an
    injected instruction passed off as a memory fails the whole reply.
    """
    base_sources = list(sources if sources is not None else fast.metadata.sources)
    out: list[MemoryItem] = []
    for n, m in enumerate(memories, start=first_index):
        text = m.memory.strip()
        if is_injection_echo(text) or is_injection_echo(m.key):
            raise LLMError("the reply repeats instructions found in the input", reason="injection_echo")
        if is_error_text(text):
            continue
        chosen = _pick_sources(base_sources, m.source_indexes) if sources is not None else base_sources
        fm = fast.metadata
        out.append(
            MemoryItem(
                id=item_id(fast.id, "fine", n),
                memory=text,
                metadata=MemoryMetadata(
                    user_id=fm.user_id,
                    session_id=fm.session_id,
                    memory_type=memory_type or m.memory_type,
                    mode="fine",
                    key=m.key or None,
                    tags=m.tags,
                    keywords=m.keywords,
                    timestamp=normalize_time(m.timestamp) or fm.timestamp,
                    persons=m.persons,
                    entities=m.entities,
                    location=m.location,
                    topic=m.topic,
                    sources=chosen,
                    refined_from=[fast.id],
                    **metadata,  # type: ignore[arg-type]
                ),
            )
        )
    return out


def mark_refined(fast: MemoryItem, fine: Sequence[MemoryItem]) -> MemoryItem:
    """The fast item, kept and linked to the fine items made from it."""
    return fast.model_copy(
        update={
            "metadata": fast.metadata.model_copy(
                update={
                    "refine_status": "refined",
                    "refine_reason": None,
                    "refined_into": [i.id for i in fine],
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
                update={"refine_status": "failed", "refine_reason": reason, "updated_at": utc_now()}
            )
        }
    )
