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
import re
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from omnireader.errors import LLMError, ReadError
from omnireader.llm.limits import LoopLocal
from omnireader.models import MemoryItem, Source
from omnireader.options import ReadOptions
from omnireader.refine.build import mark_failed, mark_refined, mark_rejected
from omnireader.refine.media_kinds import (
    refine_audio,
    refine_image,
    refine_scanned_page,
    source_bytes,
)
from omnireader.refine.memory_guard import REJECTED
from omnireader.refine.text_kinds import refine_chat, refine_document, refine_text, refine_tool
from omnireader.units import THREAD

__all__ = ["Refiner", "RefineResult", "RefineTotals", "refine_kind"]


class RefineResult(BaseModel):
    """What one :meth:`Refiner.arefine` call made: fine items, and every input item marked."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    fine: list[MemoryItem] = Field(default_factory=list)
    fast: list[MemoryItem] = Field(default_factory=list)  # the inputs, marked
    refined: int = 0
    failed: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)  # failure reason -> count
    # memories the guard kept out (omnireader.refine.memory_guard), by reason
    rejected: dict[str, int] = Field(default_factory=dict)

    def __repr__(self) -> str:  # short: see omnireader.reading.outcomes.ReadOutcome.__repr__
        return (
            f"RefineResult(fine={len(self.fine)}, fast={len(self.fast)}, refined={self.refined}, "
            f"failed={self.failed}, reasons={self.reasons}, rejected={self.rejected})"
        )


class RefineTotals(BaseModel):
    """Running counts over a Refiner's life, for a run's summary."""

    refined: int = 0
    failed: int = 0
    fine_items: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)
    rejected: dict[str, int] = Field(default_factory=dict)  # memories the guard kept out

    def add(self, result: RefineResult) -> None:
        self.refined += result.refined
        self.failed += result.failed
        self.fine_items += len(result.fine)
        self.reasons = dict(Counter(self.reasons) + Counter(result.reasons))
        self.rejected = dict(Counter(self.rejected) + Counter(result.rejected))


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
        if "needs_ocr" in m.flags:
            return "scan"
        if "ocr" in m.flags and m.extra.get("ocr_image") is None:
            # A page read by OCR: the vision model reads the page once, for its first chunk.
            return None if s.chunk_index else "scan"
        return "document"
    if s.kind == "image" and "ocr" in m.flags:
        return None  # the image's own item sends it to the vision model, which reads its text
    if s.kind == "chat":
        # Windows or messages of a conversation; a lone text part (or a system prompt) is
        # plain text.
        conversation = "window_index" in m.extra or THREAD in m.extra
        return "chat" if conversation and m.memory_type != "WorkingMemory" else "text"
    if s.kind == "tool":
        return "tool"
    return s.kind  # image, audio


_SPACE = re.compile(r"\s+")
# the fast item, its fine items, why it failed (None: it did not), memories rejected
Outcome = tuple[MemoryItem, list[MemoryItem], str | None, Counter[str]]


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
            result = _assemble(done)
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


def _dedupe_key(item: MemoryItem) -> str:
    return f"{item.metadata.user_id}|{item.metadata.session_id}|{_SPACE.sub(' ', item.memory.strip().lower())}"


def _merge_sources(into: list[Source], more: Sequence[Source]) -> list[Source]:
    seen = {s.model_dump_json() for s in into}
    return [*into, *(s for s in more if s.model_dump_json() not in seen)]


def _assemble(done: Sequence[Outcome]) -> RefineResult:
    """Mark each fast item, drop exact duplicate fine items, and count the failures."""
    result = RefineResult()
    kept: dict[str, MemoryItem] = {}
    rejected: Counter[str] = Counter()
    for fast, fine, reason, kept_out in done:
        rejected.update(kept_out)
        fast = mark_rejected(fast, kept_out)
        if reason is not None:
            result.fast.append(mark_failed(fast, reason))
            result.failed += 1
            short = reason.split(" (", 1)[0]
            result.reasons[short] = result.reasons.get(short, 0) + 1
            continue
        if refine_kind(fast) is None:
            result.fast.append(fast)  # nothing to refine: as it came
            continue
        ids: list[str] = []
        for item in fine:
            first = kept.get(_dedupe_key(item))
            if first is None:
                kept[_dedupe_key(item)] = item
                result.fine.append(item)
                ids.append(item.id)
                continue
            # The same fact again: link to the first copy, which now cites both origins.
            meta = first.metadata
            meta.refined_from = list(dict.fromkeys([*meta.refined_from, fast.id]))
            meta.sources = _merge_sources(meta.sources, item.metadata.sources)
            ids.append(first.id)
        result.fast.append(mark_refined(fast, ids))
        result.refined += 1
    result.rejected = dict(rejected)
    return result


def _message_key(s: Source) -> str:
    return s.message_id or f"{s.content_hash}|{s.chat_time}|{s.char_start}"


def chat_overlaps(items: Sequence[MemoryItem]) -> dict[str, int]:
    """For each chat window, how many of its first messages the window before it held.

    Windows are refined concurrently, so instead of waiting for the previous window's
    memories the prompt marks those messages as already processed. The window before is
    found by ``window_index`` (and the messages shared), so items may come in any order,
    as they do from a store.
    """
    windows = [i for i in items if refine_kind(i) == "chat"]
    keys = {
        w.id: [_message_key(s) for s in w.metadata.sources if s.kind == "chat"] for w in windows
    }
    by_place: dict[tuple[Any, ...], list[MemoryItem]] = defaultdict(list)
    for w in windows:
        m = w.metadata
        by_place[(m.user_id, m.session_id, m.extra.get("window_index"))].append(w)
    out: dict[str, int] = {}
    for w in windows:
        m = w.metadata
        index = m.extra.get("window_index")
        if not isinstance(index, int) or index < 1:
            continue
        mine = keys[w.id]
        best = 0
        for before in by_place.get((m.user_id, m.session_id, index - 1), []):
            held = set(keys[before.id])
            n = 0
            while n < len(mine) and mine[n] in held:
                n += 1
            best = max(best, n)
        if best:
            out[w.id] = best
    return out
