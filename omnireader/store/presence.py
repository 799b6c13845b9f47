"""What a table holds, known without a scan per search: which of a few row conditions some
row has met ("``context_text`` holds text", "an item is a chat message").

A search asks on every call, so the answer is kept per table:

- a condition once met stays met (a delete that undoes it costs at most the work the answer
  saved: a query that finds nothing, or a query run beside the others for nothing);
- a condition not yet met is looked at again (one filtered query for a single row: a few
  milliseconds at 100k items) when the table's version changes, so the next search sees any
  process's commit.

Reading the version is a trip into LanceDB (~0.4 ms at 100k items), and one search asks it
for its documents' names (:mod:`.routing`), its filled columns and its kinds: within
:func:`one_look` (a search), :func:`table_version` reads it once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from weakref import WeakKeyDictionary

from omnireader.store.queries import filter_query, run_queries

__all__ = ["met", "one_look", "table_version"]

# id(table) -> its version, read once within one_look()
_looks: ContextVar[dict[int, int] | None] = ContextVar("omnireader_table_looks", default=None)


@contextmanager
def one_look() -> Iterator[None]:
    """Within it, each table's version is read once (what one search sees of a table)."""
    token = _looks.set({})
    try:
        yield
    finally:
        _looks.reset(token)


def table_version(table: Any) -> int:
    """The table's version: read from LanceDB (which checks for newer commits), or the one
    already read within :func:`one_look`."""
    looks = _looks.get()
    if looks is None:
        return int(table.version)
    key = id(table)
    if key not in looks:
        looks[key] = int(table.version)
    return looks[key]


class _Seen:
    def __init__(self, initially: frozenset[str]) -> None:
        self.lock = threading.Lock()
        self.version: int | None = None
        self.met: set[str] = set(initially)
        self.looked: set[str] = set()  # the names looked for at ``version``


# per table, per family of conditions ("text columns", "kinds")
_seen: WeakKeyDictionary[Any, dict[str, _Seen]] = WeakKeyDictionary()
_seen_lock = threading.Lock()


def met(
    table: Any,
    family: str,
    names: tuple[str, ...],
    condition: Callable[[str], str | None],
    *,
    initially: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """Which of ``names`` some row of ``table`` meets: ``condition(name)`` is its SQL filter
    (None: no row can meet it at this version, e.g. a column the table lacks). ``initially``:
    the names taken as met without looking (``memory`` holds every item's text)."""
    with _seen_lock:
        families = _seen.get(table)
        if families is None:
            families = _seen.setdefault(table, {})
        seen = families.get(family)
        if seen is None:
            seen = families.setdefault(family, _Seen(initially))
    if not seen.met.issuperset(names):
        version = table_version(table)
        with seen.lock:
            if version != seen.version:
                seen.version, seen.looked = version, set()
            for name in names:
                if name in seen.met or name in seen.looked:
                    continue
                where = condition(name)
                if where is not None and _any_row(table, where):
                    seen.met.add(name)
                seen.looked.add(name)
    return frozenset(seen.met.intersection(names))


def _any_row(table: Any, where: str) -> bool:
    (rows,) = run_queries(table, [filter_query(where, 1, ["id"])])
    return len(rows) > 0
