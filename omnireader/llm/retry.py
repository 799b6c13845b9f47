"""Bounded retries with exponential backoff and jitter for LLM calls.

Backends turn a failed HTTP call into :class:`RetryableError` (timeouts, transport errors, 429,
5xx) or raise :class:`~omnireader.errors.LLMError` straight away (other 4xx: retrying a bad
request only repeats it). :func:`call_with_retries` retries the former a bounded number of times
and then raises ``LLMError`` with the last reason, so callers see one error type.

    >>> policy = RetryPolicy(max_attempts=3, base_delay=0.01)
    >>> backoff_delay(2, policy) <= 0.02
    True
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from omnireader.errors import LLMError

__all__ = [
    "RetryPolicy",
    "RetryableError",
    "call_with_retries",
    "backoff_delay",
    "parse_retry_after",
]

T = TypeVar("T")


class RetryPolicy(BaseModel):
    """How hard to try. ``max_attempts`` counts the first try too."""

    model_config = ConfigDict(frozen=True)

    max_attempts: int = Field(4, ge=1)
    base_delay: float = Field(0.5, ge=0, description="seconds before the first retry")
    max_delay: float = Field(8.0, ge=0, description="cap on one backoff sleep")
    max_retry_after: float = Field(30.0, ge=0, description="cap on a server's Retry-After")
    jitter: float = Field(0.25, ge=0, le=1, description="fraction of each delay randomised")


class RetryableError(Exception):
    """A failure worth another try. ``reason`` becomes the final ``LLMError.reason``."""

    def __init__(self, reason: str, detail: str, *, retry_after: float | None = None) -> None:
        self.reason = reason
        self.detail = detail
        self.retry_after = retry_after
        super().__init__(f"{reason}: {detail}")


def backoff_delay(attempt: int, policy: RetryPolicy, rng: random.Random | None = None) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1-based).

    Doubling, capped, and shortened by up to ``jitter`` at random so many clients that failed
    together do not all come back at the same instant.
    """
    delay = min(policy.max_delay, policy.base_delay * (2 ** (attempt - 1)))
    return delay * (1.0 - policy.jitter * (rng or random).random())


def parse_retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header as seconds: a number, or an HTTP date. None if absent or garbled."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


async def call_with_retries(
    attempt_fn: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    label: str,
    on_attempt: Callable[[], None] | None = None,
) -> T:
    """Await ``attempt_fn()`` until it succeeds, retrying :class:`RetryableError` with backoff.

    A server's Retry-After wins over the computed backoff (capped by ``max_retry_after``).
    After ``max_attempts`` the last failure is raised as ``LLMError(reason=...)``.
    ``on_attempt`` is called before every try, so callers can count calls.
    """
    for attempt in range(1, policy.max_attempts + 1):
        if on_attempt is not None:
            on_attempt()
        try:
            return await attempt_fn()
        except RetryableError as e:
            if attempt == policy.max_attempts:
                raise LLMError(
                    f"{label}: {e.detail} (gave up after {attempt} attempt{'s' * (attempt > 1)})",
                    reason=e.reason,
                ) from e
            if e.retry_after is not None:
                delay = min(e.retry_after, policy.max_retry_after)
            else:
                delay = backoff_delay(attempt, policy)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable: max_attempts >= 1")  # pragma: no cover
