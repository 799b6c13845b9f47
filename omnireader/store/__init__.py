"""The three-view store: semantic (vectors), lexical (BM25) and symbolic (typed columns).

>>> from omnireader.store import Store, SearchFilters
>>> store = Store.open("./omnireader.lance")                             # doctest: +SKIP
>>> store.search("Berlin", filters=SearchFilters(user_id="u1"))          # doctest: +SKIP
"""

from omnireader.store.filters import SearchFilters
from omnireader.store.fusion import RRF_K, convex, rrf
from omnireader.store.lance_store import DEFAULT_STORE_PATH, Store
from omnireader.store.reembedding import ReembedReport, reembed
from omnireader.store.results import AddResult, SearchResult, StoreStats, View

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
