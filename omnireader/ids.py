"""Deterministic ids and content hashes: reading the same input twice gives the same ids."""

from __future__ import annotations

import hashlib
import uuid

__all__ = ["content_hash", "item_id"]

_NAMESPACE = uuid.UUID("6f1d2c7e-3b0a-4c55-9a43-0d8f5e8b7a21")


def content_hash(data: bytes | str) -> str:
    """SHA-256 hex digest of bytes, or of a string's UTF-8 encoding."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def item_id(source_hash: str, *position: object, scope: str | None = None) -> str:
    """A stable UUID from a source's content hash, the item's position in it, and a scope.

    The scope (user and session) keeps two users who read the same file from sharing
    items; the position (mode, page, chunk, window...) tells the items of one source apart.
    """
    key = "|".join([scope or "", source_hash, *(str(p) for p in position)])
    return str(uuid.uuid5(_NAMESPACE, key))
