"""LangChain adapters: a document loader over files, URLs and folders, and a retriever over a Store.

    >>> from omnireader.integrations.langchain import OmniReaderLoader, OmniReaderRetriever
    >>> docs = OmniReaderLoader("./reports").load()                          # doctest: +SKIP
    >>> docs[0].metadata["source"], docs[0].metadata["page"]                 # doctest: +SKIP
    ('reports/q3.pdf', 1)
    >>> retriever = OmniReaderRetriever(store="./omnireader.lance", k=4)     # doctest: +SKIP
    >>> retriever.invoke("Q3 revenue")                                       # doctest: +SKIP

Needs the extra ``omnireader[langchain]`` (``langchain-core``); without it, importing this
module raises :class:`~omnireader.errors.MissingExtraError` (an ImportError) in one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal

from omnireader.integrations import (
    as_inputs,
    loader_reader,
    open_store,
    provenance,
    require_extra,
)

_NEEDED_BY = "omnireader.integrations.langchain"
require_extra("langchain_core", "langchain-core", "langchain", needed_by=_NEEDED_BY)

from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402
from langchain_core.document_loaders import BaseLoader  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from pydantic import ConfigDict, Field  # noqa: E402

from omnireader.integrations import Source  # noqa: E402
from omnireader.models import MemoryItem, Mode  # noqa: E402
from omnireader.reading.outcomes import ReadResult, raise_or_items  # noqa: E402
from omnireader.store.filters import SearchFilters, as_filters  # noqa: E402
from omnireader.store.results import SearchResult, View  # noqa: E402

__all__ = ["OmniReaderLoader", "OmniReaderRetriever", "to_document", "result_document"]


def to_document(item: MemoryItem) -> Document:
    """A LangChain document for one memory item: its text, its provenance, its id."""
    return Document(id=item.id, page_content=item.memory, metadata=provenance(item))


def result_document(result: SearchResult) -> Document:
    """A LangChain document for one search result: the passage (the item with its context),
    the best item's provenance, the score, and the ids of every item the passage covers."""
    metadata = {
        **provenance(result.item),
        "score": result.score,
        "view": result.view,
        "item_ids": [i.id for i in result.items] or [result.item.id],
    }
    return Document(
        id=result.item.id, page_content=result.text or result.item.memory, metadata=metadata
    )


class OmniReaderLoader(BaseLoader):
    """Loads paths, URLs or folders (walked recursively) as one ``Document`` per memory item.

    ``mode`` (``fast`` or ``fine``; fine needs ``reader=Reader(llm=...)``) and ``ocr``
    (``auto``, ``off``, ``always``) are the Reader's; other keywords are
    :class:`~omnireader.options.ReadOptions` (``chunk_tokens=``, ``password=``,
    ``allow_private_urls=`` ...). ``info`` is the items' user and session.

    With ``on_error="raise"`` (the default) the first source that gives nothing raises the
    same typed error as :meth:`Reader.read` (a missing path is a
    :class:`~omnireader.errors.ReadError`), after the documents of the sources before it
    were yielded; ``"skip"`` leaves failed sources out (``failures`` lists them).
    """

    def __init__(
        self,
        sources: Source | Iterable[Source],
        *,
        mode: Mode = "fast",
        ocr: Literal["auto", "off", "always"] | None = None,
        info: dict[str, Any] | None = None,
        reader: Any = None,
        on_error: Literal["raise", "skip"] = "raise",
        **options: Any,
    ) -> None:
        self.reader = loader_reader(reader, ocr, on_error, options)
        self.inputs = as_inputs(sources)
        self.mode: Mode = mode
        self.info = info
        self.on_error = on_error
        self.failures: list[Any] = []  # ReadFailure records of the last load, in order
        self.reader.context(info, mode)  # a bad mode or info fails here, not at the first read

    def lazy_load(self) -> Iterator[Document]:
        """One document per item, source by source, as each is read."""
        self.failures = []
        for outcome in self.reader.iter_read(self.inputs, info=self.info, mode=self.mode):
            self.failures.extend(outcome.failures)
            for item in raise_or_items(ReadResult.of([outcome]), self.on_error):
                yield to_document(item)


class OmniReaderRetriever(BaseRetriever):
    """Searches an omnireader :class:`~omnireader.store.Store` (or the path of one).

    ``filters`` are :meth:`Store.search`'s (a :class:`~omnireader.store.SearchFilters` or
    its dict: ``user_id``, ``session_id``, ``memory_type``, ``mode``, ``since``, ``until``,
    ``persons``, ``entities``, ``path``, ``page``, ``source_kind``, ``refine_status``,
    ``ids``); ``invoke(query, filters={...})`` replaces them for one call. ``max_chars``
    keeps the best results whose passages fit together in that many characters.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: Any = Field(description="a Store, or the path of an existing one")
    k: int = Field(4, ge=1)
    view: View = "hybrid"
    filters: SearchFilters = Field(default_factory=SearchFilters)
    max_chars: int | None = Field(None, ge=1)

    def __init__(self, **data: Any) -> None:
        # Checked before pydantic sees them: a validator's ValueError would come out as a
        # ValidationError, and these must be omnireader's typed errors (a missing store is a
        # StoreError, an unknown filter an InvalidInputError naming the valid ones).
        if "store" in data:
            data["store"] = open_store(data["store"])
        data["filters"] = as_filters(data.get("filters"))
        super().__init__(**data)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        filters: SearchFilters | dict[str, Any] | None = None,
    ) -> list[Document]:
        chosen = self.filters if filters is None else as_filters(filters)
        found = open_store(self.store).search(
            query, k=self.k, view=self.view, filters=chosen, max_chars=self.max_chars
        )
        return [result_document(r) for r in found]
