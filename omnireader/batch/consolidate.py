"""Consolidation (fine mode, ``consolidate=True``): new memories against the ones they change.

Each new fine memory is compared with the few most similar current memories of the same user
and session (hybrid search, :data:`CANDIDATES`); when there are any, the LLM decides, under a
validated schema (:class:`Verdict`), how the new one relates to them:

- ``duplicate`` of memory N: N gets the new memory's sources (a new version, update_type
  ``duplicate``) and the new memory is archived, superseded by N;
- ``update`` / ``conflict`` of N: N is archived, superseded by the new memory;
- ``unrelated``: nothing changes.

The decision is recorded on the new memory (``metadata.extra["consolidation"]``) and, through
the archive, in the histories of the memories it touched. When the LLM fails (or names a
memory it was not shown) the new memory stays, nothing is archived, and the failure is counted
and recorded. New memories are taken in time order, each against what is current by then: a
fact stated and changed within one conversation ends with the change current.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from string import Template
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from omnireader.errors import LLMError
from omnireader.models import MemoryItem, Mode

if TYPE_CHECKING:
    from omnireader.llm.base import ChatBackend
    from omnireader.store import Store

__all__ = ["Verdict", "ConsolidationResult", "consolidate", "CANDIDATES", "RECORD_KEY"]

#: how many similar current memories each new one is compared with
CANDIDATES = 3
#: where the decision is recorded on the new memory (``metadata.extra``)
RECORD_KEY = "consolidation"
_TAGS = re.compile(r"<(/?)\s*(text|context)\s*>", re.I)


class Verdict(BaseModel):
    """How a new memory relates to the stored memories it was shown (numbered from 1)."""

    decision: Literal["duplicate", "update", "conflict", "unrelated"]
    memory: int | None = Field(
        None, description="the number of the stored memory the decision is about; null if unrelated"
    )
    reason: str = ""


class ConsolidationResult(BaseModel):
    """What consolidation decided: counts by decision, and the memories not compared."""

    decisions: dict[str, int] = Field(default_factory=dict)
    failed: int = 0
    failures: dict[str, int] = Field(default_factory=dict)  # by reason

    def count(self, decision: str) -> None:
        self.decisions[decision] = self.decisions.get(decision, 0) + 1


def consolidate(
    store: Store, llm: ChatBackend, item_ids: Iterable[str], *, candidates: int = CANDIDATES
) -> ConsolidationResult:
    """Consolidate the stored memories ``item_ids`` (just written) into the store."""
    ids = list(dict.fromkeys(item_ids))
    result = ConsolidationResult()
    if not ids:
        return result

    async def run() -> None:
        pending = set(ids)
        for item in _in_time_order(store.get_many(ids)):
            pending.discard(item.id)
            current = store.get(item.id)
            if current is None:  # merged or archived meanwhile
                continue
            await _one(store, llm, current, pending, candidates, result)

    llm.run_sync(run())
    return result


async def _one(
    store: Any,
    llm: ChatBackend,
    item: MemoryItem,
    pending: set[str],
    candidates: int,
    result: ConsolidationResult,
) -> None:
    shown = _similar(store, item, pending, candidates)
    if not shown:
        result.count("unrelated")
        return  # nothing to compare with: no LLM call, nothing to record
    try:
        verdict, _ = await llm.acomplete_json(_messages(item, shown), Verdict)
        if verdict.decision != "unrelated" and not (1 <= (verdict.memory or 0) <= len(shown)):
            raise LLMError(f"the decision names memory {verdict.memory}", reason="wrong_target")
    except LLMError as e:
        result.failed += 1
        result.failures[e.reason] = result.failures.get(e.reason, 0) + 1
        _record(store, item, {"decision": "failed", "error": e.reason})
        return
    result.count(verdict.decision)
    record: dict[str, Any] = {"decision": verdict.decision, "compared": [s.id for s in shown]}
    if verdict.reason:
        record["reason"] = verdict.reason
    if verdict.decision == "unrelated" or verdict.memory is None:
        _record(store, item, record)
        return
    target = shown[verdict.memory - 1]
    record["memory"] = target.id
    if verdict.decision == "duplicate":
        sources = [*target.metadata.sources]
        sources += [s for s in item.metadata.sources if s not in sources]
        seen = list(dict.fromkeys([*target.metadata.seen_at, *item.metadata.seen_at]))
        changes = {"sources": [s.model_dump() for s in sources], "seen_at": seen}
        store.update(target.id, metadata=changes, update_type="duplicate")
        _record(store, item, record)
        store.archive([item.id], "duplicate", superseded_by=target.id)
    else:
        _record(store, item, record)
        store.archive([target.id], verdict.decision, superseded_by=item.id)


def _similar(store: Any, item: MemoryItem, pending: set[str], n: int) -> list[MemoryItem]:
    """The ``n`` most similar current fine memories of ``item``'s user and session (not
    itself, nor new memories not yet consolidated)."""
    meta = item.metadata
    filters = {"mode": Mode.FINE.value}
    for key in ("user_id", "session_id"):
        if getattr(meta, key) is not None:
            filters[key] = getattr(meta, key)
    found = store.search(item.memory, k=n + len(pending) + 1, view="hybrid", filters=filters)
    out: list[MemoryItem] = []
    for r in found:
        other = r.item
        if other.id == item.id or other.id in pending or other.id in {o.id for o in out}:
            continue
        if (other.metadata.user_id, other.metadata.session_id) != (meta.user_id, meta.session_id):
            continue  # a search filter cannot say "not set": the scope is checked here
        out.append(other)
    return out[:n]


def _record(store: Any, item: MemoryItem, record: dict[str, Any]) -> None:
    """Write the decision onto ``item`` (its current version, not a new one)."""
    meta = item.metadata.model_copy(update={"extra": {**item.metadata.extra, RECORD_KEY: record}})
    store.add([item.model_copy(update={"metadata": meta})])


def _in_time_order(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """By when each memory was said (its latest message), then as written."""
    order = sorted(enumerate(items), key=lambda pair: (_said(pair[1]) or "", pair[0]))
    return [i for _, i in order]


def _said(item: MemoryItem) -> str | None:
    """When the memory was said: its latest message's time, else the fact's own time."""
    times = [s.chat_time for s in item.metadata.sources if s.chat_time]
    return max(times) if times else item.metadata.timestamp


def _messages(item: MemoryItem, shown: Sequence[MemoryItem]) -> list[dict[str, str]]:
    system, user = _template()
    lines = [f"{n}. {_when(s)}{_clean(s.memory)}" for n, s in enumerate(shown, 1)]
    values = {"context": "\n".join(lines), "text": f"{_when(item)}{_clean(item.memory)}"}
    return [
        {"role": "system", "content": system.substitute(values).strip()},
        {"role": "user", "content": user.substitute(values).strip()},
    ]


def _when(item: MemoryItem) -> str:
    moment = _said(item)
    return f"[{moment}] " if moment else ""


def _clean(text: str) -> str:
    # a memory cannot close its data block and smuggle instructions out of it
    return _TAGS.sub(lambda m: f"&lt;{m.group(1)}{m.group(2)}&gt;", " ".join(text.split()))


@cache
def _template() -> tuple[Template, Template]:
    raw = (
        resources.files("omnireader.prompts")
        .joinpath("templates", "consolidate.en.txt")
        .read_text(encoding="utf-8")
    )
    system, user = raw.split("=== user ===\n")
    return Template(system.removeprefix("=== system ===\n")), Template(user)
