"""LLM clients behind one protocol: structured chat, vision, speech (and embeddings).

Backends: any OpenAI-compatible server (``openai:MODEL``) and Ollama (``ollama:MODEL``). The
``openai`` / ``ollama`` packages are imported only when a request is made.

    >>> from omnireader.llm import make_chat_backend, LLMConfig
    >>> make_chat_backend(None, config=LLMConfig()) is None   # nothing configured: fast mode only
    True
"""

from .base import ChatBackend, ChatReply, Segment, Transcript, Usage
from .config import LLMConfig, find_config_file, make_chat_backend, parse_spec
from .embedder_base import Embedder
from .embedding import make_embedder
from .limits import Limiter
from .ollama_backend import OllamaChatBackend
from .openai_backend import OpenAIChatBackend
from .retry import RetryPolicy
from .schemas import ExtractedMemory, Extraction, ImageReading, ToolVerdict, TrajectoryReview

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
