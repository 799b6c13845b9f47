"""What a worker does with one file of a batch: read it, and embed its items when the
embedder runs locally.

The local worker pool and the Ray engine call the same :func:`parse_file`, so a file gives
the same items whichever runs it. Workers are forked from a server that has imported
:data:`PRELOAD` once (see :func:`.workers.prestart`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omnireader.batch.report import ItemSummary
from omnireader.batch.workers import prestart
from omnireader.parsers.base import ParseContext
from omnireader.reading.outcomes import read_fast
from omnireader.units import match_text

__all__ = ["parse_file", "local_embedder", "prestart_workers", "PRELOAD"]

# Imported once by the server the workers fork from, not by each worker.
# chonkie through omnireader.text.chonkie_import: without the OpenAI SDK it would load (~1 s).
PRELOAD = (
    "omnireader.batch.file_task",
    "omnireader.intake.router",
    "pypdfium2",
    "pypdf",
    "omnireader.text.chonkie_import",
    "numpy",
    "omnireader.llm.embed_hashing",
    "omnireader.llm.embed_static",
)

_EMBEDDERS: dict[str, Any] = {}


def parse_file(
    path: str,
    ctx: dict[str, Any],
    embedder: str | None,
    ocr_threads: int | None = None,
    schema: Any = None,
) -> dict[str, Any]:
    """Read one file (and embed its items when ``embedder`` names a local one).

    With the store's ``schema``, the items come back as their rows (every column but the
    vector) and a summary for the report: the writer then only adds vectors and upserts.
    Per page (bench/profile_writer.py): the rows cost a worker ~0.1 ms more than pickling
    the items, and save the writer ~0.3 ms (unpickling the items, building the rows).
    """
    from omnireader.formats.ocr import set_threads

    set_threads(ocr_threads)
    context = ParseContext.model_validate(ctx)
    out = read_fast(Path(path), context)
    vectors = None
    if embedder and out.items:
        vectors = local_embedder(embedder).embed([match_text(i) for i in out.items])
    if schema is not None:
        from omnireader.store.row_writes import rows_to_bytes
        from omnireader.store.schema import items_to_rows

        return {
            "rows": rows_to_bytes(items_to_rows(out.items, schema)),
            "summary": ItemSummary.of(out.items),
            "failures": out.failures,
            "vectors": vectors,
        }
    # The models themselves: pickling them is ~3x cheaper than dumping them to dicts here
    # and validating the dicts again in the writer's process (no field changes on the way).
    return {"items": out.items, "failures": out.failures, "vectors": vectors}


def local_embedder(spec: str) -> Any:
    """One embedder per spec and process (a worker embeds many files with it)."""
    if spec not in _EMBEDDERS:
        from omnireader.llm.embedding import make_embedder

        _EMBEDDERS[spec] = make_embedder(spec)
    return _EMBEDDERS[spec]


def prestart_workers() -> None:
    """Start the workers' fork server early (see :func:`.workers.prestart`); fast mode only."""
    prestart(parse_file, PRELOAD)
