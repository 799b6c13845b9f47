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

from ..errors import InvalidInputError
from ..models import MemoryItem
from ..units import match_text
from .filters import SearchFilters, as_filters, combine, sql_string
from .ledger import Ledger
from .locking import write_lock
from .maintenance import optimize_table, refresh_indexes, retry_conflicts
from .opening import open_items_table
from .results import AddResult, SearchResult, StoreStats
from .schema import item_from_json, items_to_table
from .search import run_search

if TYPE_CHECKING:
    import numpy as np

    from ..llm.embedder_base import Embedder

__all__ = ["Store", "DEFAULT_STORE_PATH"]

DEFAULT_STORE_PATH = "./omnireader.lance"
_READ_BATCH = 4096


class Store:
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
        # Within one commit an id must appear once: the last version of an item wins.
        last = {item.id: n for n, item in enumerate(batch)}
        unique = [batch[n] for n in last.values()]
        if given is not None and len(given) == len(batch):
            vectors = given[list(last.values())]
        else:
            vectors = self.embedder.embed([match_text(item) for item in unique])
        data = items_to_table(unique, vectors, self.table.schema)

        def merge() -> Any:
            return (
                self.table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(data)
            )

        with write_lock(self.path):
            result = retry_conflicts(merge, "add")
        if refresh:
            refresh_indexes(self.table)
        return AddResult(
            inserted=total.inserted + result.num_inserted_rows,
            updated=total.updated + result.num_updated_rows,
        )

    def delete(
        self,
        ids: Iterable[str] | None = None,
        filters: SearchFilters | dict[str, Any] | None = None,
    ) -> int:
        """Delete the items with these ids and/or matching these filters; how many went.

        With neither, nothing is deleted: emptying a store must be asked for explicitly
        (``delete(filters={})`` is refused too; remove the directory instead).
        """
        id_list = list(ids) if ids is not None else []
        if ids is not None and not id_list:
            return 0
        where = combine(as_filters(filters).where(), _ids_clause(id_list))
        if where is None:
            raise InvalidInputError("delete needs ids or filters; refusing to delete everything")
        return self._delete_where(where)

    def delete_by_path(self, path: str, *, except_hash: str | None = None) -> int:
        """Delete the items read from ``path`` (exact), keeping those of ``except_hash``.

        An ingester that re-read a changed file writes the new items first, then calls
        this with the new content hash: the stale items go, and a crash in between leaves
        both versions rather than none.
        """
        where = f"path = {sql_string(path)}"
        if except_hash is not None:
            where += f" AND (content_hash IS NULL OR content_hash != {sql_string(except_hash)})"
        return self._delete_where(where)

    def delete_stale(
        self,
        path: str,
        *,
        keep_ids: Iterable[str],
        user_id: str | None = None,
        session_id: str | None = None,
        mode: str | None = None,
    ) -> int:
        """Delete the items read from ``path`` in this scope that are not in ``keep_ids``.

        The scope is exact (``None`` means "not set"), so re-reading a file for one user,
        session and mode never touches the items another scope read from the same file.
        """
        parts = [f"path = {sql_string(path)}"]
        for column, value in (("user_id", user_id), ("session_id", session_id), ("mode", mode)):
            parts.append(f"{column} IS NULL" if value is None else f"{column} = {sql_string(value)}")
        keep = list(dict.fromkeys(keep_ids))
        if keep:
            parts.append(f"id NOT IN ({', '.join(sql_string(i) for i in keep)})")
        return self._delete_where(" AND ".join(parts))

    def ledger(self, scope: str, settings: str) -> Ledger:
        """The ingest ledger (files fully written) for one scope and settings key."""
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

    # ------------------------------------------------------------------ reading

    def search(
        self,
        query: str,
        k: int = 10,
        view: str = "hybrid",
        filters: SearchFilters | dict[str, Any] | None = None,
        *,
        max_chars: int | None = None,
    ) -> list[SearchResult]:
        """The ``k`` best passages for ``query`` in ``view`` (``hybrid``, ``vector``, ``fts``).

        Each result holds the item that matched and ``text``: that item with its context (a
        chat message with the messages around it; overlapping hits merged). ``max_chars``
        keeps the results, best first, whose texts fit together in that many characters.
        """
        return run_search(self.table, self.embedder, query, k, view, as_filters(filters).where(),
                          max_chars=max_chars)

    def get(self, item_id: str) -> MemoryItem | None:
        """The item with this id, or None."""
        found = self.get_many([item_id])
        return found[0] if found else None

    def get_many(self, ids: Iterable[str]) -> list[MemoryItem]:
        """The stored items among ``ids``, in the order asked (missing ids are skipped)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, MemoryItem] = {}
        for start in range(0, len(wanted), 1000):
            clause = _ids_clause(wanted[start : start + 1000])
            for item in self._iter_where(clause):
                found[item.id] = item
        return [found[i] for i in wanted if i in found]

    def iter_items(
        self, filters: SearchFilters | dict[str, Any] | None = None
    ) -> Iterator[MemoryItem]:
        """Every stored item matching ``filters``, streamed in batches (storage order)."""
        yield from self._iter_where(as_filters(filters).where())

    def count(self, filters: SearchFilters | dict[str, Any] | None = None) -> int:
        """How many items match ``filters`` (all items without)."""
        return self.table.count_rows(as_filters(filters).where())

    def stats(self) -> StoreStats:
        """Item counts overall and by memory type, mode and source kind."""
        columns = self._columns(["memory_type", "mode", "source_kind"], None)
        return StoreStats(
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
        for batch in self._batches(["item_json"], as_filters(filters).where()):
            for text in batch.column("item_json").to_pylist():
                fp.write(text)
                fp.write("\n")
                written += 1
        return written

    # ------------------------------------------------------------------ ingest helpers

    def content_hashes_by_path(self) -> dict[str, set[str]]:
        """For every source path / URL in the store, the content hashes stored for it."""
        columns = self._columns(["path", "content_hash"], "path IS NOT NULL")
        out: dict[str, set[str]] = {}
        for path, digest in zip(columns["path"], columns["content_hash"]):
            hashes = out.setdefault(path, set())
            if digest is not None:
                hashes.add(digest)
        return out

    def ids_for_content_hash(self, content_hash: str) -> list[str]:
        """Ids of the items whose (first) source has this content hash."""
        where = f"content_hash = {sql_string(content_hash)}"
        return self._columns(["id"], where)["id"]

    # ------------------------------------------------------------------ internals

    def _batches(self, columns: list[str], where: str | None) -> Iterator[Any]:
        query = self.table.search().select(columns)
        if where:
            query = query.where(where)
        yield from query.limit(None).to_batches(_READ_BATCH)

    def _iter_where(self, where: str | None) -> Iterator[MemoryItem]:
        for batch in self._batches(["item_json"], where):
            for text in batch.column("item_json").to_pylist():
                yield item_from_json(text)

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


def _ids_clause(ids: list[str]) -> str | None:
    return f"id IN ({', '.join(sql_string(i) for i in ids)})" if ids else None


def _counts(values: list[str | None]) -> dict[str, int]:
    return dict(Counter(v if v is not None else "none" for v in values).most_common())
