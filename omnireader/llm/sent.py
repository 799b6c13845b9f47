"""Telling a caller that its request is on the wire, so it can work while the reply is out.

A caller sets :data:`REQUEST_SENT` to an event before it starts a call in a new task (which
copies the context); a backend's HTTP client with :func:`mark_sent` as a ``request`` event
hook sets that event once the request's body is written (httpx's ``trace`` extension). A
backend without the hook never sets it: the caller then waits for the reply instead.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Any

__all__ = ["REQUEST_SENT", "mark_sent"]

#: The event to set when the current task's request has been written.
REQUEST_SENT: ContextVar[asyncio.Event | None] = ContextVar("omnireader_request_sent", default=None)


async def mark_sent(request: Any) -> None:
    """An httpx ``request`` event hook: trace the request, and set the caller's event (if it
    asked for one) when its body has gone out."""
    sent = REQUEST_SENT.get()
    if sent is None:
        return

    async def trace(event: str, info: dict[str, Any]) -> None:
        if event.endswith("send_request_body.complete"):
            sent.set()

    request.extensions["trace"] = trace
