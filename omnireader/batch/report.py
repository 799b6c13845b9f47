"""What an ingest did, counted so it adds up: inputs, then the parts inside them.

Every input is exactly one of *read* (it gave items; some of its parts may have failed),
*skipped* (unchanged since it was recorded) or *failed* (it gave nothing), so
``read + skipped + failed == inputs``. Parts that failed inside inputs that were read (a
corrupt ZIP member, an unreachable image in a message) are counted apart, never as inputs.

A failure is *transient* when trying again later may succeed (a timeout, a crashed worker,
a fetch that failed, a file that could not be opened): such an input is not recorded as
done, so the next run reads it again. Every other failure (corrupt, unsupported,
encrypted, empty…) is permanent: the input is recorded as done with its failures, and a
re-run skips it.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from omnireader.models import MemoryItem, Mode, ReadFailure
from omnireader.page_counts import page_counts
from omnireader.reading.unread_pages import CODE as NEEDS_OCR
from omnireader.text.unicode_repair import repair_model

__all__ = [
    "IngestReport",
    "ItemSummary",
    "TRANSIENT_ERRORS",
    "TRANSIENT_LLM_REASONS",
    "is_transient",
]

#: read failures worth retrying on the next run
TRANSIENT_ERRORS = frozenset({"timeout", "crashed", "fetch_failed", "internal"})
#: fine mode: LLM failures that say "try again later" (the item was stored fast)
TRANSIENT_LLM_REASONS = frozenset({"transport", "timeout", "rate_limited", "server_error"})


def is_transient(failure: ReadFailure) -> bool:
    return failure.error in TRANSIENT_ERRORS


class ItemSummary(BaseModel):
    """What the report counts of one input's items: a parser process sends this (with the
    items' rows) instead of the items themselves."""

    items: int = 0
    pages_ocr: int = 0
    pages_unreadable: int = 0
    refine_reasons: dict[str, int] = Field(default_factory=dict)  # items left fast, by why

    @classmethod
    def of(cls, items: list[MemoryItem]) -> ItemSummary:
        # A page nothing read is counted from its failure record (IngestReport.account).
        ocr_read, unreadable = page_counts(i for i in items if "not_read" not in i.metadata.extra)
        reasons: Counter[str] = Counter(
            (item.metadata.refine_reason or "unknown").split(" (", 1)[0]
            for item in items
            if item.metadata.refine_status == "failed"
        )
        return cls(
            items=len(items),
            pages_ocr=ocr_read,
            pages_unreadable=unreadable,
            refine_reasons=dict(reasons),
        )


