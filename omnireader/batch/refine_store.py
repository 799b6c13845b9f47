"""Fast→fine transfer for a store: upgrade the fast items already stored, in place.

Each fast item stays (its original text remains searchable), marked ``refined`` and linked
to the fine items made from it, or marked ``failed`` with the reason; the fine items are
added beside it. Items already refined are skipped unless ``force``; fine items a forced
re-run no longer produces are removed.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from omnireader.batch.progress import Progress
from omnireader.errors import FineModeUnavailableError
from omnireader.models import MemoryItem
from omnireader.options import ReadOptions

__all__ = ["RefineReport", "refine_store"]


class RefineReport(BaseModel):
    considered: int = 0
    refined: int = 0
    failed: int = 0
    fine_items: int = 0
    stale_removed: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        why = ", ".join(f"{k}: {v}" for k, v in sorted(self.reasons.items()))
        return (
            f"{self.considered} fast items: {self.refined} refined into {self.fine_items} fine "
            f"items, {self.failed} left fast{f' ({why})' if why else ''}"
            + (f", {self.stale_removed} stale fine items removed" if self.stale_removed else "")
            + f" in {self.seconds:.1f}s"
        )


def refine_store(
    store: Any,
    llm: Any,
    filters: Any = None,
    *,
    limit: int | None = None,
    force: bool = False,
    group: int = 64,
    options: ReadOptions | None = None,
    progress: bool = False,
) -> RefineReport:
    """Refine the store's fast items matching ``filters`` with ``llm``; see the module doc."""
    if llm is None:
        raise FineModeUnavailableError(
            "refining needs an LLM backend: --llm openai:MODEL or --llm ollama:MODEL"
        )
    from omnireader.refine import Refiner
    from omnireader.store import SearchFilters

    started = time.perf_counter()
    base = filters.model_dump() if isinstance(filters, SearchFilters) else dict(filters or {})
    chosen = [
        item
        for item in store.iter_items(SearchFilters(**{**base, "mode": "fast"}))
        if force or item.metadata.refine_status != "refined"
    ][:limit]
    report = RefineReport(considered=len(chosen))
    bar = Progress(len(chosen), label="items", enabled=progress)
    refiner = Refiner(llm, options)

    async def run() -> None:
        for start in range(0, len(chosen), group):
            batch = chosen[start : start + group]
            result = await refiner.arefine(batch)
            _write(store, batch, result, report)
            bar.update(done=len(batch), items=len(result.fine), failed=result.failed)

    llm.run_sync(run())
    bar.close()
    if report.fine_items or report.stale_removed:
        store.optimize()
    report.seconds = time.perf_counter() - started
    return report


def _write(store: Any, before: list[MemoryItem], result: Any, report: RefineReport) -> None:
    store.add([*result.fine, *result.fast])
    made = {i.id for i in result.fine}
    stale = [old for item in before for old in item.metadata.refined_into if old not in made]
    if stale:
        report.stale_removed += store.delete(ids=stale)
    report.refined += result.refined
    report.failed += result.failed
    report.fine_items += len(result.fine)
    report.reasons = dict(Counter(report.reasons) + Counter(result.reasons))
