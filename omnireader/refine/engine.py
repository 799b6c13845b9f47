"""The Refiner: fast items in, fine items out, one LLM task per fast item, concurrently.

    >>> refiner = Refiner(make_chat_backend("openai:gpt-4o-mini"))     # doctest: +SKIP
    >>> result = refiner.refine(fast_items)                            # doctest: +SKIP
    >>> result.fine, result.fast, result.failed                        # doctest: +SKIP

Every fast item comes back: marked ``refined`` and linked to its fine items, or marked
``failed`` with a short reason (``timeout``, ``wrong_schema``, ``injection_echo``...) when
the LLM could not do it. Nothing the user passed in is lost, and no error text becomes a
memory. The backend's limiter bounds how many calls are in flight; all items of one call
are in the air at once, so a folder of documents keeps the LLM busy.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from omnireader.errors import LLMError, ReadError
from omnireader.llm.limits import LoopLocal
from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.refine.chat_overlaps import chat_overlaps
from omnireader.refine.item_kind import refine_kind
from omnireader.refine.media_kinds import (
    refine_audio,
    refine_image,
    refine_scanned_page,
    source_bytes,
)
from omnireader.refine.memory_guard import REJECTED
from omnireader.refine.results import Outcome, RefineResult, RefineTotals, assemble
from omnireader.refine.text_kinds import refine_chat, refine_document, refine_text, refine_tool
from omnireader.text.unicode_repair import repair_model

__all__ = ["Refiner", "RefineResult", "RefineTotals", "refine_kind"]


class _LoopState:
    """Per event loop: LLM tasks not yet done, and the gate parsing waits at."""

    def __init__(self) -> None:
        self.pending = 0
        self.parse_lock = asyncio.Lock()
        self.room = asyncio.Event()
        self.room.set()


class Refiner:
    """Runs fine mode for fast items with one chat backend (vision / speech attached).

    ``totals`` counts refined and failed items over every call, so a run can report them.
    ``parse_ahead`` (default: twice the backend's concurrency) is how many LLM tasks may
    wait before the async reader parses the next input (see :meth:`admission`).
    """

    def __init__(
        self, llm: Any, options: ReadOptions | None = None, *, parse_ahead: int | None = None
    ) -> None:
        self.llm = llm
        self.options = options or ReadOptions()
        self.totals = RefineTotals()
        limiter = getattr(llm, "limiter", None)
        self.parse_ahead = parse_ahead or 2 * getattr(limiter, "limit", 8)
        self._loops: LoopLocal[_LoopState] = LoopLocal(_LoopState)

    async def arefine(self, items: Sequence[MemoryItem], payload: Any = None) -> RefineResult:
        """Refine ``items`` (which came from ``payload``, when the caller still has it).

        Exact duplicate memories within the call (the same fact from two overlapping chat
        windows) are kept once; the fast items that produced them all link to it.
        """
        return await self.start(items, payload)

    def start(
        self, items: Sequence[MemoryItem], payload: Any = None
    ) -> asyncio.Future[RefineResult]:
        """:meth:`arefine` as a task started now (call it inside a running event loop);
        its LLM tasks count as pending at once, which :meth:`admission` waits on."""
        for item in items:  # the request is JSON: a file name's undecodable bytes go as \xNN
            repair_model(item)
        state = self._loops.get()
        overlaps = chat_overlaps(items)
        state.pending += len(items)
        self._update_room(state)

        async def one(item: MemoryItem) -> Outcome:
            try:
                return await self._one(item, payload, overlaps.get(item.id, 0))
            finally:
                state.pending -= 1
                self._update_room(state)

        async def run() -> RefineResult:
            done = await asyncio.gather(*(one(item) for item in items))
            result = assemble(done)
            self.totals.add(result)
            return result

        return asyncio.ensure_future(run())

    def refine(self, items: Sequence[MemoryItem], payload: Any = None) -> RefineResult:
        """Blocking :meth:`arefine` (safe inside a running event loop)."""
        return self.llm.run_sync(self.arefine(items, payload))

    @asynccontextmanager
    async def admission(self) -> AsyncIterator[None]:
        """Hold this while parsing an input for fine mode, and :meth:`start` its items inside.

        Inputs are parsed one at a time, and only while fewer than ``parse_ahead`` LLM
        tasks are waiting: the first input's calls go out at once instead of after every
        input is parsed, parsing threads do not starve the event loop of the GIL while it
        talks to the LLM, and a large folder is not held in memory all at once.
        """
        state = self._loops.get()
        async with state.parse_lock:
            while state.pending >= self.parse_ahead:
                await state.room.wait()
            yield

    def _update_room(self, state: _LoopState) -> None:
        if state.pending < self.parse_ahead:
            state.room.set()
        else:
            state.room.clear()

    async def _one(self, item: MemoryItem, payload: Any, overlap: int) -> Outcome:
        kind = refine_kind(item)
        rejected: Counter[str] = Counter()
        if kind is None:
            return item, [], None, rejected
        REJECTED.set(rejected)  # this task's own context: the guard counts into it
        try:
            fine = await self._run(kind, item, payload, overlap)
        except LLMError as e:
            return item, [], e.reason, rejected
        except ReadError as e:
            return item, [], f"source_unavailable ({e.code})", rejected
        except Exception as e:  # a broken reply or file must not lose the item
            return item, [], f"error ({type(e).__name__})", rejected
        return item, fine, None, rejected

    async def _run(
        self, kind: str, item: MemoryItem, payload: Any, overlap: int
    ) -> list[MemoryItem]:
        if kind == "chat":
            return await refine_chat(self.llm, item, overlap)
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
            return await refine_audio(self.llm, item, data, self.options)
        raise LLMError(f"no fine task for {kind!r} items", reason="unsupported")
