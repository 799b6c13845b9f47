"""The three-view store: one LanceDB directory, one ``items`` table, every item once.

    >>> store = Store.open("./omnireader.lance")               # doctest: +SKIP
    >>> store.add(items)                                        # doctest: +SKIP
    AddResult(inserted=12, updated=0)
    >>> store.search("Berlin", k=5, filters={"user_id": "u1"})  # doctest: +SKIP

Items are upserted by id (ids are deterministic), so adding the same items again updates
them. Each write of up to ``batch_size`` items is one atomic commit; two processes may write
the same store at once (Lance resolves the commit race; :func:`retry_conflicts` covers the
rest). The store records its embedder and refuses another one: vectors from two embedders
cannot be compared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from omnireader.errors import InvalidInputError
from omnireader.models import MemoryItem
from omnireader.page_counts import page_counts
from omnireader.store.deleting import Deleting
from omnireader.store.filters import SearchFilters, as_filters, ids_clause
from omnireader.store.locking import write_lock
from omnireader.store.maintenance import optimize_table, refresh_indexes, retry_conflicts
from omnireader.store.opening import open_items_table
from omnireader.store.path_queries import PathQueries
from omnireader.store.results import AddResult, SearchResult, StoreStats, merge_results
from omnireader.store.schema import ITEM_COLUMNS, item_from_row, items_to_rows, with_vectors
from omnireader.store.versions import Versions

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from omnireader.llm.embedder_base import Embedder
    from omnireader.store.ledger import Ledger

__all__ = ["Store", "DEFAULT_STORE_PATH"]

DEFAULT_STORE_PATH = "./omnireader.lance"
_READ_BATCH = 4096


class Store(PathQueries, Versions, Deleting):
    """An open store. Build one with :meth:`Store.open`."""

    def __init__(self, path: Path, db: Any, table: Any, embedder: Embedder) -> None:
        self.path = path
        self.db = db  # the LanceDB connection (the ingest ledger keeps its own table here)
        self.table = table
        self.embedder = embedder

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        path: str | Path = DEFAULT_STORE_PATH,
        embedder: Embedder | str | None = None,
        *,
        create: bool = True,
    ) -> Store:
        """Open the store at ``path``, creating it (with ``embedder``) if it does not exist.

        ``embedder=None`` uses the embedder the store was built with, or the offline
        default for a new store. Another embedder than the recorded one raises
        :class:`~omnireader.errors.EmbedderMismatchError` before anything is written.
        With ``create=False`` a missing store is a :class:`~omnireader.errors.StoreError`.
        """
        db, table, chosen = open_items_table(Path(path), embedder, create=create)
        return cls(Path(path), db, table, chosen)

    # ------------------------------------------------------------------ writing

    def add(
        self,
        items: Iterable[MemoryItem],
        batch_size: int = 1024,
        *,
        refresh: bool = True,
        vectors: np.ndarray | None = None,
    ) -> AddResult:
        """Embed and upsert ``items`` by id; each batch of ``batch_size`` is one commit.

        Returns how many were new and how many replaced a stored item. Every row is
        searchable in every view as soon as its commit lands; after each batch the indexes
        are refreshed by the policy in :mod:`.maintenance` (``refresh=False`` skips that,
        for a caller that will call :meth:`optimize` itself). ``vectors`` (one row per item,
        made by this store's embedder) skips embedding here: batch ingest computes them in
        its parser processes.
        """
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be at least 1, not {batch_size}")
        total = AddResult()
        batch: list[MemoryItem] = []
        rows: list[int] = []
        for n, item in enumerate(items):
            batch.append(item)
            rows.append(n)
            if len(batch) >= batch_size:
                total = self._write(batch, total, refresh, _rows(vectors, rows))
                batch, rows = [], []
        if batch:
            total = self._write(batch, total, refresh, _rows(vectors, rows))
        return total

    def _write(
        self, batch: list[MemoryItem], total: AddResult, refresh: bool, given: np.ndarray | None
    ) -> AddResult:
        rows = items_to_rows(batch, self.table.schema)
        return self._write_rows(
            rows, total, refresh, given if given is not None and len(given) == len(batch) else None
        )

    def add_rows(
        self, rows: pa.Table, vectors: np.ndarray | None = None, *, refresh: bool = True
    ) -> AddResult:
        """Upsert rows made by :func:`.schema.items_to_rows` for this store's schema, in one
        commit, as :meth:`add` does items (batch ingest builds them in its workers)."""
        return self._write_rows(rows, AddResult(), refresh, vectors)

    def _write_rows(
        self, rows: pa.Table, total: AddResult, refresh: bool, given: np.ndarray | None
    ) -> AddResult:
        def merge() -> Any:
            return (
                self.table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(data)
            )

        if given is None:  # before the lock: embedding is the slow part
            from omnireader.store.embed_text import row_texts  # writing only: not on a read's path

            given = self.embedder.embed(row_texts(rows, self.embedder))
        from omnireader.store.row_writes import unique_rows

        with write_lock(self.path):
            # Under the lock: the locations another writer recorded are not lost. Within one
            # commit an id must appear once: its last row wins, with every location seen.
            unique, vectors, new = unique_rows(self.table, rows, given)
            data = with_vectors(unique, vectors, self.table.schema)  # type: ignore[arg-type]
            if new:  # no id is stored (looked up under the lock): appended, not merged
                retry_conflicts(lambda: self.table.add(data), "add")
                inserted, updated = data.num_rows, 0
            else:
                result = retry_conflicts(merge, "add")
                inserted, updated = result.num_inserted_rows, result.num_updated_rows
        if refresh:
            refresh_indexes(self.table)
        return AddResult(inserted=total.inserted + inserted, updated=total.updated + updated)

    def ledger(self, scope: str, settings: str) -> Ledger:
        """The ingest ledger (files fully written) for one scope and settings key."""
        from omnireader.store.ledger import Ledger

        return Ledger(self.db, scope, settings)

    def _delete_where(self, where: str) -> int:
        with write_lock(self.path):
            doomed = self.table.count_rows(where)
            if doomed:
                retry_conflicts(lambda: self.table.delete(where), "delete")
        return doomed

    def optimize(self, cleanup_older_than: timedelta | None = None) -> None:
        """Compact the files and bring every index up to date; call after a big ingest.

        Builds the vector index once the table is large enough. ``cleanup_older_than``
        also removes table versions older than that (LanceDB's default keeps 7 days).
        """
        optimize_table(self.table, cleanup_older_than)
        self.optimize_history(cleanup_older_than)

    # ------------------------------------------------------------------ reading

    def search(
        self,
        query: str,
        k: int = 10,
        view: str = "hybrid",
        filters: SearchFilters | dict[str, Any] | None = None,
        *,
        max_chars: int | None = None,
        include_archived: bool = False,
    ) -> list[SearchResult]:
        """The ``k`` best passages for ``query`` in ``view`` (``hybrid``, ``vector``, ``fts``).

        Each result holds the item that matched and ``text``: that item with its context (a
        chat message with the messages around it; overlapping hits merged). ``max_chars``
        keeps the results, best first, whose texts fit together in that many characters.
        ``include_archived`` also searches the archived versions (:mod:`.versions`): such a
        hit's item has ``status="archived"``, ``superseded_by`` and ``superseded_at``.
        """
        from omnireader.store.search import run_search  # not on stats' or history's path

        where = self._where(filters)
        found = run_search(self.table, self.embedder, query, k, view, where, max_chars=max_chars)
        if not include_archived:
            return found
        old = self.search_archived(query, k, view, where, max_chars)
        return merge_results(found, old, k, max_chars)

    def get(self, item_id: str) -> MemoryItem | None:
        """The item with this id, or None."""
        found = self.get_many([item_id])
        return found[0] if found else None

    def get_many(self, ids: Iterable[str]) -> list[MemoryItem]:
        """The stored items among ``ids``, in the order asked (missing ids are skipped)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, MemoryItem] = {}
        for start in range(0, len(wanted), 1000):
            clause = ids_clause(wanted[start : start + 1000])  # never empty
            for item in self._iter_where(clause):
                found[item.id] = item
        return [found[i] for i in wanted if i in found]

    def iter_items(
        self, filters: SearchFilters | dict[str, Any] | None = None
    ) -> Iterator[MemoryItem]:
        """Every stored item matching ``filters``, streamed in batches (storage order)."""
        yield from self._iter_where(self._where(filters))

    def count(self, filters: SearchFilters | dict[str, Any] | None = None) -> int:
        """How many items match ``filters`` (all items without)."""
        return self.table.count_rows(self._where(filters))

    def stats(self) -> StoreStats:
        """Item counts overall and by memory type, mode and source kind; pages OCR'd."""
        columns = self._columns(["memory_type", "mode", "source_kind"], None)
        # Only items that mention OCR or undecodable pages are parsed (a LIKE scan).
        marked = self._iter_where(
            "item_json LIKE '%\"ocr\"%' OR item_json LIKE '%\"needs_ocr\"%' "
            "OR item_json LIKE '%unreadable_pages\":%'"
        )
        pages_ocr, pages_unreadable = page_counts(marked)
        return StoreStats(
            pages_ocr=pages_ocr,
            pages_unreadable=pages_unreadable,
            items=len(columns["mode"]),
            by_type=_counts(columns["memory_type"]),
            by_mode=_counts(columns["mode"]),
            by_source_kind=_counts(columns["source_kind"]),
            embedder=self.embedder.name,
            dim=self.embedder.dim,
            path=str(self.path),
        )

    def export_jsonl(
        self, fp: IO[str], filters: SearchFilters | dict[str, Any] | None = None
    ) -> int:
        """Write every matching item as one JSON line (the full item); how many were written."""
        written = 0
        for item in self._iter_where(self._where(filters)):
            fp.write(item.model_dump_json())
            fp.write("\n")
            written += 1
        return written

    # ------------------------------------------------------------------ internals

    def _where(self, filters: SearchFilters | dict[str, Any] | None) -> str | None:
        """``filters``' clause for this table's columns (an older store's may lack some)."""
        return as_filters(filters).where(self.table.schema.names)

    def _batches(self, columns: list[str], where: str | None) -> Iterator[Any]:
        query = self.table.search().select(columns)
        if where:
            query = query.where(where)
        yield from query.limit(None).to_batches(_READ_BATCH)

    def _iter_where(self, where: str | None) -> Iterator[MemoryItem]:
        for batch in self._batches(ITEM_COLUMNS, where):
            for row in batch.to_pylist():
                yield item_from_row(row)

    def _columns(self, columns: list[str], where: str | None) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {c: [] for c in columns}
        for batch in self._batches(columns, where):
            for c in columns:
                out[c].extend(batch.column(c).to_pylist())
        return out

    def __repr__(self) -> str:
        return f"<Store {self.path} embedder={self.embedder.name}>"


def _rows(vectors: np.ndarray | None, rows: list[int]) -> np.ndarray | None:
    return None if vectors is None else vectors[rows]


def _counts(values: list[str | None]) -> dict[str, int]:
    return dict(Counter(v if v is not None else "none" for v in values).most_common())
