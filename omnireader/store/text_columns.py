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

from functools import cache
from typing import Any

from omnireader.store.headings import HEADING_COLUMN
from omnireader.store.presence import met
from omnireader.store.schema import FTS_COLUMNS

__all__ = ["text_columns"]

_ALWAYS = FTS_COLUMNS[0]  # ``memory``: every item has its text there
_ALL = (*FTS_COLUMNS, HEADING_COLUMN)  # the heading column's scores are added (.headings)


def text_columns(table: Any) -> tuple[str, ...]:
    """The full-text columns of ``table`` that may match: ``memory`` and those holding text."""

    @cache
    def present() -> set[str]:  # read once a look, and only when a column is looked at
        return set(table.schema.names)  # a version-4 store has no heading column

    def holds_text(column: str) -> str | None:
        return f"{column} IS NOT NULL AND {column} != ''" if column in present() else None

    filled = met(table, "text columns", _ALL, holds_text, initially=frozenset({_ALWAYS}))
    return tuple(c for c in _ALL if c in filled)
