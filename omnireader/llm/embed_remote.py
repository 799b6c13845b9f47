"""Shared work of the HTTP embedding backends: naming, lazy dimension, bounded retries.

A subclass sets ``provider`` and implements :meth:`RemoteEmbedder._request` (one HTTP call
for one batch) and :meth:`RemoteEmbedder._classify` (which failures are worth another try).
Retries follow :mod:`omnireader.llm.retry`, like the chat backends; after the last attempt
the failure is an :class:`~omnireader.errors.LLMError` naming the embedder.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from omnireader.errors import ConfigError, LLMError
from omnireader.llm.embedder_base import Embedder
from omnireader.llm.retry import RetryableError, RetryPolicy, backoff_delay

__all__ = ["RemoteEmbedder"]

# Short backoff: an ingest waits on these calls, and the servers are usually local.
_DEFAULT_POLICY = RetryPolicy(max_attempts=3, base_delay=0.25, max_delay=4.0)


class RemoteEmbedder(Embedder):
    """An embedding model behind an HTTP API, called in batches of ``batch_size`` texts."""

    provider: ClassVar[str]
    batch_size: ClassVar[int] = 128

    def __init__(
        self,
        model: str,
        *,
        dimensions: int | None = None,
        timeout: float = 60.0,
        retry: RetryPolicy = _DEFAULT_POLICY,
    ) -> None:
        if not model:
            raise ConfigError(f"{self.provider} embedder needs a model name")
        self.model = model
        self.dimensions = dimensions  # asked of the server (models that can shorten vectors)
        self.timeout = timeout
        self.retry = retry
        self._dim: int | None = dimensions

    @property
    def name(self) -> str:
        suffix = f"@{self.dimensions}" if self.dimensions else ""
        return f"{self.provider}:{self.model}{suffix}"

    @property
    def dim(self) -> int:
        # Unknown until the server answers once: ask with a one-word probe rather than
        # keep a table of model sizes that goes stale.
        if self._dim is None:
            self._embed_batch(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        vectors = self._with_retries(texts)
        if self._dim is None and vectors:
            self._dim = len(vectors[0])
        return vectors

    def _with_retries(self, texts: list[str]) -> list[list[float]]:
        label = f"embedder {self.name}"
        for attempt in range(1, self.retry.max_attempts + 1):
            try:
                return [list(v) for v in self._request(texts)]
            except Exception as exc:  # noqa: BLE001 - sorted into retry / final below
                decision = self._classify(exc, label)
            if not isinstance(decision, RetryableError):
                raise decision
            if attempt == self.retry.max_attempts:
                raise LLMError(
                    f"{label}: {decision.detail} (gave up after {attempt} attempts)",
                    reason=decision.reason,
                ) from decision
            delay = decision.retry_after
            if delay is None:
                delay = backoff_delay(attempt, self.retry)
            time.sleep(min(delay, self.retry.max_retry_after))
        raise AssertionError("unreachable: max_attempts >= 1")  # pragma: no cover

    @abstractmethod
    def _request(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """One API call: the vectors of ``texts``, in order."""

    @abstractmethod
    def _classify(self, exc: Exception, label: str) -> Exception:
        """A :class:`RetryableError`, a final error to raise, or ``exc`` itself."""
