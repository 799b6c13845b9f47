"""Versions over HTTP: update an item, read its history, archive items, roll one back.

The caller's key pins its user as everywhere else: another user's item is as absent (404)
as a missing one, and archiving it is refused the same way.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Depends, FastAPI
from pydantic import BaseModel, ConfigDict, Field

from omnireader.server.auth import Caller

__all__ = ["add_version_routes", "UpdateRequest", "ArchiveRequest", "RollbackRequest"]

Reason = Literal["edit", "duplicate", "update", "conflict", "source_changed"]


class UpdateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    memory: str | None = Field(None, min_length=1, description="the new text (omit: keep it)")
    metadata: dict[str, Any] | None = Field(
        None, description="metadata fields to change (user_id cannot be changed)"
    )


class ArchiveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ids: list[str] = Field(..., min_length=1, max_length=1000)
    reason: Reason = "edit"
    superseded_by: str | None = None


class RollbackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(..., ge=1)


def add_version_routes(app: FastAPI, service: Any, caller: Any, problem: Any) -> None:
    def owned(item_id: str, who: Caller) -> None:
        if service().item(who.user_id, item_id) is None:
            raise problem(404, "not_found", f"no item {item_id!r}")

    def mine(versions: list[Any], who: Caller) -> list[Any]:
        return [v for v in versions if who.user_id is None or v.metadata.user_id == who.user_id]

    @app.patch("/v1/items/{item_id}", tags=["store"])
    def update_item(item_id: str, body: UpdateRequest, who: Caller = Depends(caller)) -> Any:
        """A new current version of the item (version + 1); the previous one stays in its
        history."""
        owned(item_id, who)
        if body.memory is None and not body.metadata:
            raise problem(400, "InvalidInputError", "give memory and/or metadata to change")
        changes = {k: v for k, v in (body.metadata or {}).items() if k != "user_id"}
        item = service().store.update(item_id, memory=body.memory, metadata=changes)
        return item.model_dump(mode="json")

    @app.get("/v1/items/{item_id}/history", tags=["store"])
    def item_history(item_id: str, who: Caller = Depends(caller)) -> Any:
        """Every version of the item, oldest first (the current one last), each with its
        ``version``, ``update_type`` and, once replaced, ``superseded_at`` / ``superseded_by``."""
        versions = mine(service().store.history(item_id), who)
        if not versions:
            raise problem(404, "not_found", f"no item or history for {item_id!r}")
        return {"versions": [v.model_dump(mode="json") for v in versions]}

    @app.post("/v1/items/archive", tags=["store"])
    def archive_items(body: ArchiveRequest, who: Caller = Depends(caller)) -> Any:
        """Archive the caller's items: out of default searches, kept in their history."""
        store = service().store
        ids = [i.id for i in mine(store.get_many(body.ids), who)]
        n = store.archive(ids, body.reason, superseded_by=body.superseded_by)
        return {"archived": n}

    @app.post("/v1/items/{item_id}/rollback", tags=["store"])
    def rollback_item(item_id: str, body: RollbackRequest, who: Caller = Depends(caller)) -> Any:
        """Make an older version of the item current again (as a new version)."""
        if not mine(service().store.history(item_id), who):
            raise problem(404, "not_found", f"no item or history for {item_id!r}")
        return service().store.rollback(item_id, body.version).model_dump(mode="json")
