"""Store fixtures: a fresh LanceDB store in tmp_path, and a small factory for items."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.store import Store

MakeItem = Callable[..., MemoryItem]


def make_item(
    item_id: str,
    text: str,
    *,
    path: str | None = None,
    page: int | None = None,
    content_hash: str | None = None,
    kind: str = "file",
    chat_time: str | None = None,
    **metadata: Any,
) -> MemoryItem:
    """An item with one source; metadata keywords go straight to MemoryMetadata."""
    source = Source(
        kind=kind,
        path=path,
        page=page,
        content_hash=content_hash,  # type: ignore[arg-type]
        chat_time=chat_time,
    )
    return MemoryItem(
        id=item_id, memory=text, metadata=MemoryMetadata(sources=[source], **metadata)
    )


@pytest.fixture
def item() -> MakeItem:
    return make_item


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "store.lance")
