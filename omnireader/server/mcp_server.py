"""``omnireader mcp``: the Reader and the Store as MCP tools, over stdio (and over
streamable HTTP at ``/mcp`` under ``omnireader serve``, see :mod:`.mcp_http`).

Tools: ``read`` (text, chat messages, or a file given by http(s) URL or base64; never a
path on this machine), ``ingest`` (the same, written to the store), ``search`` (passages with
their provenance, within a character budget), ``stats``, and ``update`` / ``history`` /
``archive`` for memories that change (:mod:`.mcp_versions`). Errors reach the client as tool
errors carrying omnireader's one-line message.
"""

# No ``from __future__ import annotations``: the SDK reads the tools' annotations, and
# ``Context`` is imported inside build_server (mcp loads only when a server starts).

import asyncio
import base64
import binascii
from pathlib import Path
from typing import Any, Literal

from omnireader._version import __version__
from omnireader.batch.ingest import ingest as ingest_batch
from omnireader.options import IngestOptions

__all__ = ["build_server", "run_stdio"]

_DEFAULT_DB = Path("./omnireader.lance")


def _inputs(
    text: str | None,
    messages: list[dict[str, Any]] | None,
    file_url: str | None,
    file_base64: str | None,
    filename: str | None,
) -> list[Any]:
    from omnireader.errors import InvalidInputError
    from omnireader.payloads import Blob
    from omnireader.server.service import refuse_local_paths

    out: list[Any] = []
    if text:
        out.append(text)
    if messages:
        refuse_local_paths(messages, "messages")
        out.append(messages)
    if file_url:
        if not file_url.lower().startswith(("http://", "https://")):
            raise InvalidInputError(
                "file_url must be an http(s):// URL (local paths and "
                "file:// URLs are not read): send file_base64 instead"
            )
        out.append(file_url)
    if file_base64:
        try:
            data = base64.b64decode(file_base64, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidInputError("file_base64 is not valid base64") from None
        out.append(Blob(data=data, filename=filename or "upload"))
    if not out:
        raise InvalidInputError("give text, messages, file_url or file_base64")
    return out


def _where(item: Any) -> dict[str, Any]:
    """The item's provenance, in the few fields an agent cites."""
    src = item.metadata.sources[0] if item.metadata.sources else None
    out: dict[str, Any] = {
        "id": item.id,
        "memory_type": item.metadata.memory_type,
        "key": item.metadata.key,
    }
    if src is not None:
        for field in ("kind", "path", "url", "filename", "page", "message_id", "role"):
            value = getattr(src, field, None)
            if value not in (None, ""):
                out[field] = value
    ids = [s.message_id for s in item.metadata.sources if s.message_id]
    if ids:
        out["message_ids"] = ids
    return out


def _superseded(item: Any) -> dict[str, Any]:
    """For an archived version: when and by what it was replaced."""
    m = item.metadata
    if m.status != "archived":
        return {}
    return {"archived": True, "superseded_at": m.superseded_at, "superseded_by": m.superseded_by}


def build_server(
    db: Path | None = None, *, allow_private_urls: bool = False, service: Any = None
) -> Any:
    """The MCP server over the store at ``db`` (stdio), or over a running ``serve``'s
    ``service`` (streamable HTTP): then it shares that server's Reader and Store, and each
    call acts as the user of the API key its HTTP request carried (see :mod:`.mcp_http`)."""
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from omnireader.errors import OmniReaderError

    state: dict[str, Any] = {}
    db_path = db or _DEFAULT_DB

    def reader() -> Any:
        if service is not None:
            return service.reader
        if "reader" not in state:
            from omnireader.reading.reader import Reader

            state["reader"] = Reader(allow_path_parts=False, allow_private_urls=allow_private_urls)
        return state["reader"]

    def store() -> Any:
        if service is not None:
            return service.store
        if "store" not in state:
            from omnireader.store import Store

            state["store"] = Store.open(db_path, create=True)
        return state["store"]

    def writes() -> Any:  # under serve, ingest defers index upkeep like the HTTP jobs
        return service.job_store if service is not None else store()

    def user(ctx: Any, asked: str | None) -> str | None:
        """The user a call acts as: over HTTP with keys, the key's user (asking for another
        is refused); over stdio, whatever the local client names."""
        if service is None:
            return asked
        request = getattr(ctx.request_context, "request", None)
        pinned = request.scope.get("state", {}).get("omnireader_user") if request else None
        try:
            return service.pinned(pinned, asked)
        except Exception as e:  # ForbiddenError: the client sees it as a tool error
            raise ToolError(f"forbidden: {e}") from None

    async def call(fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except OmniReaderError as e:
            raise ToolError(f"{type(e).__name__}: {' '.join(str(e).split())}") from None

    server = MCPServer(
        name="omnireader",
        version=__version__,
        # The SDK configures the root logger at this level: INFO would make a host process
        # (``serve``) log every HTTP request its libraries make.
        log_level="WARNING",
        instructions="Read files, chats and text into memory items, store them, and search "
        "them. Use search before answering questions about stored documents; "
        "cite the id, file and page of what you use.",
    )

    @server.tool(
        description="Read text, chat messages (OpenAI format) or one file (http(s) "
        "URL or base64) into memory items, without storing them. Returns the items' "
        "text and provenance, and what could not be read."
    )
    async def read(
        ctx: Context,
        text: str | None = None,
        messages: list[dict[str, Any]] | None = None,
        file_url: str | None = None,
        file_base64: str | None = None,
        filename: str | None = None,
    ) -> dict[str, Any]:
        info = {"user_id": user(ctx, None)}

        def run() -> dict[str, Any]:
            got = reader().read_report(
                _inputs(text, messages, file_url, file_base64, filename), info=info
            )
            return {
                "items": [{"memory": i.memory, **_where(i)} for i in got.items],
                "failures": [f.model_dump(mode="json") for f in got.failures],
            }

        return await call(run)

    @server.tool(
        description="Read the same inputs as `read` and store the items (upsert: "
        "the same content twice is stored once) under user_id / session_id. "
        "Returns counts and failures."
    )
    async def ingest(
        ctx: Context,
        text: str | None = None,
        messages: list[dict[str, Any]] | None = None,
        file_url: str | None = None,
        file_base64: str | None = None,
        filename: str | None = None,
        user_id: str | None = None,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        info = {"user_id": user(ctx, user_id), "session_id": session_id}

        def run() -> dict[str, Any]:
            inputs = _inputs(text, messages, file_url, file_base64, filename)
            report = ingest_batch(
                inputs, writes(), reader=reader(), info=info, options=IngestOptions(workers=1)
            )
            return {
                "inputs": report.inputs,
                "items_inserted": report.items_inserted,
                "items_updated": report.items_updated,
                "failures": [f.model_dump(mode="json") for f in report.failures],
            }

        return await call(run)

    @server.tool(
        description="Search stored items by meaning and keywords. Returns the best "
        "passages (text with context) and where each came from, keeping only as "
        "many as fit in max_chars characters together."
    )
    async def search(
        ctx: Context,
        query: str,
        k: int = 5,
        view: Literal["hybrid", "vector", "fts"] = "hybrid",
        max_chars: int = 4000,
        user_id: str | None = None,
        session_id: str | None = None,
        include_archived: bool = False,
    ) -> dict[str, Any]:
        who = user(ctx, user_id)

        def run() -> dict[str, Any]:
            if k < 1 or max_chars < 1:
                from omnireader.errors import InvalidInputError

                raise InvalidInputError("k and max_chars must be 1 or more")
            filters = {"user_id": who, "session_id": session_id}
            results = store().search(
                query,
                k=k,
                view=view,
                max_chars=max_chars,
                filters={a: b for a, b in filters.items() if b},
                include_archived=include_archived,
            )
            return {
                "results": [
                    {
                        "score": round(r.score, 4),
                        "text": r.text or r.item.memory,
                        **_where(r.item),
                        **_superseded(r.item),
                    }
                    for r in results
                ]
            }

        return await call(run)

    from omnireader.server.mcp_versions import add_version_tools

    add_version_tools(server, store, user, call, Context)

    @server.tool(description="Counts of what the store holds: items by type, mode and source.")
    async def stats(ctx: Context) -> dict[str, Any]:
        who = user(ctx, None)
        if service is not None:
            return await call(service.stats, who)
        return await call(lambda: store().stats().model_dump(mode="json"))

    return server


def run_stdio(db: Path | None, *, allow_private_urls: bool = False) -> None:
    build_server(db, allow_private_urls=allow_private_urls).run("stdio")
