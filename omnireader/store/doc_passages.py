"""Document passages: a hit on a document chunk with its neighbours in the same section, and
a table hit with its whole table, within the budget; the chunk's headings as its header.

A document chunk is far larger than a chat message (512 tokens, ~2,500 characters of a
filing), so its neighbours cannot come with every hit as a message's do: three chunks would
fill a 6,000-character budget with one place in one document. So :func:`.context.assemble`
places the ranked hits first, as chunks (hits on touching chunks of one section merge, as
chat hits do), and only then :func:`expand` grows each passage, best first, with what fits in
the characters left:

- a hit on a piece of a table (``table_ids``, :mod:`omnireader.doc_links`) brings
  the table's other pieces, when they all fit;
- otherwise the chunks before and after it in its section (``doc_prev`` / ``doc_next``),
  one at a time, each if it fits.

Without a budget every passage is grown. A chunk already shown in another passage is not
shown again. Under a budget, room that no whole hit filled goes first to the best document
hit passed over, cut to fit (:func:`passed_over`), as an agent pastes results until its
budget is full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from omnireader.models import MemoryItem

__all__ = ["doc_links", "expand", "header_of", "passed_over", "MIN_CUT"]

_SEP = " › "
#: the least room worth a cut passage: a few lines of a page
MIN_CUT = 300


def doc_links(item: MemoryItem) -> tuple[str | None, int | None]:
    """(section key, index in the section) of a linked document chunk; (None, None) else."""
    from omnireader.doc_links import INDEX, SECTION

    extra = item.metadata.extra
    thread, index = extra.get(SECTION), extra.get(INDEX)
    if isinstance(thread, str) and isinstance(index, int):
        return thread, index
    return None, None


def header_of(item: MemoryItem) -> str | None:
    """A document chunk's title and heading path as one line ("Report › Cash flows");
    None for an item without a heading path."""
    from omnireader.doc_links import HEADING_PATH

    path = item.metadata.extra.get(HEADING_PATH)
    if not isinstance(path, list) or not path:
        return None
    title = item.metadata.topic or (item.source.filename if item.source else None)
    lead = [title] if title and title != path[0] else []  # a Markdown title is its first heading
    return _SEP.join([*lead, *(str(p) for p in path)])


def passed_over(hits: Sequence[Any], shown: Sequence[MemoryItem], room: int) -> Any | None:
    """The best hit on a document chunk that no passage holds, to be cut to ``room``
    characters; None when the room is too small or no such hit is left. Chat messages are
    never cut: a unit's passage is its neighbours too."""
    from omnireader.units import unit_links

    if room < MIN_CUT:
        return None
    ids = {i.id for i in shown}
    for h in hits:
        if h.id in ids or not h.present():
            continue
        item = h.item
        if unit_links(item)[0] is None and item.source is not None and item.source.kind == "file":
            return h
    return None


def _wanted(units: dict[int, MemoryItem]) -> list[str]:
    """Ids that would grow a passage: its table's pieces, or the neighbours at its ends."""
    from omnireader.doc_links import NEXT, PREV, TABLE_IDS

    ids: list[str] = []
    for item in units.values():
        table = item.metadata.extra.get(TABLE_IDS)
        if isinstance(table, list):
            ids.extend(i for i in table if isinstance(i, str))
    first, last = units[min(units)], units[max(units)]
    for item, key in ((first, PREV), (last, NEXT)):
        value = item.metadata.extra.get(key)
        if isinstance(value, str):
            ids.append(value)
    return ids


def expand(
    passages: Sequence[Any],
    fetch: Callable[[Sequence[str]], Iterable[MemoryItem]],
    room: int | None,
    render: Callable[[list[MemoryItem]], str],
) -> int:
    """Grow the document passages among ``passages`` (``.thread``, ``.units``: index ->
    item, ``.window``: the best lines shown, or None), best first, within ``room``
    characters (None: no limit); the characters used. A windowed passage is first given its
    whole chunk back, and grows only if that fits."""
    docs = [
        p
        for p in passages
        if p.window is not None or p.thread is not None and doc_links(p.hit.item)[0] == p.thread
    ]
    if not docs or room is not None and room <= 0:
        return 0
    shown = {i.id for p in passages for i in p.units.values()}
    wanted = [i for p in docs for i in _wanted(p.units) if i not in shown]
    found = {i.id: i for i in fetch(list(dict.fromkeys(wanted)))} if wanted else {}
    used = 0
    for p in docs:
        left = None if room is None else room - used
        if p.window is not None:  # a hit shown as its best lines: whole again, if it fits
            whole = len(render([p.units[i] for i in sorted(p.units)])) - len(p.window)
            if left is not None and whole > left:
                continue
            p.window = None
            used += whole
            left = None if left is None else left - whole
        if p.thread is not None:
            used += _grow(p, found, shown, left, render)
    return used


def _grow(
    p: Any,
    found: dict[str, MemoryItem],
    shown: set[str],
    room: int | None,
    render: Callable[[list[MemoryItem]], str],
) -> int:
    from omnireader.doc_links import NEXT, PREV, TABLE_IDS

    def cost(units: dict[int, MemoryItem]) -> int:
        return len(render([units[i] for i in sorted(units)])) - len(
            render([p.units[i] for i in sorted(p.units)])
        )

    def indexed(ids: Iterable[str]) -> dict[int, MemoryItem]:
        out = {}
        for i in ids:
            item = found.get(i)
            if item is not None and i not in shown:
                thread, index = doc_links(item)
                if thread == p.thread and index is not None:
                    out[index] = item
        return out

    used = 0
    table = p.hit.item.metadata.extra.get(TABLE_IDS)
    if isinstance(table, list):  # the whole table, or nothing of it
        more = indexed(table)
        if more:
            grown = {**p.units, **more}
            c = cost(grown)
            if room is None or c <= room:
                p.units = grown
                shown.update(i.id for i in more.values())
                return c
    for key, end in ((PREV, min), (NEXT, max)):  # the chunk before, then after, if it fits
        nid = p.units[end(p.units)].metadata.extra.get(key)
        more = indexed([nid]) if isinstance(nid, str) else {}
        if not more:
            continue
        grown = {**p.units, **more}
        c = cost(grown)
        if room is None or c <= room - used:
            p.units = grown
            shown.update(i.id for i in more.values())
            used += c
    return used
