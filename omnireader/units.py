"""Match units: small items that know their neighbours, so search can return context.

Search matches best on small pieces (one chat message) but an agent needs the pieces around
a hit to understand it (the question a message answers). A parser that emits such units
links each one to the unit before and after it in the same *thread* (a conversation, a
sitting of it); the store then

- indexes a unit together with its neighbours' text (``neighbour_text``), so a question whose
  words are spread over a message and its reply still matches, and
- returns a hit with its neighbours, merging hits that overlap or touch into one passage.

The links live in ``metadata.extra`` under the keys below, so they need no new model fields
and travel with the item wherever it goes.

    >>> from omnireader.models import MemoryItem, MemoryMetadata
    >>> a, b = (MemoryItem(id=i, memory=t, metadata=MemoryMetadata()) for i, t in
    ...         (("a", "Where is the key?"), ("b", "Under the mat.")))
    >>> link_units([a, b], thread="t1")
    >>> b.metadata.extra[PREV], b.metadata.extra[NEIGHBOUR_TEXT]
    ('a', 'Where is the key?')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omnireader.models import MemoryItem

__all__ = [
    "THREAD",
    "INDEX",
    "PREV",
    "NEXT",
    "NEIGHBOUR_TEXT",
    "link_units",
    "unit_links",
    "match_text",
]

THREAD = "thread"  # which run of units this one belongs to
INDEX = "unit_index"  # its place in that run (0-based)
PREV = "prev_id"  # the unit before it in the thread, if any
NEXT = "next_id"  # the unit after it
NEIGHBOUR_TEXT = "neighbour_text"  # the text of both, searched along with the unit's own


def link_units(items: Sequence[MemoryItem], thread: str, *, neighbour_text: bool = True) -> None:
    """Link ``items`` (in reading order) into one thread, in place."""
    for n, item in enumerate(items):
        extra = item.metadata.extra
        extra[THREAD] = thread
        extra[INDEX] = n
        before = items[n - 1] if n else None
        after = items[n + 1] if n + 1 < len(items) else None
        if before is not None:
            extra[PREV] = before.id
        if after is not None:
            extra[NEXT] = after.id
        if neighbour_text:
            around = [i.memory for i in (before, after) if i is not None]
            if around:
                extra[NEIGHBOUR_TEXT] = "\n".join(around)


def unit_links(item: MemoryItem) -> tuple[str | None, int | None, list[str]]:
    """(thread, index, neighbour ids) of a unit; (None, None, []) for any other item."""
    extra: dict[str, Any] = item.metadata.extra
    thread, index = extra.get(THREAD), extra.get(INDEX)
    if not isinstance(thread, str) or not isinstance(index, int):
        return None, None, []
    return thread, index, [i for i in (extra.get(PREV), extra.get(NEXT)) if isinstance(i, str)]


def match_text(item: MemoryItem) -> str:
    """The text a unit is embedded by: its own, then its neighbours' (just its own otherwise).

    Store and batch ingest both embed through this, so their vectors agree.
    """
    around = item.metadata.extra.get(NEIGHBOUR_TEXT)
    return f"{item.memory}\n{around}" if isinstance(around, str) and around else item.memory
