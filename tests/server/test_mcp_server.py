"""`omnireader mcp` tested with the MCP SDK's own client over stdio: list the tools, call
each one, and check the errors a client sees."""

from __future__ import annotations

import asyncio
import base64
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the server extra (omnireader[server]) is not installed")


async def _session(db: Path) -> None:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "omnireader", "mcp", "--db", str(db)],
        env={"ORT_DISABLE_TELEMETRY": "1", "PATH": os.environ.get("PATH", "")},
    )
    async with Client(params, read_timeout_seconds=120) as client:
        import omnireader

        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == (
            "omnireader",
            omnireader.__version__,
        )
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {"read", "ingest", "search", "stats", "update", "history", "archive"}
        for tool in tools.values():
            assert tool.description and tool.input_schema["type"] == "object"
        assert "query" in tools["search"].input_schema["required"]

        got = await client.call_tool(
            "read",
            {"messages": [{"role": "user", "content": "My dentist is Dr. Okafor on Elm Street."}]},
        )
        assert not got.is_error
        assert "Okafor" in got.structured_content["items"][0]["memory"]

        doc = base64.b64encode(b"The lighthouse keeper logs storms every night.").decode()
        got = await client.call_tool(
            "ingest", {"file_base64": doc, "filename": "log.txt", "user_id": "u1"}
        )
        assert not got.is_error, got.content
        assert got.structured_content["items_inserted"] == 1
        got = await client.call_tool(
            "ingest", {"text": "Storm season starts in October.", "user_id": "u1"}
        )
        assert got.structured_content["items_inserted"] == 1

        got = await client.call_tool(
            "search", {"query": "lighthouse storms", "k": 3, "max_chars": 2000, "user_id": "u1"}
        )
        results = got.structured_content["results"]
        assert "lighthouse" in results[0]["text"] and results[0]["filename"] == "log.txt"
        assert sum(len(r["text"]) for r in results) <= 2000
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["items"] == 2

        # A fact that changed: the new version is current, the old one is in its history.
        got = await client.call_tool("search", {"query": "storm season", "k": 1, "user_id": "u1"})
        season = got.structured_content["results"][0]["id"]
        got = await client.call_tool(
            "update", {"item_id": season, "memory": "Storm season starts in November."}
        )
        assert got.structured_content["version"] == 2, got.content
        got = await client.call_tool("history", {"item_id": season})
        versions = got.structured_content["versions"]
        assert [(v["version"], v["status"]) for v in versions] == [
            (1, "archived"),
            (2, "activated"),
        ]
        assert versions[0]["memory"].startswith("Storm season starts in October")
        got = await client.call_tool(
            "search", {"query": "storm season October", "k": 5, "include_archived": True}
        )
        old = [r for r in got.structured_content["results"] if r.get("archived")]
        assert [r["superseded_by"] for r in old] == [season]
        got = await client.call_tool("archive", {"item_ids": [season], "reason": "conflict"})
        assert got.structured_content["archived"] == 1
        bad = await client.call_tool("update", {"item_id": "nope", "memory": "x"})
        assert bad.is_error and "no current item 'nope'" in bad.content[0].text

        # The errors a client sees: tool errors with omnireader's message.
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
        bad = await client.call_tool("read", {})
        assert bad.is_error and "give text" in bad.content[0].text
        blocked = await client.call_tool("read", {"file_url": "http://127.0.0.1:9/x.pdf"})
        assert not blocked.is_error
        assert blocked.structured_content["failures"][0]["error"] == "blocked_url"


def test_mcp_stdio_tools(tmp_path: Path) -> None:
    asyncio.run(_session(tmp_path / "db.lance"))
