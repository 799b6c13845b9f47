"""What the ingest layer needs of a store: the methods of :class:`~omnireader.Store` that
batches call. A protocol, so the batch layer is typed without tying it to LanceDB."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from omnireader.llm.embedder_base import Embedder
    from omnireader.models import MemoryItem
    from omnireader.store.detach import DetachResult
    from omnireader.store.filters import SearchFilters
    from omnireader.store.ledger import Ledger
    from omnireader.store.results import AddResult

__all__ = ["StoreLike"]


class StoreLike(Protocol):
    """A store items can be ingested into."""

    path: Path

    @property
    def embedder(self) -> Embedder: ...

    @property
    def table(self) -> Any: ...

    def ledger(self, scope: str, settings: str) -> Ledger: ...

    def stored_paths(self, paths: Iterable[str], where: str | None = None) -> set[str]: ...

    def add(
        self,
        items: Iterable[MemoryItem],
        batch_size: int = 1024,
        *,
        refresh: bool = True,
        vectors: np.ndarray | None = None,
    ) -> AddResult: ...

    def add_rows(
        self, rows: pa.Table, vectors: np.ndarray | None = None, *, refresh: bool = True
    ) -> AddResult: ...

    def delete_stale(
        self,
        path: str,
        *,
        keep_ids: Iterable[str],
        user_id: str | None = None,
        session_id: str | None = None,
        mode: str | None = None,
        keep_history: bool = False,
    ) -> int: ...

    def locations_under(self, folder: str, where: str | None = None) -> set[str]: ...

    def detach_paths(self, paths: Iterable[str], where: str | None = None) -> DetachResult: ...

    def iter_items(
        self, filters: SearchFilters | dict[str, Any] | None = None
    ) -> Iterator[MemoryItem]: ...

    def optimize(self, cleanup_older_than: timedelta | None = None) -> None: ...

    def count(self, filters: SearchFilters | dict[str, Any] | None = None) -> int: ...
