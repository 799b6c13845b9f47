"""What a worker does with one file of a batch: read it, and embed its items when the
embedder runs locally.

The local worker pool and the Ray engine call the same :func:`parse_file`, so a file gives
the same items whichever runs it. Workers are forked from a server that has imported
:data:`PRELOAD` once (see :func:`.workers.prestart`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from omnireader.batch.job_parts import can_send_parts, send_part
from omnireader.batch.report import ItemSummary
from omnireader.batch.workers import prestart
from omnireader.parsers.base import ParseContext
from omnireader.reading.outcomes import read_fast

__all__ = ["parse_file", "Pieces", "local_embedder", "prestart_workers", "PRELOAD"]

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
    # What a PDF's first job imports otherwise, in every worker (~65 ms): the layout, the
    # language model's code, the embedder's tokenizer (the workers embed when there are two).
    "omnireader.formats.pdf.extract",
    "omnireader.formats.layout.stream",
    "omnireader.formats.layout.tables",
    "py3langid.langid",
    "tokenizers",
)

_EMBEDDERS: dict[str, Any] = {}


class Pieces(NamedTuple):
    """How a file with many items is handed over: ``rows`` items a piece, as rows of the
    store's ``schema`` (Arrow IPC bytes: the worker imports pyarrow only when it uses it).

    ``share``: a local embedder this worker embeds every other piece with (the second, the
    fourth...), when the writer embeds the rest: with one worker, the worker is done with a
    piece's rows long before the writer has embedded and written it, and would wait.
    """

    rows: int
    schema: bytes
    share: str | None = None


def parse_file(
    path: str,
    ctx: dict[str, Any],
    embedder: str | None,
    ocr_threads: int | None = None,
    schema: Any = None,
    pieces: Pieces | None = None,
) -> dict[str, Any]:
    """Read one file (and embed its items when ``embedder`` names a local one).

    With the store's ``schema``, the items come back as their rows (every column but the
    vector) and a summary for the report: the writer then only adds vectors and upserts.
    Per page (bench/profile_writer.py): the rows cost a worker ~0.1 ms more than pickling
    the items, and save the writer ~0.3 ms (unpickling the items, building the rows).

    With ``pieces``, a file of more items than a piece holds is sent to the pool a piece at
    a time while the rest are prepared (:func:`_send_pieces`); the result then holds only
    the summary and the failures.
    """
    from omnireader.formats.ocr import set_threads

    set_threads(ocr_threads)
    context = ParseContext.model_validate(ctx)
    out = read_fast(Path(path), context)
    if pieces is not None and len(out.items) > pieces.rows and can_send_parts():
        return _send_pieces(out.items, out.failures, embedder, pieces)
    vectors = None
    if embedder and out.items:
        vectors = _embedded(embedder, out.items)
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


def _send_pieces(
    items: list[Any], failures: list[Any], embedder: str | None, pieces: Pieces
) -> dict[str, Any]:
    """Send ``items`` as pieces of rows (with their vectors when this worker embeds), each
    as soon as it is built: the writer embeds and writes one while the next is made, and the
    pickled items of the whole file never exist. Each piece's items are let go once sent."""
    import pyarrow as pa

    from omnireader.store.row_writes import rows_to_bytes
    from omnireader.store.schema import items_to_rows

    schema = pa.ipc.read_schema(pa.py_buffer(pieces.schema))
    summary = ItemSummary.of(items)
    rest, sent = list(items), 0
    items.clear()
    while rest:
        part, rest = rest[: pieces.rows], rest[pieces.rows :]
        vectors = None
        spec = embedder or (pieces.share if sent % 2 else None)
        if spec:
            vectors = _embedded(spec, part)
        send_part({"rows": rows_to_bytes(items_to_rows(part, schema)), "vectors": vectors})
        sent += 1
    return {"items": [], "summary": summary, "failures": failures, "vectors": None, "pieces": sent}


def _embedded(spec: str, items: list[Any]) -> Any:
    """``items``' vectors by the embedder ``spec`` names (the texts the store embeds)."""
    from omnireader.store.embed_text import item_texts

    embedder = local_embedder(spec)
    return embedder.embed(item_texts(items, embedder))


def local_embedder(spec: str) -> Any:
    """One embedder per spec and process (a worker embeds many files with it)."""
    if spec not in _EMBEDDERS:
        from omnireader.llm.embedding import make_embedder

        _EMBEDDERS[spec] = make_embedder(spec)
    return _EMBEDDERS[spec]


def prestart_workers() -> None:
    """Start the workers' fork server early (see :func:`.workers.prestart`); fast mode only."""
    prestart(parse_file, PRELOAD)
