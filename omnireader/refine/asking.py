"""One LLM call, and the work that does not need its answer done while it is in flight.

A fine task's guard (:class:`~omnireader.refine.memory_guard.MemoryGuard`) reads the
source and the prompt, not the reply: built after the reply, it sits between that reply
and the next request on the one event loop (a chat window's guard scans every line of the
window for dates). Built while the request is out, it costs the run nothing it was not
already waiting for. The backend says when the request is written
(:mod:`omnireader.llm.sent`): on a cold event loop a new connection takes a turn of the
loop, and work done before it connects would delay the request instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from omnireader.llm.sent import REQUEST_SENT

__all__ = ["ask_while"]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


async def ask_while(
    llm: Any, messages: Sequence[dict[str, Any]], schema: type[M], meanwhile: Callable[[], T]
) -> tuple[M, T]:
    """``llm.acomplete_json(messages, schema)``'s answer and ``meanwhile()``, which runs
    once the request has started. An LLM error wins over an error of ``meanwhile`` (as when
    it ran after the answer), so an item fails for the same reason as before."""
    sent = asyncio.Event()
    token = REQUEST_SENT.set(sent)
    try:
        call = asyncio.ensure_future(llm.acomplete_json(messages, schema))
    finally:
        REQUEST_SENT.reset(token)
    waiter = asyncio.ensure_future(sent.wait())
    try:
        # Until the request is written (a backend that cannot tell: until the reply).
        await asyncio.wait((call, waiter), return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        done = meanwhile()
    except asyncio.CancelledError:
        call.cancel()
        waiter.cancel()
        raise
    except Exception:
        await call  # its error first, if it fails
        raise
    got, _ = await call
    return got, done
