"""Embeddings from any OpenAI-compatible server (OpenAI, vLLM, llama.cpp, LM Studio).

Settings come from the arguments, else the environment: ``OPENAI_BASE_URL`` and
``OPENAI_API_KEY``. A local server usually ignores the key, so with a base URL and no key a
placeholder is sent; with neither, the error says what to set.

    >>> e = OpenAIEmbedder("text-embedding-3-small", base_url="http://127.0.0.1:8000/v1", api_key="k")
    >>> e.name
    'openai:text-embedding-3-small'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from omnireader.errors import BadReplyError, ConfigError
from omnireader.llm.embed_remote import RemoteEmbedder
from omnireader.llm.transport_errors import classify_openai_error

__all__ = ["OpenAIEmbedder"]

_PLACEHOLDER_KEY = "sk-no-key-needed"  # local servers accept anything; the client wants one


class OpenAIEmbedder(RemoteEmbedder):
    """``client.embeddings.create(model=..., input=batch)`` in batches of 128."""

    provider = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dimensions: int | None = None,
        timeout: float = 60.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, dimensions=dimensions, timeout=timeout, **kwargs)
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY") or None
        if key is None and self.base_url is None:
            raise ConfigError(
                f"openai embedder {model!r} needs OPENAI_API_KEY (for api.openai.com) or "
                "OPENAI_BASE_URL (for a local OpenAI-compatible server)"
            )
        self._api_key = key or _PLACEHOLDER_KEY
        self._client: Any = None

    def _request(self, texts: list[str]) -> Sequence[Sequence[float]]:
        if self._client is None:
            import openai

            # Retries are ours (same policy as the chat backends), so the client's are off.
            self._client = openai.OpenAI(
                base_url=self.base_url, api_key=self._api_key, timeout=self.timeout, max_retries=0
            )
        extra: dict[str, Any] = {"dimensions": self.dimensions} if self.dimensions else {}
        response = self._client.embeddings.create(
            model=self.model, input=texts, encoding_format="float", **extra
        )
        # The API may answer out of order; ``index`` says which input each vector belongs to.
        data = sorted(response.data, key=lambda d: d.index)
        if len(data) != len(texts):
            raise BadReplyError(f"{len(data)} embeddings for {len(texts)} inputs")
        return [d.embedding for d in data]

    def _classify(self, exc: Exception, label: str) -> Exception:
        return classify_openai_error(exc, label)
