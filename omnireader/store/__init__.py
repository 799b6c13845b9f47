"""The three-view store: semantic (vectors), lexical (BM25) and symbolic (typed columns).

>>> from omnireader.store import Store, SearchFilters
>>> store = Store.open("./omnireader.lance")                             # doctest: +SKIP
>>> store.search("Berlin", filters=SearchFilters(user_id="u1"))          # doctest: +SKIP

The names below load on first use (PEP 562): importing one of the package's modules (as
``omnireader.store.lance_import`` does for LanceDB) does not build the store, its models and
its writing paths first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omnireader.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from omnireader.store.filters import SearchFilters
    from omnireader.store.fusion import RRF_K, convex, rrf
    from omnireader.store.lance_store import DEFAULT_STORE_PATH, Store
    from omnireader.store.reembedding import ReembedReport, reembed
    from omnireader.store.results import AddResult, SearchResult, StoreStats, View

_LAZY = {
    "Store": "lance_store",
    "DEFAULT_STORE_PATH": "lance_store",
    "SearchFilters": "filters",
    "SearchResult": "results",
    "StoreStats": "results",
    "AddResult": "results",
    "View": "results",
    "RRF_K": "fusion",
    "rrf": "fusion",
    "convex": "fusion",
    "reembed": "reembedding",
    "ReembedReport": "reembedding",
}

__all__ = [
    "Store",
    "SearchFilters",
    "SearchResult",
    "StoreStats",
    "AddResult",
    "View",
    "DEFAULT_STORE_PATH",
    "RRF_K",
    "rrf",
    "convex",
    "reembed",
    "ReembedReport",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
