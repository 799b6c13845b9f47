"""Context assembly: ranked hits in, passages to paste into a prompt out.

A hit on a match unit (:mod:`omnireader.units`, e.g. one chat message) becomes a passage of
that unit and its neighbours in the same thread. A hit whose passage overlaps or touches a
better-ranked passage of the same thread extends it instead of starting a near-duplicate, so
every unit is shown once. A hit on a linked document chunk is a passage of that chunk (touching hits of one section
merge), grown with its section neighbours or its whole table once every hit is placed, in the
characters left (:mod:`.doc_passages`); its headings are its header. Any other item is a
passage of its own.

Chat lines that repeat the previous line's ``[time]`` prefix drop it (a sitting shares one
time), which keeps passages short without losing what they say.

With a character budget, every hit pays for what it adds when it is placed, in rank order;
hits that no longer fit are passed over (see :func:`assemble`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from omnireader.models import MemoryItem
from omnireader.store.doc_passages import doc_links, expand, header_of, passed_over
from omnireader.store.results import SearchResult
from omnireader.store.schema import item_from_row
from omnireader.store.snippets import window, window_size
from omnireader.units import unit_links

__all__ = ["Hit", "assemble", "render"]

#: Looks up items by id (under the search's filters); missing ids are left out.
Fetch = Callable[[Sequence[str]], Iterable[MemoryItem]]
_TIME_PREFIX = re.compile(r"^\[[^\]\n]{1,64}\] ")
_ELLIPSIS = "…"
_MAX_MISSES = 8  # consecutive hits that add nothing to a budgeted search before it stops


@dataclass
class Hit:
    """One ranked row from a view (or the fusion); its item is parsed only when used.

    ``row`` holds the columns the item is rebuilt from (:data:`.schema.ITEM_COLUMNS`). A hit
    may come without them (a candidate that will seldom be shown): ``load`` then fetches
    them, with every other such hit's, the first time one is needed.
    """

    id: str
    row: dict[str, Any] | None
    score: float
    ranks: dict[str, int]
    load: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    def present(self) -> bool:
        """The item can be had (False only when its row was deleted since it was ranked)."""
        if self.row is None and self.load is not None:
            self.load()
        return self.row is not None

    @cached_property
    def item(self) -> MemoryItem:
        if not self.present():
            raise LookupError(f"item {self.id!r} is no longer stored")
        return item_from_row(self.row)  # type: ignore[arg-type]


@dataclass
class _Passage:
    hit: Hit
    thread: str | None
    units: dict[int, MemoryItem] = field(default_factory=dict)  # unit index -> item
    cut: int = 0  # a passage cut to the room left (doc_passages.passed_over): its length
    window: str | None = None  # a long document hit's best lines (.snippets), until grown

    def text(self) -> str:
        if self.window is not None:
            return self.window
        return render([self.units[i] for i in sorted(self.units)])

    def touches(self, thread: str | None, lo: int, hi: int) -> bool:
        if thread is None or thread != self.thread or self.window is not None:
            return False
        return lo <= max(self.units) + 1 and hi >= min(self.units) - 1


def assemble(
    hits: Sequence[Hit],
    fetch: Fetch,
    k: int,
    view: str,
    max_chars: int | None = None,
    more: Callable[[], Sequence[Hit]] | None = None,
    terms: dict[str, int] | None = None,
) -> list[SearchResult]:
    """At most ``k`` passages from ``hits`` (best first), neighbours fetched with ``fetch``.

    Hits are placed in rank order. With ``max_chars``, each hit is charged what it adds (a new
    passage, or the new lines of the passage it extends) when it is placed, and a hit that
    no longer fits is passed over for later ones that do: a weak hit merging into a strong
    passage can never push a better hit out of the budget. ``more`` gives the hits ranked after
    ``hits``; it is called (once) only if the passages are not complete when ``hits`` run out.
    With a budget and the query's ``terms`` (:func:`.snippets.query_terms`), a long document
    hit is placed as its best lines (:func:`.snippets.window`) and grown back afterwards.
    """
    hits = list(hits)
    passages: list[_Passage] = []
    known = _Known({h.id: h for h in hits})
    used = misses = 0
    start = 0
    while len(passages) < k and misses < _MAX_MISSES:
        if start >= len(hits):
            if more is None:
                break
            later, more = more(), None
            hits.extend(later)
            for h in later:
                known.ranked.setdefault(h.id, h)
            continue
        # Hits are taken a batch at a time: merging may swallow some, and each batch's
        # neighbours come in one lookup.
        batch = hits[start : start + max(k - len(passages), 4)]
        start += len(batch)
        batch = [h for h in batch if h.present()]
        wanted = [n for h in batch for n in unit_links(h.item)[2] if n not in known]
        if wanted:
            known.fetched.update((i.id, i) for i in fetch(list(dict.fromkeys(wanted))))
        for hit in batch:
            room = None if max_chars is None else max_chars - used
            added = _place(hit, known, passages, room, terms if room is not None else None)
            used += added
            # Under a budget, a run of hits that no longer fit means it is (nearly) full.
            misses = misses + 1 if max_chars is not None and not added else 0
            if len(passages) >= k or misses >= _MAX_MISSES:
                break
    cut: _Passage | None = None
    if max_chars is not None and passages and len(passages) < k:
        # The room no whole hit filled: the best document hit passed over, cut to it, as
        # an agent pastes results until its budget is full (doc_passages.py)
        room = max_chars - used - 1
        nxt = passed_over(hits, [i for p in passages for i in p.units.values()], room)
        if nxt is not None:
            cut = _Passage(hit=nxt, thread=None, units={0: nxt.item}, cut=room)
            used = max_chars
    if passages:  # document passages grow with what is left (never pushing a hit out)
        expand(passages, fetch, None if max_chars is None else max_chars - used, render)
    if cut is not None:
        passages.append(cut)
    if max_chars is not None and not passages:
        first = next((h for h in hits if h.present()), None)
        if first is not None:  # nothing fit whole: the best hit, cut to the budget
            return [
                _cut(
                    _result(_Passage(hit=first, thread=None, units={0: first.item}), view),
                    max_chars,
                )
            ]
    return [_cut(_result(p, view), p.cut) if p.cut else _result(p, view) for p in passages]


class _Known:
    """Items by id: the ranked hits (parsed on demand) and the neighbours fetched."""

    def __init__(self, ranked: dict[str, Hit]) -> None:
        self.ranked = ranked
        self.fetched: dict[str, MemoryItem] = {}

    def __contains__(self, item_id: str) -> bool:
        return item_id in self.ranked or item_id in self.fetched

    def get(self, item_id: str) -> MemoryItem | None:
        hit = self.ranked.get(item_id)
        if hit is not None and hit.present():
            return hit.item
        return self.fetched.get(item_id)


def _place(
    hit: Hit,
    known: _Known,
    passages: list[_Passage],
    room: int | None,
    terms: dict[str, int] | None = None,
) -> int:
    """Put ``hit`` in a passage if it adds something that fits ``room``; the chars it added."""
    thread, index, neighbours = unit_links(hit.item)
    head = _head_cost(hit.item)
    if thread is None:  # a document chunk: its section neighbours come later (expand)
        thread, index = doc_links(hit.item)
        src = hit.item.source
        is_doc = src is not None and src.kind == "file"
        size = window_size(len(passages))
        best = window(hit.item.memory, terms, size) if terms and is_doc else None
        if best is not None:
            if any(hit.id == p.hit.id for p in passages):
                return 0
            cost = len(best) + (1 if passages else 0) + head
            if room is not None and cost > room:
                return 0
            passages.append(
                _Passage(hit=hit, thread=thread, units={index or 0: hit.item}, window=best)
            )
            return cost
    if thread is None or index is None:
        if any(p.thread is None and hit.id == p.hit.id for p in passages):
            return 0
        cost = len(hit.item.memory) + (1 if passages else 0) + head
        if room is not None and cost > room:
            return 0
        passages.append(_Passage(hit=hit, thread=None, units={0: hit.item}))
        return cost
    span = {index: hit.item}
    for n in neighbours:
        item = known.get(n)
        if item is not None:
            t, i, _ = unit_links(item)
            if t == thread and i is not None:
                span[i] = item
    lo, hi = min(span), max(span)
    touching = [p for p in passages if p.touches(thread, lo, hi)]
    if not touching:
        cost = len(render([span[i] for i in sorted(span)])) + (1 if passages else 0) + head
        if room is not None and cost > room:
            return 0
        passages.append(_Passage(hit=hit, thread=thread, units=span))
        return cost
    # Extend the best-ranked passage it touches (absorbing any other it bridges to).
    keep, rest = touching[0], touching[1:]
    merged = dict(keep.units)
    for p in rest:
        merged.update(p.units)
    merged.update(span)
    before = sum(len(p.text()) + 1 for p in touching)
    cost = len(render([merged[i] for i in sorted(merged)])) + 1 - before
    if cost <= 0 and len(merged) == sum(len(p.units) for p in touching):
        return 0  # nothing new
    if room is not None and cost > room:
        return 0
    keep.units = merged
    for p in rest:
        passages.remove(p)
    return max(cost, 0)


def _head_cost(item: MemoryItem) -> int:
    header = header_of(item)
    return len(header) + 1 if header else 0


def _result(p: _Passage, view: str) -> SearchResult:
    items = [p.units[i] for i in sorted(p.units)]
    header = header_of(p.hit.item)
    body = p.text()
    return SearchResult(
        score=p.hit.score,
        item=p.hit.item,
        view=view,  # type: ignore[arg-type]
        ranks=p.hit.ranks,
        text=f"{header}\n{body}" if header else body,
        items=items,
        header=header,
    )


def _cut(result: SearchResult, max_chars: int) -> SearchResult:
    cut = result.text[: max(0, max_chars - len(_ELLIPSIS))] + _ELLIPSIS
    return result.model_copy(update={"text": cut[:max_chars]})


def render(items: Sequence[MemoryItem]) -> str:
    """The items' texts, one after another; a repeated leading ``[time]`` is shown once."""
    lines: list[str] = []
    last_prefix: str | None = None
    for item in items:
        text = item.memory
        m = _TIME_PREFIX.match(text)
        prefix = m.group(0) if m else None
        if prefix is not None and prefix == last_prefix:
            text = text[len(prefix) :]
        last_prefix = prefix
        lines.append(text)
    return "\n".join(lines)
