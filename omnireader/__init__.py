"""omnireader: read anything an AI agent meets into structured, searchable memory items.

    >>> from omnireader import Reader
    >>> items = Reader().read([{"role": "user", "content": "I moved to Berlin last May."}])
    >>> items[0].metadata.memory_type
    'UserMemory'

Heavy parts (the LanceDB store, LLM clients, MarkItDown) load on first use, so importing
omnireader and starting its CLI stay fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omnireader._version import __version__
from omnireader.errors import (
    BlockedURLError,
    ConfigError,
    CorruptError,
    CrashedError,
    EmbedderMismatchError,
    EmptyInputError,
    EncryptedError,
    EngineUnavailableError,
    FetchError,
    FileNameError,
    FineModeUnavailableError,
    InternalError,
    InvalidInputError,
    ItemNotFoundError,
    LLMError,
    MissingExtraError,
    NeedsOcrError,
    OmniReaderError,
    OmniReaderWarning,
    ReadError,
    ReadTimeoutError,
    StoreError,
    TooLargeError,
    UnsupportedFormatError,
)
from omnireader.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from omnireader.batch.ingest import aingest, ingest
    from omnireader.batch.report import IngestReport
    from omnireader.models import (
        MemoryItem,
        MemoryMetadata,
        Message,
        Mode,
        ReadFailure,
        ReadInfo,
        Source,
        ToolUse,
        UpdateType,
    )
    from omnireader.options import IngestOptions, ReadOptions
    from omnireader.payloads import Blob
    from omnireader.reading.reader import Reader, ReadOutcome, ReadResult
    from omnireader.store import SearchFilters, SearchResult, Store, reembed


# Loaded on first attribute access: they pull in the router's parsers, LanceDB or LLM clients
# (and the models pydantic, which a command handed to a warm process never needs).
_LAZY = {
    **dict.fromkeys(
        [
            "MemoryItem",
            "MemoryMetadata",
            "Message",
            "Mode",
            "ReadFailure",
            "ReadInfo",
            "Source",
            "ToolUse",
            "UpdateType",
        ],
        ".models",
    ),
    "IngestOptions": ".options",
    "ReadOptions": ".options",
    "Blob": ".payloads",
    "Reader": ".reading.reader",
    "ReadResult": ".reading.reader",
    "ReadOutcome": ".reading.reader",
    "ingest": ".batch.ingest",
    "aingest": ".batch.ingest",
    "IngestReport": ".batch.report",
    "Store": ".store",
    "SearchFilters": ".store",
    "SearchResult": ".store",
    "reembed": ".store",
    "make_embedder": ".llm.embedding",
    "make_chat_backend": ".llm.config",
}

__all__ = [
    "__version__",
    "Reader",
    "ReadResult",
    "ReadOutcome",
    "ingest",
    "aingest",
    "IngestReport",
    "IngestOptions",
    "ReadOptions",
    "Mode",
    "Store",
    "SearchFilters",
    "SearchResult",
    "reembed",
    "make_embedder",
    "make_chat_backend",
    "Blob",
    "MemoryItem",
    "MemoryMetadata",
    "Message",
    "ReadFailure",
    "ReadInfo",
    "Source",
    "ToolUse",
    "UpdateType",
    "OmniReaderError",
    "InvalidInputError",
    "ReadError",
    "UnsupportedFormatError",
    "EncryptedError",
    "CorruptError",
    "EmptyInputError",
    "NeedsOcrError",
    "TooLargeError",
    "FileNameError",
    "ReadTimeoutError",
    "CrashedError",
    "InternalError",
    "FetchError",
    "BlockedURLError",
    "FineModeUnavailableError",
    "LLMError",
    "StoreError",
    "EmbedderMismatchError",
    "ItemNotFoundError",
    "ConfigError",
    "EngineUnavailableError",
    "MissingExtraError",
    "OmniReaderWarning",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
