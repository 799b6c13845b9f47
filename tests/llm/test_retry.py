"""The retry policy on its own: backoff growth and caps, Retry-After parsing, what is not retried."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from omnireader.errors import LLMError
from omnireader.llm.retry import (
    RetryableError,
    RetryPolicy,
    backoff_delay,
    call_with_retries,
    parse_retry_after,
)


def test_backoff_doubles_up_to_the_cap_and_jitter_only_shortens() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.25)
    rng = random.Random(7)
    for attempt, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (9, 5.0)]:
        delays = [backoff_delay(attempt, policy, rng) for _ in range(50)]
        assert all(0.75 * ceiling <= d <= ceiling for d in delays)
        assert len(set(delays)) > 1  # jittered: clients that failed together spread out


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("0.5") == 0.5
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (parse_retry_after(soon) or 0) <= 30
    assert parse_retry_after("whenever") is None and parse_retry_after(None) is None


def test_retry_after_is_capped_by_the_policy() -> None:
    calls = []

    async def once_limited() -> str:
        calls.append(asyncio.get_running_loop().time())
        if len(calls) == 1:
            raise RetryableError("rate_limited", "slow down", retry_after=3600)
        return "ok"

    policy = RetryPolicy(max_retry_after=0.05)
    assert asyncio.run(call_with_retries(once_limited, policy, label="t")) == "ok"
    assert calls[1] - calls[0] < 1.0


def test_other_errors_pass_through_without_a_retry() -> None:
    calls = []

    async def bad_request() -> None:
        calls.append(1)
        raise LLMError("HTTP 400", reason="bad_request")

    with pytest.raises(LLMError, match="HTTP 400"):
        asyncio.run(call_with_retries(bad_request, RetryPolicy(), label="t"))
    assert calls == [1]


def test_the_last_retryable_reason_becomes_the_llm_error_reason() -> None:
    async def always_down() -> None:
        raise RetryableError("server_error", "HTTP 503")

    with pytest.raises(LLMError) as err:
        asyncio.run(
            call_with_retries(always_down, RetryPolicy(max_attempts=2, base_delay=0), label="srv")
        )
    assert err.value.reason == "server_error" and str(err.value).startswith("srv: HTTP 503")
