"""The Refiner: fast items in, fine items out, one LLM task per fast item, concurrently.

    >>> refiner = Refiner(make_chat_backend("openai:gpt-4o-mini"))     # doctest: +SKIP
    >>> result = refiner.refine(fast_items)                            # doctest: +SKIP
    >>> result.fine, result.fast                                       # doctest: +SKIP

Every fast item comes back: marked ``refined`` and linked to its fine items, or marked
``failed`` with a short reason (``timeout``, ``wrong_schema``, ``injection_echo``...) when
the LLM could not do it. Nothing the user passed in is lost, and no error text becomes a
memory. The backend's semaphore bounds how many calls are in flight.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..errors import LLMError, ReadError
from ..models import MemoryItem
from ..options import ReadOptions
from .build import mark_failed, mark_refined
from .media_kinds import refine_audio, refine_image, refine_scanned_page, source_bytes
from .text_kinds import refine_chat, refine_document, refine_text, refine_tool

__all__ = ["Refiner", "RefineResult", "refine_kind"]


class RefineResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    fine: list[MemoryItem] = Field(default_factory=list)
    fast: list[MemoryItem] = Field(default_factory=list)  # the inputs, marked
    failed: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)

    def merge(self, other: RefineResult) -> None:
        self.fine.extend(other.fine)
        self.fast.extend(other.fast)
        self.failed += other.failed
        self.reasons = dict(Counter(self.reasons) + Counter(other.reasons))


def refine_kind(item: MemoryItem) -> str | None:
    """Which fine task an item needs, or None when there is nothing to refine."""
    m = item.metadata
    if m.mode == "fine" or "unresolved_reference" in m.flags:
        return None
    if m.memory_type == "ToolTrajectoryMemory":
        return "tool"
    s = item.source
    if s is None or s.kind == "string":
        return "text"
    if s.kind == "file":
        return "scan" if "needs_ocr" in m.flags else "document"
    if s.kind == "chat" and m.memory_type == "WorkingMemory":
        return "text"
    return s.kind  # chat, image, audio


_SPACE = re.compile(r"\s+")


class Refiner:
    """Runs fine mode for fast items with one chat backend (vision / speech attached)."""

    def __init__(self, llm: Any, options: ReadOptions | None = None) -> None:
        self.llm = llm
        self.options = options or ReadOptions()
        self._seen: set[str] = set()  # exact duplicates within a run are dropped

    async def arefine(self, items: Sequence[MemoryItem], payload: Any = None) -> RefineResult:
        """Refine ``items`` (which came from ``payload``, when the caller still has it)."""
        earlier = _chat_overlaps(items)
        done = await asyncio.gather(
            *(self._one(item, payload, earlier.get(item.id, ())) for item in items)
        )
        result = RefineResult()
        for fast, fine, reason in done:
            result.fast.append(fast)
            result.fine.extend(self._dedupe(fine))
            if reason:
                result.failed += 1
                result.reasons[reason] = result.reasons.get(reason, 0) + 1
        return result

    def refine(self, items: Sequence[MemoryItem], payload: Any = None) -> RefineResult:
        """Blocking :meth:`arefine` (safe inside a running event loop)."""
        return self.llm._run_sync(self.arefine(items, payload))

    async def _one(
        self, item: MemoryItem, payload: Any, earlier: Sequence[str]
    ) -> tuple[MemoryItem, list[MemoryItem], str | None]:
        kind = refine_kind(item)
        if kind is None:
            return item, [], None
        try:
            fine = await self._run(kind, item, payload, earlier)
        except LLMError as e:
            return mark_failed(item, e.reason), [], e.reason
        except ReadError as e:
            reason = f"source_unavailable ({e.code})"
            return mark_failed(item, reason), [], "source_unavailable"
        except Exception as e:  # a broken reply must not lose the item
            reason = f"error ({type(e).__name__})"
            return mark_failed(item, reason), [], "error"
        return mark_refined(item, fine), fine, None

    async def _run(self, kind: str, item: MemoryItem, payload: Any,
                   earlier: Sequence[str]) -> list[MemoryItem]:
        if kind == "chat":
            return await refine_chat(self.llm, item, earlier)
        if kind == "document":
            return await refine_document(self.llm, item)
        if kind == "tool":
            return await refine_tool(self.llm, item)
        if kind == "text":
            return await refine_text(self.llm, item)
        data = await asyncio.to_thread(source_bytes, item, payload, self.options)
        if kind == "image":
            return await refine_image(self.llm, item, data)
        if kind == "scan":
            return await refine_scanned_page(self.llm, item, data, self.options)
        if kind == "audio":
            return await refine_audio(self.llm, item, data)
        raise LLMError(f"no fine task for {kind!r} items", reason="unsupported")

    def _dedupe(self, items: list[MemoryItem]) -> list[MemoryItem]:
        out = []
        for i in items:
            key = f"{i.metadata.user_id}|{_SPACE.sub(' ', i.memory.strip().lower())}"
            if key not in self._seen:
                self._seen.add(key)
                out.append(i)
        return out


def _chat_overlaps(items: Sequence[MemoryItem]) -> dict[str, list[str]]:
    """For each chat window, the messages it repeats from the window before it.

    Windows are refined concurrently, so instead of waiting for the previous window's
    memories the prompt is told which of its messages were already processed.
    """
    out: dict[str, list[str]] = {}
    prev: set[str] = set()
    for item in items:
        if refine_kind(item) != "chat":
            prev = set()
            continue
        hashes = {s.content_hash for s in item.metadata.sources if s.content_hash}
        repeated = [
            f"(already processed) {s.role}: {s.content}"
            for s in item.metadata.sources
            if s.content_hash in prev and s.content
        ]
        if repeated:
            out[item.id] = repeated
        prev = hashes
    return out
