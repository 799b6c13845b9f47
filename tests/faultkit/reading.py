"""Read a case's inputs the way users do: in this process, or ingested into a fresh store.

``via="ingest"`` is the real batch path (worker processes under time and memory limits,
items written to LanceDB); what the case then checks is what the store holds.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from pydantic import BaseModel, Field

from omnireader import IngestOptions, MemoryItem, Reader, ReadFailure, ingest

from .harness import RunEnv

__all__ = ["Batch", "read_batch", "item_key", "failure_key"]

_counter = itertools.count()


class Batch(BaseModel):
    """What one read gave: every item (from the store, for an ingest) and every failure."""

    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    via: str = "reader"
    report: Any = None  # the IngestReport, for an ingest


def read_batch(
    env: RunEnv,
    inputs: Any,
    *,
    options: dict[str, Any] | None = None,
    via: str | None = None,
    **ingest_options: Any,
) -> Batch:
    """Read ``inputs`` with ``Reader(**options)``, by ``via`` (default: the env's)."""
    how = via or env.via
    reader = Reader(**(options or {}))
    if how == "reader":
        result = reader.read_report(inputs)
        return Batch(items=result.items, failures=result.failures, via="reader")
    from omnireader import Store  # a broken store or ingest fails the case: never a skip

    store = Store.open(env.tmp / f"store-{next(_counter)}")
    ingest_options.setdefault("workers", 2)
    report = ingest(inputs, store, reader=reader, options=IngestOptions(**ingest_options))
    return Batch(
        items=list(store.iter_items()), failures=report.failures, via="ingest", report=report
    )


def item_key(item: MemoryItem) -> str:
    """The input an item came from: its file (resolved), ``file!member`` for archives, its
    URL, or ``<kind>`` (``<chat>``, ``<string>``) for what came with no file."""
    src = item.metadata.sources[0] if item.metadata.sources else None
    if src is not None and not src.path and src.url:
        return src.url
    if src is None or not src.path:
        return f"<{src.kind if src else 'no source'}>"
    base = os.path.realpath(src.path)
    return f"{base}!{src.member}" if src.member else base


def failure_key(failure: ReadFailure) -> str:
    """The input a failure names, resolved like :func:`item_key`."""
    base, sep, member = failure.input.partition("!")
    if base.startswith("<") or "://" in base:
        return failure.input
    # realpath, not Path.resolve: the input may be a link loop, which resolve() raises on.
    resolved = os.path.realpath(base) if os.path.isabs(base) else base
    return f"{resolved}!{member}" if sep else resolved
