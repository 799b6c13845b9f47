"""The MCP tools over streamable HTTP at /mcp under `omnireader serve`, tested with the MCP
SDK's own streamable-HTTP client against a real uvicorn server on 127.0.0.1: the same API
keys as the HTTP API, and every call pinned to the key's user."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the server extra (omnireader[server]) is not installed")

from .conftest import ALICE, BOB, KEYS, Running  # noqa: E402


async def _with_client(url: str, headers: dict[str, str], body: Any) -> Any:
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
    async with Client(transport, read_timeout_seconds=120) as client:
        return await body(client)


def test_mcp_over_http_with_keys_pins_each_call_to_the_keys_user(serve) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(keys=KEYS)
    url = f"{running.url}/mcp"

    async def alice(client: Any) -> None:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == {"read", "ingest", "search", "stats", "update", "history", "archive"}
        doc = base64.b64encode(b"The lighthouse keeper logs storms every night.").decode()
        got = await client.call_tool("ingest", {"file_base64": doc, "filename": "log.txt"})
        assert not got.is_error, got.content
        assert got.structured_content["items_inserted"] == 1
        got = await client.call_tool("search", {"query": "lighthouse storms", "k": 3})
        hits = got.structured_content["results"]
        assert hits and "lighthouse" in hits[0]["text"] and hits[0]["filename"] == "log.txt"
        # Naming another user is refused, never widened.
        bad = await client.call_tool("search", {"query": "storms", "user_id": "bob"})
        assert bad.is_error and "forbidden" in bad.content[0].text
        bad = await client.call_tool("ingest", {"text": "x", "user_id": "bob"})
        assert bad.is_error and "forbidden" in bad.content[0].text
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["items"] == 1
        assert stats.structured_content["user_id"] == "alice"

    async def bob(client: Any) -> None:
        got = await client.call_tool("ingest", {"text": "Bob's boat is called Petrel."})
        assert got.structured_content["items_inserted"] == 1
        got = await client.call_tool("search", {"query": "lighthouse storms", "k": 5})
        assert all("lighthouse" not in r["text"] for r in got.structured_content["results"])
        got = await client.call_tool("stats", {})
        assert got.structured_content["items"] == 1

    asyncio.run(_with_client(url, ALICE, alice))
    asyncio.run(_with_client(url, BOB, bob))

    # The items went through the same store as the HTTP API, under each key's user.
    with running.client(ALICE) as c:
        hits = c.post("/v1/search", json={"query": "lighthouse", "k": 3}).json()["results"]
        assert hits[0]["item"]["metadata"]["user_id"] == "alice"
    with running.client(BOB) as c:
        assert c.get("/v1/stats").json()["items"] == 1

    # Without a valid key the SDK never sees the request.
    import httpx

    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream"}
    for headers in ({}, {"Authorization": "Bearer wrong-key-000"}):
        r = httpx.post(url, json=init, headers={**accept, **headers}, timeout=30)
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = httpx.post(url, json=init, headers={**accept, **ALICE}, timeout=30)
    assert r.status_code == 200, r.text


def test_mcp_over_http_without_keys_serves_loopback_and_refuses_paths(serve) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve()

    async def body(client: Any) -> None:
        got = await client.call_tool(
            "ingest", {"text": "Storm season starts in October.", "user_id": "u1"}
        )
        assert got.structured_content["items_inserted"] == 1
        got = await client.call_tool("search", {"query": "storm season", "user_id": "u1"})
        assert "October" in got.structured_content["results"][0]["text"]
        bad = await client.call_tool("read", {"file_url": "file:///etc/passwd"})
        assert bad.is_error and "local paths" in bad.content[0].text
        bad = await client.call_tool(
            "read",
            {
                "messages": [
                    {"role": "user", "content": [{"type": "file", "file": {"path": "/etc/passwd"}}]}
                ]
            },
        )
        assert bad.is_error and "root:" not in bad.content[0].text

    asyncio.run(_with_client(f"{running.url}/mcp", {}, body))