class IngestReport(BaseModel):
    """What an ingest did; ``omnireader ingest --report FILE`` writes this as JSON."""

    store: str
    mode: Mode
    inputs: int = 0
    files_read: int = 0  # inputs that gave items (files, messages, strings...)
    files_skipped: int = 0  # unchanged since they were recorded
    files_failed: int = 0  # inputs that gave no item
    files_partial: int = 0  # read, but some of their parts failed
    files_to_retry: int = 0  # failed transiently: not recorded, the next run reads them
    parts_failed: int = 0  # failed parts of inputs that were read
    items_inserted: int = 0
    items_updated: int = 0
    items_deleted: int = 0  # stale items of changed files, and (--sync) of removed files
    files_removed: int = 0  # --sync: paths under the roots that no longer exist
    items_archived: int = 0  # --keep-history: stale items of changed files, kept in history
    items_linked: int = 0  # --link-near-duplicates: chunks linked to a stored near duplicate
    # --consolidate (fine mode): the LLM's decisions by kind, and the memories it could
    # not compare (the LLM failed: the new memory was added, nothing archived)
    consolidated: dict[str, int] = Field(default_factory=dict)
    consolidate_failed: int = 0
    failures: list[ReadFailure] = Field(default_factory=list)
    failed_by_error: dict[str, int] = Field(default_factory=dict)  # failed inputs by code
    parts_failed_by_error: dict[str, int] = Field(default_factory=dict)
    refine_failed: int = 0  # fine mode: items left fast because the LLM failed
    refine_reasons: dict[str, int] = Field(default_factory=dict)
    pages_ocr: int = 0  # pages and image frames whose text OCR read
    pages_unreadable: int = 0  # pages with no text layer OCR did not read, undecodable pages
    next_step: str | None = None  # what to run to finish the job, when something is left
    seconds: float = 0.0

    def account(self, items: list[MemoryItem] | ItemSummary, failures: list[ReadFailure]) -> None:
        """Count one input that was read (or not): its items, or their summary."""
        got = items if isinstance(items, ItemSummary) else ItemSummary.of(items)
        for f in failures:  # a worker that died names its file as given: \xNN for its bytes
            repair_model(f)
        self.failures.extend(failures)
        if got.items:
            self.files_read += 1
            if failures:
                self.files_partial += 1
                self.parts_failed += len(failures)
                self.parts_failed_by_error = _add(self.parts_failed_by_error, failures)
        elif failures:
            self.files_failed += 1
            self.failed_by_error = _add(self.failed_by_error, failures[:1])
        else:
            self.files_read += 1  # read, and there was nothing in it to remember
        if any(is_transient(f) for f in failures):
            self.files_to_retry += 1
        self.pages_ocr += got.pages_ocr
        # Pages nothing read give no item: their failure records name them.
        self.pages_unreadable += got.pages_unreadable + sum(
            len(f.pages) or 1 for f in failures if f.error == NEEDS_OCR
        )
        for reason, n in got.refine_reasons.items():
            self.refine_failed += n
            self.refine_reasons[reason] = self.refine_reasons.get(reason, 0) + n

    @property
    def llm_left_items_to_retry(self) -> bool:
        return any(r in TRANSIENT_LLM_REASONS for r in self.refine_reasons)

    @property
    def ok(self) -> bool:
        """Nothing failed: every input was read whole (or skipped) and refined if asked."""
        return not self.failures and not self.refine_failed

    def summary(self) -> str:
        def listed(counts: dict[str, int]) -> str:
            return ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))

        read = f"{self.files_read} read"
        if self.files_partial:
            read += (
                f" ({self.files_partial} with {_n(self.parts_failed, 'part')} not read: "
                f"{listed(self.parts_failed_by_error)})"
            )
        failed = f"{self.files_failed} failed"
        if self.failed_by_error:
            failed += f" ({listed(self.failed_by_error)})"
        text = (
            f"{_n(self.inputs, 'input')}: {read}, {self.files_skipped} skipped (unchanged), "
            f"{failed}; {self.items_inserted} items new, {self.items_updated} updated, "
            f"{self.items_deleted} removed"
        )
        if self.files_removed:
            text += f" ({_n(self.files_removed, 'file')} gone from disk)"
        if self.items_archived:
            text += f", {self.items_archived} archived (kept in history)"
        if self.items_linked:
            text += f", {self.items_linked} linked to a near duplicate"
        if self.consolidated or self.consolidate_failed:
            text += f"; consolidated: {listed(self.consolidated) or 'nothing'}"
            if self.consolidate_failed:
                text += f" ({self.consolidate_failed} not compared: LLM failed)"
        if self.refine_failed:
            text += f"; {self.refine_failed} left fast (LLM failed: {listed(self.refine_reasons)})"
        if self.pages_ocr:
            text += f"; {_n(self.pages_ocr, 'page')} OCR'd"
        if self.pages_unreadable:
            text += f"; {_n(self.pages_unreadable, 'page')} unreadable"
        text += f" in {self.seconds:.1f}s → {self.store}"
        if self.files_to_retry:
            text += (
                f"\n{_n(self.files_to_retry, 'input')} failed for a reason that may pass "
                "(timeout, crash, fetch): run the same command again to retry them"
            )
        if self.next_step:
            text += f"\nnext: {self.next_step}"
        return text


def _add(counts: dict[str, int], failures: list[ReadFailure]) -> dict[str, int]:
    return dict(Counter(counts) + Counter(f.error for f in failures))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
