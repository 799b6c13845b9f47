"""Request-size limit as pure ASGI middleware: a body over the limit is answered with 413
before a route sees it, whether the client announced its length or streamed it chunked."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BodyLimit"]


class _TooLarge(Exception):
    pass


class BodyLimit:
    def __init__(
        self, app: Any, max_bytes: int, upload_bytes: int, upload_paths: tuple[str, ...]
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.upload_bytes = upload_bytes
        self.upload_paths = upload_paths

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.upload_bytes if scope["path"] in self.upload_paths else self.max_bytes
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _drain(receive)
            await _answer(send, limit)
            return
        seen = 0
        started = False

        async def counted() -> dict[str, Any]:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched_send)
        except _TooLarge:
            if not started:
                await _drain(receive)
                await _answer(send, limit)


async def _drain(receive: Any) -> None:
    """Read what is left of the body, so the client sees the answer, not a reset."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return


async def _answer(send: Any, limit: int) -> None:
    body = json.dumps(
        {"error": "too_large", "message": f"the request body is larger than {limit} bytes"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
