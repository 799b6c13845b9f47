"""LlamaIndex adapters: a reader over files, URLs and folders, and a retriever over a Store.

    >>> from omnireader.integrations.llama_index import OmniReaderReader, OmniReaderRetriever
    >>> docs = OmniReaderReader().load_data("./reports")                     # doctest: +SKIP
    >>> docs[0].id_ == docs[0].metadata["item_id"]                           # doctest: +SKIP
    True
    >>> OmniReaderRetriever("./omnireader.lance").retrieve("Q3 revenue")     # doctest: +SKIP

Document ids are omnireader's item ids, which hash what was read: loading the same files
again gives the same ids, so a docstore or an ingestion pipeline sees them as unchanged.

Needs the extra ``omnireader[llama-index]`` (``llama-index-core``); without it, importing
this module raises :class:`~omnireader.errors.MissingExtraError` (an ImportError) in one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal

from omnireader.integrations import (
    Source,
    as_inputs,
    loader_reader,
    open_store,
    provenance,
    require_extra,
)

require_extra(
    "llama_index.core",
    "llama-index-core",
    "llama-index",
    needed_by="omnireader.integrations.llama_index",
)

from llama_index.core.readers.base import BaseReader  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import Document, NodeWithScore, QueryBundle, TextNode  # noqa: E402

from omnireader.errors import InvalidInputError  # noqa: E402
from omnireader.models import MemoryItem, Mode  # noqa: E402
from omnireader.reading.outcomes import ReadResult, raise_or_items  # noqa: E402
from omnireader.store.filters import SearchFilters, as_filters  # noqa: E402
from omnireader.store.results import SearchResult, View  # noqa: E402

__all__ = ["OmniReaderReader", "OmniReaderRetriever", "to_document", "result_node", "HIDDEN_KEYS"]

#: Bookkeeping keys kept out of the text an embedding model or an LLM is shown: they say
#: nothing about the content and would only add noise to both.
HIDDEN_KEYS = [
    "item_id",
    "item_ids",
    "chunk_index",
    "chunk_total",
    "mime",
    "mode",
    "memory_type",
    "flags",
    "time_source",
    "source_kind",
    "score",
    "view",
]


def _hidden(metadata: dict[str, Any]) -> list[str]:
    return [k for k in HIDDEN_KEYS if k in metadata]


def to_document(item: MemoryItem, extra_info: dict[str, Any] | None = None) -> Document:
    """A LlamaIndex document for one memory item; its ``id_`` is the item's id."""
    metadata = {**(extra_info or {}), **provenance(item)}
    return Document(
        id_=item.id,
        text=item.memory,
        metadata=metadata,
        excluded_embed_metadata_keys=_hidden(metadata),
        excluded_llm_metadata_keys=_hidden(metadata),
    )


def result_node(result: SearchResult) -> NodeWithScore:
    """A scored node for one search result: the passage, the best item's provenance and id."""
    metadata = {
        **provenance(result.item),
        "view": result.view,
        "item_ids": [i.id for i in result.items] or [result.item.id],
    }
    node = TextNode(
        id_=result.item.id,
        text=result.text or result.item.memory,
        metadata=metadata,
        excluded_embed_metadata_keys=_hidden(metadata),
        excluded_llm_metadata_keys=_hidden(metadata),
    )
    return NodeWithScore(node=node, score=result.score)


class OmniReaderReader(BaseReader):
    """Reads paths, URLs or folders (walked recursively) into one ``Document`` per item.

    ``mode`` (``fast`` or ``fine``; fine needs ``reader=Reader(llm=...)``) and ``ocr``
    (``auto``, ``off``, ``always``) are the Reader's; other keywords are
    :class:`~omnireader.options.ReadOptions`. ``on_error="raise"`` (the default) raises the
    same typed error as :meth:`Reader.read` for a source that gives nothing (a missing path
    is a :class:`~omnireader.errors.ReadError`); ``"skip"`` leaves it out and records it in
    ``failures``.
    """

    def __init__(
        self,
        *,
        mode: Mode = "fast",
        ocr: Literal["auto", "off", "always"] | None = None,
        info: dict[str, Any] | None = None,
        reader: Any = None,
        on_error: Literal["raise", "skip"] = "raise",
        **options: Any,
    ) -> None:
        self.reader = loader_reader(reader, ocr, on_error, options)
        self.mode: Mode = mode
        self.info = info
        self.on_error = on_error
        self.failures: list[Any] = []  # ReadFailure records of the last load, in order
        self.reader.context(info, mode)  # a bad mode or info fails here, not at the first read

    def lazy_load_data(  # type: ignore[override]
        self,
        sources: Source | Iterable[Source] | None = None,
        extra_info: dict[str, Any] | None = None,
        *,
        file: Source | None = None,
    ) -> Iterator[Document]:
        """Documents for ``sources`` (or ``file=``, the keyword LlamaIndex's file readers
        take), source by source as each is read; ``extra_info`` is added to every
        document's metadata (omnireader's provenance keys win on a clash)."""
        if sources is None and file is None:
            raise InvalidInputError(
                "load_data needs sources: a path, a URL or a folder (or a list of them)"
            )
        inputs = as_inputs(sources if sources is not None else file)  # type: ignore[arg-type]
        self.failures = []
        for outcome in self.reader.iter_read(inputs, info=self.info, mode=self.mode):
            self.failures.extend(outcome.failures)
            for item in raise_or_items(ReadResult.of([outcome]), self.on_error):
                yield to_document(item, extra_info)

    def load_data(  # type: ignore[override]
        self,
        sources: Source | Iterable[Source] | None = None,
        extra_info: dict[str, Any] | None = None,
        *,
        file: Source | None = None,
    ) -> list[Document]:
        """:meth:`lazy_load_data`, as a list."""
        return list(self.lazy_load_data(sources, extra_info, file=file))


class OmniReaderRetriever(BaseRetriever):
    """Searches an omnireader :class:`~omnireader.store.Store` (or the path of one).

    ``filters`` are :meth:`Store.search`'s (a :class:`~omnireader.store.SearchFilters` or
    its dict: ``user_id``, ``session_id``, ``memory_type``, ``mode``, ``since``, ``until``,
    ``persons``, ``entities``, ``path``, ``page``, ``source_kind``, ``refine_status``,
    ``ids``); ``max_chars`` keeps the best results whose passages fit together in that many
    characters. Scores are the view's (see :class:`~omnireader.store.SearchResult`).
    """

    def __init__(
        self,
        store: Any,
        *,
        k: int = 4,
        view: View = "hybrid",
        filters: SearchFilters | dict[str, Any] | None = None,
        max_chars: int | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(k, int) or k < 1:
            raise InvalidInputError(f"k must be an integer of at least 1, not {k!r}")
        if view not in ("hybrid", "vector", "fts"):
            raise InvalidInputError(
                f"unknown search view {view!r}; valid views: hybrid, vector, fts"
            )
        if max_chars is not None and max_chars < 1:
            raise InvalidInputError(f"max_chars must be at least 1, not {max_chars}")
        self.store = open_store(store)
        self.k = k
        self.view: View = view
        self.filters = as_filters(filters)
        self.max_chars = max_chars
        super().__init__(**kwargs)  # callback_manager, verbose, ...

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = self.store.search(
            query_bundle.query_str,
            k=self.k,
            view=self.view,
            filters=self.filters,
            max_chars=self.max_chars,
        )
        return [result_node(r) for r in found]
