"""What a refine call made: fine items, every input item marked, and the counts; the fine
items of one call assembled with exact duplicates kept once."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from omnireader.models import MemoryItem, Source
from omnireader.refine.build import mark_failed, mark_refined, mark_rejected
from omnireader.refine.item_kind import refine_kind

__all__ = ["RefineResult", "RefineTotals", "Outcome", "assemble"]

_SPACE = re.compile(r"\s+")
# the fast item, its fine items, why it failed (None: it did not), memories rejected
Outcome = tuple[MemoryItem, list[MemoryItem], str | None, Counter[str]]


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


def _dedupe_key(item: MemoryItem) -> str:
    return f"{item.metadata.user_id}|{item.metadata.session_id}|{_SPACE.sub(' ', item.memory.strip().lower())}"


def _merge_sources(into: list[Source], more: Sequence[Source]) -> list[Source]:
    seen = {s.model_dump_json() for s in into}
    return [*into, *(s for s in more if s.model_dump_json() not in seen)]


def assemble(done: Sequence[Outcome]) -> RefineResult:
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
