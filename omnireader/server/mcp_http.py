"""The MCP tools over streamable HTTP at ``/mcp`` under ``omnireader serve``.

Same door as the HTTP API: a request without a valid API key (``Authorization: Bearer KEY``
or ``X-API-Key``) is answered 401 before the MCP SDK sees it, the per-key rate applies, and
the key's user is put in the request's scope, where every tool call reads it and pins its
reads, writes and searches to that user (:func:`.mcp_server.build_server`). Stateless: each
request stands alone, so no MCP session outlives the key that made it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["McpEndpoint", "PATH"]

PATH = "/mcp"


class McpEndpoint:
    """An ASGI app for ``PATH``: checks the key, then hands the request to the SDK."""

    def __init__(self, service: Callable[[], Any], host: str) -> None:
        self._service = service
        self._host = host
        self._manager: Any = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Build the MCP server over the opened service and run its session manager (for
        the app's lifespan)."""
        from omnireader.server.mcp_server import build_server

        mcp = build_server(service=self._service())
        mcp.streamable_http_app(
            streamable_http_path=PATH, stateless_http=True, json_response=True, host=self._host
        )
        self._manager = mcp.session_manager
        async with self._manager.run():
            yield
        self._manager = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self._manager is None:
            return await _reply(send, 503, "not_ready", "the MCP server is still starting")
        svc = self._service()
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        user = None
        if svc.keys.enabled:
            presented = headers.get("x-api-key")
            auth = headers.get("authorization", "")
            if not presented and auth.lower().startswith("bearer "):
                presented = auth[7:].strip()
            user = svc.keys.user_for(presented)
            if user is None:
                return await _reply(
                    send,
                    401,
                    "unauthorized",
                    "send a valid API key as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'",
                    [(b"www-authenticate", b"Bearer")],
                )
        client = scope.get("client") or ("?", 0)
        ok, wait = svc.limiter.allow(f"user:{user}" if user else f"client:{client[0]}")
        if not ok:
            return await _reply(
                send,
                429,
                "rate_limited",
                f"more than {svc.limiter.per_minute} requests a minute",
                [(b"retry-after", str(max(1, round(wait))).encode())],
            )
        scope.setdefault("state", {})["omnireader_user"] = user
        await self._manager.handle_request(scope, receive, send)


async def _reply(
    send: Any, status: int, error: str, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"error": error, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
