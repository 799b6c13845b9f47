"""The full-text columns worth a BM25 query: ``memory``, and the others once they hold text.

BM25 over each full-text column is a LanceDB query of its own (:mod:`.queries`), and a query
costs ~3 ms of CPU at 100k items whatever it finds (LanceDB plans every query afresh): two
thirds of a search's queries in a store where no item filled ``keywords_text`` (fast-mode
strings) or ``context_text`` (nothing is a chat message). A column with no text finds nothing,
so it is left out of searches until a row with text in it is committed:

- a column once seen holding text is searched from then on (a delete that empties it again
  costs only the query it always cost);
- an empty column is looked at again (one scan for a row with text: ~5 ms at 100k items)
  when the table's version changes, so the next search sees any process's commit.
"""

from __future__ import annotations

import threading
from typing import Any
from weakref import WeakKeyDictionary

from omnireader.store.headings import HEADING_COLUMN
from omnireader.store.queries import filter_query, run_queries
from omnireader.store.schema import FTS_COLUMNS

__all__ = ["text_columns"]

_ALWAYS = FTS_COLUMNS[0]  # ``memory``: every item has its text there
_ALL = (*FTS_COLUMNS, HEADING_COLUMN)  # the heading column's scores are added (.headings)


class _Seen:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version: int | None = None
        self.filled: set[str] = {_ALWAYS}


_seen: WeakKeyDictionary[Any, _Seen] = WeakKeyDictionary()
_seen_lock = threading.Lock()


def text_columns(table: Any) -> tuple[str, ...]:
    """The full-text columns of ``table`` that may match: ``memory`` and those holding text."""
    with _seen_lock:
        seen = _seen.get(table) or _seen.setdefault(table, _Seen())
    if len(seen.filled) < len(_ALL):
        version = table.version  # LanceDB checks for newer commits (consistency interval 0)
        with seen.lock:
            if version != seen.version:
                present = set(table.schema.names)  # a version-4 store has no heading column
                for column in _ALL:
                    if (
                        column not in seen.filled
                        and column in present
                        and _holds_text(table, column)
                    ):
                        seen.filled.add(column)
                seen.version = version
    return tuple(c for c in _ALL if c in seen.filled)


def _holds_text(table: Any, column: str) -> bool:
    (rows,) = run_queries(
        table, [filter_query(f"{column} IS NOT NULL AND {column} != ''", 1, ["id"])]
    )
    return len(rows) > 0
