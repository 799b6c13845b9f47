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
from omnireader.reading.outcomes import ReadOutcome, read_fast
from omnireader.reading.pieces import PiecedRead

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
    piece's rows long before the writer has embedded and written it, and would wait. Not
    for a long text's pieces made as they are sent (:class:`.PiecedRead`): the worker makes
    their items too, and is then the slower of the two.
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
    a time while the rest are prepared (:func:`_read_in_pieces`); the result then holds only
    the summary and the failures.
    """
    from omnireader.formats.ocr import set_threads

    set_threads(ocr_threads)
    context = ParseContext.model_validate(ctx)
    if pieces is not None and can_send_parts():
        return _read_in_pieces(Path(path), context, embedder, schema, pieces)
    return _whole(read_fast(Path(path), context), embedder, schema)


def _whole(out: ReadOutcome, embedder: str | None, schema: Any) -> dict[str, Any]:
    """A file's result in one: its items (or their rows), failures and vectors."""
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


def _read_in_pieces(
    path: Path, context: ParseContext, embedder: str | None, schema: Any, pieces: Pieces
) -> dict[str, Any]:
    """Read a file new to the store, sending its items in pieces: as the parser makes them
    (a long plain text, :class:`.PiecedRead`), or once read when there are more than a
    piece holds. A file whose part failed after pieces were sent comes back as items, the
    part's failure with them: the ingest then takes the pieces back before writing them."""
    read = PiecedRead(path, context, pieces.rows, repair=False)  # _rows repairs when needed
    sender = _Sender(embedder, pieces)
    for items in read:
        # The worker made these items too: the writer embeds them all (with one worker).
        sender.send(items, share=False)
    out = read.outcome
    assert out is not None
    if read.undo:
        return {"items": out.items, "failures": out.failures, "vectors": None}
    if sender.sent or len(out.items) > pieces.rows:
        return sender.rest(out.items, out.failures)
    return _whole(out, embedder, schema)


class _Sender:
    """Sends items as pieces of rows (with their vectors when this worker embeds), each as
    soon as it is built: the writer embeds and writes one while the next is made, and the
    pickled items of the whole file never exist. Each piece's items are let go once sent."""

    def __init__(self, embedder: str | None, pieces: Pieces) -> None:
        self.embedder, self.pieces, self.sent = embedder, pieces, 0
        self.schema: Any = None  # read at the first piece: a short file needs no pyarrow
        self.summary = ItemSummary()

    def send(self, items: list[Any], count: bool = True, share: bool = True) -> None:
        import pyarrow as pa

        if self.schema is None:
            self.schema = pa.ipc.read_schema(pa.py_buffer(self.pieces.schema))
        if count:  # a long text's pieces hold no pages: their counts add up
            got = ItemSummary.of(items)
            self.summary.items += got.items
            self.summary.pages_ocr += got.pages_ocr
            self.summary.pages_unreadable += got.pages_unreadable
            for why, n in got.refine_reasons.items():
                self.summary.refine_reasons[why] = self.summary.refine_reasons.get(why, 0) + n
        rows = _rows(items, self.schema)  # first: it repairs what the vectors are made of
        vectors = None
        spec = self.embedder or (self.pieces.share if share and self.sent % 2 else None)
        if spec:
            vectors = _embedded(spec, items)
        send_part({"rows": rows, "vectors": vectors})
        self.sent += 1

    def rest(self, items: list[Any], failures: list[Any]) -> dict[str, Any]:
        """Send ``items`` too, a piece at a time; the file's last result."""
        whole = not self.sent  # all of it here: counted at once (a page in two pieces once)
        if whole:
            self.summary = ItemSummary.of(items)
        rest, size = list(items), self.pieces.rows
        items.clear()
        while rest:
            part, rest = rest[:size], rest[size:]
            self.send(part, count=not whole)
        return {
            "items": [],
            "summary": self.summary,
            "failures": failures,
            "vectors": None,
            "pieces": self.sent,
        }


def _rows(items: list[Any], schema: Any) -> bytes:
    """``items``' rows as IPC bytes. A piece comes unrepaired (:class:`.PiecedRead` with
    ``repair=False``): its rows encode every string of every item as UTF-8 (``item_json``
    all but the texts, which have columns of their own), so they fail exactly when an item
    holds a surrogate; only then are its items repaired (in place, as a read repairs them)
    and the rows made again. A piece without one is not serialised twice (~7 µs an item)."""
    from pydantic_core import PydanticSerializationError

    from omnireader.store.row_writes import rows_to_bytes
    from omnireader.store.schema import items_to_rows
    from omnireader.text.unicode_repair import repair_model

    try:
        table = items_to_rows(items, schema)
    except (UnicodeEncodeError, PydanticSerializationError):
        for item in items:
            repair_model(item)
        table = items_to_rows(items, schema)
    return rows_to_bytes(table)


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
