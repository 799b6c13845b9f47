"""A lean HTTP/1.1 client for JSON POSTs to a plain-``http://`` LLM server (vLLM, llama.cpp,
LM Studio, Ollama's OpenAI API on the local network).

Why: a chat call through the ``openai`` package (request options, headers, httpx, httpcore,
anyio) costs about 3.5 ms of CPU; the same request over asyncio streams costs about 0.2 ms
(``scratch``-free measure: ``bench/bench_fine.py`` reports client CPU per call). Fine mode
keeps 16 calls in flight, and while the event loop spends that CPU no reply is read and no
next request goes out, which is most of fine mode's overhead over the LLM's own latency.

Scope, on purpose small: ``http`` only (TLS endpoints keep the ``openai`` client, whose
latency dwarfs this), no proxy (a proxy configured for the host keeps the ``openai`` client
too, see :func:`lean_allowed`), keep-alive connections reused per event loop, replies with
``Content-Length`` or chunked bodies. ``OMNIREADER_LLM_HTTP=openai`` turns it off.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any
from urllib.parse import urlsplit

__all__ = ["LeanHTTP", "HTTPReply", "lean_allowed"]

_MAX_HEAD = 64 * 1024  # a status line and headers longer than this is not an LLM server


class HTTPReply:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers  # names lower-cased
        self.body = body


def lean_allowed(base_url: str | None) -> bool:
    """True when ``base_url`` is plain http, no proxy applies to it, and it is not turned off."""
    if not base_url or os.environ.get("OMNIREADER_LLM_HTTP", "").lower() == "openai":
        return False
    parts = urlsplit(base_url)
    if parts.scheme != "http" or not parts.hostname or parts.username or parts.password:
        return False
    from urllib.request import getproxies_environment, proxy_bypass_environment

    proxies = getproxies_environment()
    if (proxies.get("http") or proxies.get("all")) and not proxy_bypass_environment(parts.hostname, proxies):
        return False
    return True


class LeanHTTP:
    """Keep-alive JSON POSTs to one ``http://host:port/prefix``; belongs to one event loop."""

    def __init__(self, base_url: str, headers: dict[str, str], timeout: float) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        host_header = parts.netloc.rsplit("@", 1)[-1]
        self._head = "".join(f"{k}: {v}\r\n" for k, v in {"Host": host_header, **headers}.items())
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def post_json(self, path: str, body: Any) -> HTTPReply:
        """POST ``body`` as JSON to ``prefix/path``; raises ``TimeoutError``, ``OSError`` or
        ``ValueError`` (a reply that is not HTTP) for the caller to classify."""
        payload = json.dumps(body, ensure_ascii=False).encode()
        request = (f"POST {self.prefix}/{path.lstrip('/')} HTTP/1.1\r\n{self._head}"
                   f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
                   ).encode() + payload
        async with asyncio.timeout(self.timeout):
            while self._idle:  # a reused connection the server closed meanwhile: try the next
                conn = self._idle.pop()
                try:
                    return await self._exchange(conn, request)
                except _StaleConnection:
                    continue
            conn = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(conn, request)
            except _StaleConnection as e:
                raise ConnectionError("the server closed the connection without replying") from e

    async def _exchange(self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter],
                        request: bytes) -> HTTPReply:
        reader, writer = conn
        keep = False
        try:
            try:
                writer.write(request)
                await writer.drain()
                status_line = await reader.readuntil(b"\r\n")
            except (asyncio.IncompleteReadError, ConnectionError) as e:
                # Nothing came back: the server dropped an idle connection. Safe to resend
                # (nothing of this request was processed).
                raise _StaleConnection() from e
            version, status = _status(status_line)
            headers = await _headers(reader)
            body = await _body(reader, headers)
            conn_header = headers.get("connection", "").lower()
            framed = "content-length" in headers or "chunked" in headers.get("transfer-encoding", "").lower()
            keep = framed and "close" not in conn_header and (version == "HTTP/1.1" or "keep-alive" in conn_header)
            return HTTPReply(status, headers, body)
        except asyncio.LimitOverrunError as e:
            raise ValueError("the server's reply head is too long") from e
        finally:
            if keep:
                self._idle.append(conn)
            else:
                writer.close()

    async def aclose(self) -> None:
        while self._idle:
            _, writer = self._idle.pop()
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass


class _StaleConnection(Exception):
    pass


def _status(line: bytes) -> tuple[str, int]:
    parts = line.decode("latin-1").split(None, 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP reply: {line[:80]!r}")
    return parts[0], int(parts[1])


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    out: dict[str, str] = {}
    size = 0
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        size += len(line)
        if size > _MAX_HEAD:
            raise ValueError("the server's reply head is too long")
        name, sep, value = line.decode("latin-1").partition(":")
        if sep:
            out[name.strip().lower()] = value.strip()
    return out


async def _body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    length = headers.get("content-length")
    if length is None:
        return await reader.read()  # until the server closes (HTTP/1.0 style)
    if not length.isdigit():
        raise ValueError(f"bad Content-Length {length!r}")
    return await reader.readexactly(int(length))
