"""omnireader: read anything an AI agent meets into structured, searchable memory items.

    >>> from omnireader import Reader
    >>> items = Reader().read([{"role": "user", "content": "I moved to Berlin last May."}])
    >>> items[0].metadata.memory_type
    'UserMemory'

Heavy parts (the LanceDB store, LLM clients, MarkItDown) load on first use, so importing
omnireader and starting its CLI stay fast.
"""

from __future__ import annotations

import os

# onnxruntime (pulled in by MarkItDown's magika) queues telemetry and looks up a Microsoft
# host unless this is set before it is imported; reading a file must never reach the network.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
# LanceDB logs index-building chatter ("partition index is 3 but ...") at WARN to stderr;
# keep errors only unless the user asked for more.
os.environ.setdefault("LANCEDB_LOG", "error")

from typing import TYPE_CHECKING, Any  # noqa: E402

from ._version import __version__  # noqa: E402
from .errors import (  # noqa: E402
    BlockedURLError,
    ConfigError,
    CorruptError,
    CrashedError,
    EmbedderMismatchError,
    EmptyInputError,
    EncryptedError,
    EngineUnavailableError,
    FetchError,
    FineModeUnavailableError,
    InternalError,
    InvalidInputError,
    LLMError,
    MissingExtraError,
    OmniReaderError,
    OmniReaderWarning,
    ReadError,
    ReadTimeoutError,
    StoreError,
    TooLargeError,
    UnsupportedFormatError,
)
from .models import (  # noqa: E402
    MemoryItem,
    MemoryMetadata,
    Message,
    ReadFailure,
    ReadInfo,
    Source,
    ToolUse,
)
from .options import ReadOptions  # noqa: E402
from .payloads import Blob  # noqa: E402

if TYPE_CHECKING:
    from .readers.reader import Reader, ReadResult
    from .store import SearchFilters, SearchResult, Store


# Loaded on first attribute access: they pull in the router's parsers, LanceDB or LLM clients.
_LAZY = {
    "Reader": ".readers.reader",
    "ReadResult": ".readers.reader",
    "ReadOutcome": ".readers.reader",
    "IngestReport": ".readers.batch",
    "Store": ".store",
    "SearchFilters": ".store",
    "SearchResult": ".store",
    "make_embedder": ".llm.embedding",
    "make_chat_backend": ".llm.config",
}

__all__ = [
    "__version__",
    "Reader",
    "ReadResult",
    "ReadOutcome",
    "IngestReport",
    "ReadOptions",
    "Store",
    "SearchFilters",
    "SearchResult",
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
    "OmniReaderError",
    "InvalidInputError",
    "ReadError",
    "UnsupportedFormatError",
    "EncryptedError",
    "CorruptError",
    "EmptyInputError",
    "TooLargeError",
    "ReadTimeoutError",
    "CrashedError",
    "InternalError",
    "FetchError",
    "BlockedURLError",
    "FineModeUnavailableError",
    "LLMError",
    "StoreError",
    "EmbedderMismatchError",
    "ConfigError",
    "EngineUnavailableError",
    "MissingExtraError",
    "OmniReaderWarning",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'omnireader' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
