"""Ranked rows to hits: an item's columns (``item_json`` and its text) are read only for rows
that may be shown, all at once, the first time one is needed; and items fetched by id under
the search's filters (context around a hit obeys them too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omnireader.models import MemoryItem
from omnireader.store.context import Hit
from omnireader.store.queries import filter_query, run_queries
from omnireader.store.schema import ITEM_COLUMNS, item_from_row

__all__ = ["hits_of", "item_row", "item_rows", "fetch_items"]


def hits_of(
    table: Any, rows: dict[str, dict[str, Any]], ranked: list[tuple[str, float, dict[str, int]]]
) -> list[Hit]:
    """Hits for ``ranked`` (id, score, ranks); rows without their item's columns are
    fetched, all at once, the first time one of them is needed."""
    hits = [
        Hit(id=i, row=item_row(rows[i]), score=float(score), ranks=ranks)
        for i, score, ranks in ranked
    ]
    lazy = [h for h in hits if h.row is None]
    if lazy:

        def load() -> None:
            missing = [h for h in lazy if h.row is None]
            found = item_rows(table, [h.id for h in missing])
            for h in lazy:
                h.row, h.load = found.get(h.id, h.row), None

        for h in lazy:
            h.load = load
    return hits


def item_row(row: dict[str, Any]) -> dict[str, Any] | None:
    """The item's columns of a result row; None when the query did not read them."""
    return row if row.get("item_json") is not None else None


def item_rows(table: Any, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """id -> the item's columns of the stored rows among ``ids`` (rows deleted meanwhile are
    left out)."""
    from omnireader.store.filters import ids_clause

    if not ids:
        return {}
    clause = ids_clause(ids)
    (data,) = run_queries(table, [filter_query(clause, len(ids), ["id", *ITEM_COLUMNS])])
    return {r["id"]: r for r in data.to_pylist()}


def fetch_items(table: Any, ids: Sequence[str], where: str | None) -> list[MemoryItem]:
    """Items by id, under the search's filters (context obeys them too)."""
    from omnireader.store.filters import combine, ids_clause

    clause = combine(where, ids_clause(ids))
    (rows,) = run_queries(table, [filter_query(clause, len(ids), ITEM_COLUMNS)])
    return [item_from_row(r) for r in rows.to_pylist()]
