"""LLM clients behind one protocol: structured chat, vision, speech (and embeddings).

Backends: any OpenAI-compatible server (``openai:MODEL``) and Ollama (``ollama:MODEL``). The
``openai`` / ``ollama`` packages are imported only when a request is made.

    >>> from omnireader.llm import make_chat_backend, LLMConfig
    >>> make_chat_backend(None, config=LLMConfig()) is None   # nothing configured: fast mode only
    True

The names below load on first use (PEP 562): a store command that only embeds a query
(``omnireader.llm.embed_static``) does not import the chat backends and their models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omnireader.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from omnireader.llm.base import ChatBackend
    from omnireader.llm.config import LLMConfig, find_config_file, make_chat_backend, parse_spec
    from omnireader.llm.embedder_base import Embedder
    from omnireader.llm.embedding import make_embedder
    from omnireader.llm.limits import Limiter
    from omnireader.llm.ollama_backend import OllamaChatBackend
    from omnireader.llm.openai_backend import OpenAIChatBackend
    from omnireader.llm.replies import ChatReply, Segment, Transcript, Usage
    from omnireader.llm.retry import RetryPolicy
    from omnireader.llm.schemas import (
        ExtractedMemory,
        Extraction,
        ImageReading,
        ToolVerdict,
        TrajectoryReview,
    )

_LAZY = {
    "ChatBackend": "base",
    "LLMConfig": "config",
    "find_config_file": "config",
    "make_chat_backend": "config",
    "parse_spec": "config",
    "Embedder": "embedder_base",
    "make_embedder": "embedding",
    "Limiter": "limits",
    "OllamaChatBackend": "ollama_backend",
    "OpenAIChatBackend": "openai_backend",
    "ChatReply": "replies",
    "Segment": "replies",
    "Transcript": "replies",
    "Usage": "replies",
    "RetryPolicy": "retry",
    "ExtractedMemory": "schemas",
    "Extraction": "schemas",
    "ImageReading": "schemas",
    "ToolVerdict": "schemas",
    "TrajectoryReview": "schemas",
}

__all__ = [
    "ChatBackend",
    "ChatReply",
    "Usage",
    "Segment",
    "Transcript",
    "LLMConfig",
    "Embedder",
    "make_embedder",
    "make_chat_backend",
    "parse_spec",
    "find_config_file",
    "Limiter",
    "RetryPolicy",
    "OpenAIChatBackend",
    "OllamaChatBackend",
    "ExtractedMemory",
    "Extraction",
    "ImageReading",
    "ToolVerdict",
    "TrajectoryReview",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
