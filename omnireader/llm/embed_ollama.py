"""Embeddings from an Ollama server (e.g. ``nomic-embed-text``), through the ``ollama`` package.

The host comes from the argument, else ``OLLAMA_HOST``, else Ollama's default
(``http://127.0.0.1:11434``).

    >>> OllamaEmbedder("nomic-embed-text").name
    'ollama:nomic-embed-text'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from omnireader.errors import BadReplyError
from omnireader.llm.embed_remote import RemoteEmbedder
from omnireader.llm.transport_errors import classify_ollama_error

__all__ = ["OllamaEmbedder"]


class OllamaEmbedder(RemoteEmbedder):
    """``ollama.Client(host).embed(model=..., input=batch)`` in batches of 128."""

    provider = "ollama"

    def __init__(
        self,
        model: str,
        *,
        host: str | None = None,
        dimensions: int | None = None,
        timeout: float = 60.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, dimensions=dimensions, timeout=timeout, **kwargs)
        self.host = host or os.environ.get("OLLAMA_HOST") or None
        self._client: Any = None

    def _request(self, texts: list[str]) -> Sequence[Sequence[float]]:
        if self._client is None:
            import ollama

            self._client = ollama.Client(host=self.host, timeout=self.timeout)
        extra: dict[str, Any] = {"dimensions": self.dimensions} if self.dimensions else {}
        response = self._client.embed(model=self.model, input=texts, **extra)
        vectors = list(response.embeddings)
        if len(vectors) != len(texts):
            raise BadReplyError(f"{len(vectors)} embeddings for {len(texts)} inputs")
        return vectors

    def _classify(self, exc: Exception, label: str) -> Exception:
        return classify_ollama_error(exc, label)
