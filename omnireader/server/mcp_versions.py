"""The MCP tools for memories that change: ``update``, ``history`` and ``archive``.

Registered by :func:`.mcp_server.build_server` beside ``read`` / ``ingest`` / ``search`` /
``stats``, with its helpers: each call acts as the user its connection is pinned to, and
another user's item is as absent as a missing one.
"""

# No ``from __future__ import annotations``: the SDK reads the tools' annotations.

from typing import Any, Literal

__all__ = ["add_version_tools"]


def add_version_tools(server: Any, store: Any, user: Any, call: Any, context: Any) -> None:
    """Add the tools to ``server``; ``store()`` is the store, ``user(ctx, asked)`` the pinned
    user, ``call(fn)`` runs ``fn`` off the event loop, ``context`` is the SDK's Context."""

    def mine(items: list[Any], who: str | None) -> list[Any]:
        return [i for i in items if who is None or i.metadata.user_id == who]

    def version(item: Any) -> dict[str, Any]:
        m = item.metadata
        out = {"id": item.id, "memory": item.memory, "version": m.version, "status": m.status}
        for field in ("update_type", "updated_at", "superseded_by", "superseded_at"):
            if getattr(m, field) is not None:
                out[field] = getattr(m, field)
        return out

    @server.tool(
        description="Change a stored memory's text: the new version is current, the old one "
        "is kept in its history (see `history`). Use it when a fact you stored has changed."
    )
    async def update(ctx: context, item_id: str, memory: str) -> dict[str, Any]:  # type: ignore[valid-type]
        who = user(ctx, None)

        def run() -> dict[str, Any]:
            from omnireader.errors import ItemNotFoundError

            if not mine([i for i in [store().get(item_id)] if i is not None], who):
                raise ItemNotFoundError(f"no current item {item_id!r} to update")
            return version(store().update(item_id, memory=memory))

        return await call(run)

    @server.tool(
        description="Every version of a memory, oldest first (the current one last), with "
        "why each changed and what replaced it."
    )
    async def history(ctx: context, item_id: str) -> dict[str, Any]:  # type: ignore[valid-type]
        who = user(ctx, None)
        return await call(
            lambda: {"versions": [version(v) for v in mine(store().history(item_id), who)]}
        )

    @server.tool(
        description="Archive memories that are no longer true: they leave search results "
        "but stay in their history."
    )
    async def archive(
        ctx: context,  # type: ignore[valid-type]
        item_ids: list[str],
        reason: Literal["edit", "update", "conflict", "duplicate"] = "update",
        superseded_by: str | None = None,
    ) -> dict[str, Any]:
        who = user(ctx, None)

        def run() -> dict[str, Any]:
            ids = [i.id for i in mine(store().get_many(item_ids), who)]
            return {"archived": store().archive(ids, reason, superseded_by=superseded_by)}

        return await call(run)
