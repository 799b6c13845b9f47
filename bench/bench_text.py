"""Plain text, end to end: one long line into a store, against reading and normalising it.

    python bench/bench_text.py [--quick] [--mb 50] [--repeat 3]

The file is the fault matrix's one-line text (words and punctuation, no newline, no sentence
end), so the chunker falls through every level to its token runs: the worst case for the
text path. Rounds alternate:

- the baseline: read the bytes, decode UTF-8, NFC-normalise, split into words (what any
  text pipeline does at least, at C speed);
- omnireader ingest, 1 worker, into a fresh store (decode, chunk, items, embed, write, and
  the final index optimize), end to end.

The ratio is ingest MB/s over baseline MB/s, round by round; the MB/s themselves are
information (the issue's target is ≥ 10 MB/s, an absolute figure that moves with the load).
The in-process stages of one pass (chunking, reading to items, embedding) are reported too,
so the benchmarks page says where the time goes.

Where the time goes (measured 2026-12-01 on a 10 MB line, 6,008 items, load average ~4 on
two cores, so every figure is ~2-3x an idle machine's): starting the worker pool ~3.5 s
(forkserver preloading pypdfium2, chonkie, numpy); in the worker, chunking ~1 s (it was ~8 s
when chonkie encoded the line token by token) and building the items ~1.5 s (pydantic
models, ids, ~0.25 ms an item); in the writer, embedding ~1.4 s (was ~4 s), Arrow rows
~0.7 s, ``merge_insert`` ~0.3 s; the final optimize (the full-text index over the new rows)
~1.8 s. Reaching 10 MB/s needs each of these cut several-fold: Arrow batches built in the
workers (no per-item pydantic in the writer), an embedder in compiled code, and items made
without a pydantic model each.

Since then (2026-12-01, issue 12, load average 6-20 on two cores, so only ratios hold):
the fork server imports chonkie without the OpenAI SDK (``omnireader.text.chonkie_import``; its
first start went from 12.4 s to 3.5 s at load ~6, and the worker's and fork server's peak
RSS fell by ~15 MB each) and is started at the top of an ingest; ids, timestamps, chonkie's
per-chunk objects and its token counting got cheaper. CPU seconds of each stage for this
10 MB line, in one process, main -> branch (min of 2 rounds): parse to items 2.36 -> 1.83,
pickling the items across (worker to writer) 0.84 -> 1.03 (unchanged code: noise), writer
(embed, Arrow rows, ``merge_insert``) 2.24 -> 2.18, final optimize (the full-text index over
the new rows) 1.84 -> 1.78. So the chain is now ~27% parse, ~15% hand-over, ~32% writer,
~26% optimize, run one after the other for a single file: 10 MB/s needs the hand-over gone
(Arrow batches from the worker), the writer's embedding in compiled code, and the index
refresh overlapped with writing (Lance's optimize runs in Rust, off the GIL).

Issue 12, text path (2026-12-02, load average 8-12 on two cores: CPU seconds from
``time.process_time``, old -> new, same conditions back to back, 10 MB inputs; the outputs are
pinned by ``tests/test_text_path_pinned.py``). Chunking runs on offsets
(``omnireader/text/chunk_split.py``: one marking of the text, token starts counted between
``chonkie_core``'s split offsets, no string or count per split); items are built in bulk
(``Parser.make_chunk_items``: pydantic's ``model_construct`` inspected every default factory
on every call, slower than validating); the embedder's ``words`` blanks non-word characters
with byte tables instead of a regex for non-ASCII text.

- this one line: chunk 0.87 -> 0.26, read to items (chunking included) 1.28 -> 0.77,
  embed 0.78 -> 0.82 (unchanged code path: ASCII words were already a table);
- French prose with short lines (Candide repeated, 4,422 items): chunk 2.12 -> 0.47,
  read to items 3.50 -> 0.97, embed 2.48 -> 1.75.

Issue 38 (2026-12-06, load ~3): since the static model became the default embedder, the
ingest embedded with it while ``stages`` timed the hashing one; its tokenizer was the biggest
stage (3.8 s of CPU for the 10 MB line, 50 MB ingest 1.3 MB/s). It now tokenizes each
space-separated word once (``omnireader/llm/word_tokens.py``, the same ids): 0.25 s for that
line, 50 MB at ~3.0 MB/s (4.7 on a quiet machine, 1.9 before); ``stages`` times the
default embedder.

Issue 38, stages overlapped (2026-12-06, helper-13, load 3-8 on two cores shared by three
agents: read ratios and CPU, not MB/s). A file new to the store with more items than the
batch size is handed to the writer in pieces of that many Arrow rows, built in the worker
(``batch/job_parts.py``, ``file_task._send_pieces``): no pickled items, and the writer embeds
and writes one piece (a ``merge_insert`` each) while the worker builds the next; with one
worker, the worker embeds every other piece. CPU seconds of each stage of this 50 MB line,
old chain -> new, in one process (``process_time``, min of 2 rounds, load ~8): read to items
2.30 (same code); hand-over 2.33 (pickle + unpickle) -> 0.60 (rows + IPC, in the worker);
embed 1.86 -> 2.12 (the same work, now split between worker and writer); write 1.62 (Arrow
rows + one ``merge_insert``) -> 1.14 (15 commits; the rows moved to the hand-over); final
optimize 2.03 -> 2.24 (15 fragments to compact). In all 10.1 -> 8.4 s, of which the 3.9 s of
hand-over, embedding and writing now run on both cores at once. End to end, a fresh process
each, alternating, both checkouts byte-compiled (``PYTHONDONTWRITEBYTECODE`` is set here: a
checkout without ``.pyc`` files recompiles in every worker), load 2-3: 13.5 / 18.2 s ->
11.9 / 13.1 s; CPU of the ingest process 8.5 / 8.3 -> 5.1 / 4.9 s, of the worker's parse
2.5 / 2.3 (its pickling not counted) -> 4.8 / 4.8 s. The store's rows (ids, texts, offsets,
metadata, vectors) are the same (``tests/batch/test_batch_pieces.py``); a 200-page PDF
folder is unchanged (1 worker 2.16 / 2.23 -> 2.15 / 2.22 s, 2 workers 1.69 / 1.74 ->
1.74 / 1.74 s; no file there has more items than a batch).

Session 14 (2026-12-07, helper-35; load 5-10 on two cores all session, so CPU seconds,
``process_time``, min of 2 rounds, base a2f7a64 -> branch back to back; the store's rows are
the same, every column). This 50 MB line: read to items 2.60 -> 2.01 (a text with no "#" and
no "|" skips the Markdown-structure pattern, 0.19 s; the chunker does not search for a
delimiter one of whose bytes the text lacks, ".\\n" or "\\n\\n" in a line without breaks,
0.35 s); write 1.34 -> 0.93 (a piece's stored locations in one query instead of three; rows
whose ids the store lacks appended instead of merged on ``id``); hand-over 1.28 / 1.07 and
embed 1.77 / 1.72 (same code); final optimize 2.72 / 2.74 (same). In all 9.72 -> 8.47 s.
Prose with short lines (Candide and four licences repeated to 20 MB, 9,291 items): 4.62 ->
4.59 (write 0.31 -> 0.23; nothing else applies). Ingest process CPU 5.35 / 5.21 / 5.13 ->
4.81 / 4.81 / 4.86 s, worker 4.59 / 4.83 / 4.54 -> 4.35 / 4.31 / 4.43 s (alternating runs);
their walls (18.6-23.6 s at load 7-10) say nothing. Estimated on a quiet machine (where a
stage's wall is about its CPU here: base 8.0 s by this sum, 6.4 MB/s measured): ~7 s, ~7 MB/s.

Session 15 (helper-40, load 5-13, CPU, base 06c36f5 -> branch alternating): the default
embedder's word lookup and pooling compiled (``llm/_embed_loops.c``): this line's embed stage
2.05-2.63 -> 0.65-0.89 s (~75 -> ~25 us an item); the other stages are the same code. The
floor below becomes ~6.4 s (~7.8 MB/s) on a quiet machine.

What stops 10 MB/s now (a quiet two-core machine, from the CPU above): starting ~0.5 s,
then reading the file to items ~2.0 s in the worker while the writer has nothing to
do (the items come from one pass over the whole text: a chunk's language may come from the
document's majority, so no item is final before the last is made; of it: chunking 0.8, of
which chonkie_core's pause- and space-level splits of the whole line 0.28, each giving one
split; items 0.6, pydantic-free models ~20 us an item; the surrogate check 0.19), then the
pieces ~1.9 s on both cores (worker: rows 1.0, half the embedding 0.9; writer: the other
half 0.9, writes 0.9), then the final optimize ~2.6 s on one core (three quarters the
full-text index over ``memory``, ICU and stemming, single-threaded in Lance): ~7 s. 10 MB/s
(5 s) needs both single-core phases overlapped: items made and sent a piece at a time (the
chunks' languages in a first pass; ~1 s of items, the surrogate check and rows would then run
while the writer embeds), and the index built while the pieces are written (an optimize after
2/3 of the 20 MB prose's pieces cut the final one from 2.0 to 1.1 s wall, but cost 1.8 s
itself, and Lance's optimize also compacts the fragments each time).

Session 16 (helper-46, load 11-21, CPU, base 48f2eb3 -> branch alternating): the first lever
above. A plain text of one unstructured section comes from the parser a piece at a time
(``parsers/doc_pieces.py``, ``reading/pieces.py``): chunked, the chunks' languages settled
in a first pass, then items, finish and rows piece by piece; with one worker the writer
embeds them all. This line: the worker's read before the first piece leaves 2.4-3.6 ->
1.7-1.9 s CPU (the other 1.1-1.3 s now run beside the writer); first piece 10.0 -> 4.7 s
after the job starts, worker CPU 4.8 -> 3.6 s (medians of 4 ingests each). The pieces phase
is now the worker's (items + finish + rows ~1.9 s idle against the writer's ~1.55), so an
index built midway has no core to run on; the floor is ~6.2 s (~8 MB/s): start 0.5, worker
before the first piece 1.2, pieces 1.9, optimize 2.6 (notes/2026-12-07/s16-text.md).

Session 18 (helper-58, load 2-32; notes/2026-12-07/s18-text.md): the final optimize of this
line is ~1.85 s the ``memory`` full-text index, ~0.38 compaction and scalar indexes, ~0.23 the
vector index, ~0.17 the other full-text indexes (``context_text`` is empty here). Lance 13
updates a full-text index by adding a partition for the new rows only (an optimize after 13 of
15 pieces left the final one 0.35 s instead of 2.5), so the index could be built while the
pieces are written, but the store then ends with two partitions (and, midway, more
fragments): the same scores, another choice among tied ones; not done. The chunker skips a
level ``chonkie_core`` gives back whole (every piece after the first under ``min_chars``,
found by a compiled scan): this line's chunking 0.71 -> 0.55 s of CPU, the same chunks.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

from _util import OUT, ROOT, at_least, interleaved, ratios, row, seconds, spread, table

from omnireader import IngestOptions
from omnireader import ingest as ingest_batch

VS_BASELINE = 0.25  # ingest MB/s / (read + decode + NFC + split) MB/s: 10 MB/s at 40 MB/s
TARGET_MB_S = 10.0  # the absolute figure, information only


def _write_line(path: Path, mb: int) -> Path:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.support.text_files import write_one_line_text

    if not path.exists() or path.stat().st_size != mb << 20:
        write_one_line_text(path, mb << 20)
    return path


def baseline(path: Path) -> int:
    """Read, decode, normalise, split: the floor of any text path."""
    return len(unicodedata.normalize("NFC", path.read_bytes().decode("utf-8")).split())


def ingest(path: Path) -> Any:
    from omnireader import Store

    db = Path(tempfile.mkdtemp(prefix="omni-bench-text-")) / "store.lance"
    try:
        report = ingest_batch([path], Store.open(db), options=IngestOptions(workers=1))
        if report.failures:
            raise RuntimeError(f"the text file was not ingested: {report.failures}")
        return report
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def stages(path: Path, piece: int = 2048) -> dict[str, float]:
    """Seconds of each stage of one pass, one after the other in this process: the work an
    ingest of one file does (worker: decode, chunk, items, then each piece's Arrow rows and
    their hand-over; writer: embed, write each piece; then the final optimize). ``chunk`` is
    part of ``read_to_items``. In the ingest the pieces' stages overlap (the worker builds
    the next piece while the writer embeds and writes one), so these add up to more than
    its time: see ``share_of_ingest``."""
    from omnireader import Reader, Store
    from omnireader.formats.plain.text import decode_text
    from omnireader.llm.embedding import make_embedder
    from omnireader.reading.outcomes import read_fast
    from omnireader.store.row_writes import rows_from_bytes, rows_to_bytes
    from omnireader.store.schema import items_to_rows
    from omnireader.text.chunking import chunk_text
    from omnireader.units import match_text

    out: dict[str, float] = {}
    t = time.perf_counter()
    text = decode_text(path.read_bytes(), path.name)
    out["decode"] = time.perf_counter() - t
    t = time.perf_counter()
    chunk_text(text)
    out["chunk"] = time.perf_counter() - t
    del text
    reader = Reader()
    t = time.perf_counter()
    got = read_fast(path, reader.context(None, "fast"))
    out["read_to_items"] = time.perf_counter() - t
    items = got.items
    db = Path(tempfile.mkdtemp(prefix="omni-bench-text-")) / "store.lance"
    try:
        store = Store.open(db)
        schema = store.table.schema
        t = time.perf_counter()
        # worker -> writer, as the pool hands a big file over: pieces of Arrow rows
        pieces = [
            rows_from_bytes(rows_to_bytes(items_to_rows(items[n : n + piece], schema)))
            for n in range(0, len(items), piece)
        ]
        out["hand_over"] = time.perf_counter() - t
        t = time.perf_counter()
        vectors = make_embedder(None).embed([match_text(i) for i in items])  # the default
        out["embed"] = time.perf_counter() - t
        t = time.perf_counter()
        for n, rows in enumerate(pieces):  # Arrow rows + merge_insert, a commit a piece
            store.add_rows(rows, vectors[n * piece : (n + 1) * piece], refresh=False)
        out["write"] = time.perf_counter() - t
        t = time.perf_counter()
        store.optimize()
        out["optimize"] = time.perf_counter() - t  # the index refresh at the end of an ingest
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)
    out["items"] = len(items)
    return out


# The stages an end-to-end ingest runs one after the other (chunk is inside read_to_items).
CHAIN = ("decode", "read_to_items", "hand_over", "embed", "write", "optimize")


def where_time_goes(parts: dict[str, float], ingest_s: float) -> dict[str, float]:
    """Each chained stage's time as a share of the end-to-end ingest's. A big file's pieces
    overlap (hand-over, embed and write run on both cores at once), so the shares may add up
    to more than 1: ``overlapped`` is by how much; ``other`` is what the stages do not
    explain (starting the worker pool, queues, ledger) when they add up to less."""
    chained = sum(parts[k] for k in CHAIN)
    shares = {k: parts[k] / ingest_s for k in CHAIN}
    shares["other"] = max(0.0, ingest_s - chained) / ingest_s
    shares["overlapped"] = max(0.0, chained - ingest_s) / ingest_s
    return shares


def run(quick: bool = False, mb: int | None = None, repeat: int | None = None) -> dict[str, Any]:
    mb = mb or (10 if quick else 50)
    repeat = repeat or (2 if quick else 3)
    path = _write_line(OUT / f"one_line_{mb}mb.txt", mb)
    import chonkie  # noqa: F401 - a one-off import, not a per-MB cost
    import lancedb  # noqa: F401

    baseline(path)  # warm the page cache
    got = interleaved(
        {"baseline": seconds(lambda: baseline(path)), "ingest": seconds(lambda: ingest(path))},
        repeat=repeat,
    )
    mbps = {k: [mb / s for s in v] for k, v in got.items()}
    parts = stages(path)
    ingest_s = spread(got["ingest"])["median"]
    res: dict[str, Any] = {
        "mb": mb,
        "repeat": repeat,
        "mb_per_s": {k: spread(v) for k, v in mbps.items()},
        "ratio_vs_baseline": spread(ratios(got["baseline"], got["ingest"])),
        "stages_mb_per_s": {k: mb / v for k, v in parts.items() if k != "items" and v > 0},
        "stage_seconds": {k: v for k, v in parts.items() if k != "items"},
        "share_of_ingest": where_time_goes(parts, ingest_s),
        "items": parts["items"],
    }
    m = res["mb_per_s"]
    print(
        table(
            ["measure", "MB/s", "ratio", "target"],
            [
                ["read + decode + NFC + split (baseline)", m["baseline"], 1.0, ""],
                [
                    "omnireader ingest, 1 worker, end to end",
                    m["ingest"],
                    res["ratio_vs_baseline"],
                    f"≥ {VS_BASELINE}× baseline (≥ {TARGET_MB_S:g} MB/s)",
                ],
                *[[f"  stage: {k}", v, "", ""] for k, v in res["stages_mb_per_s"].items()],
            ],
        )
    )
    print(
        f"one {mb} MB line, {res['items']} items, {repeat} rounds; share of the ingest: "
        + ", ".join(f"{k} {v:.0%}" for k, v in res["share_of_ingest"].items())
    )
    return res


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    t = "Ingest"
    mb = result["mb"]
    r = result["ratio_vs_baseline"]
    stages_ = ", ".join(
        f"{k.replace('_', ' ')} {v:.0f}" for k, v in result["stages_mb_per_s"].items()
    )
    shares = result.get("share_of_ingest")
    where = (
        "; where the ingest's time goes (stages run alone, share of its median): "
        + ", ".join(f"{k.replace('_', ' ')} {v:.0%}" for k, v in shares.items())
        + _needed(result)
        if shares and result["mb_per_s"]["ingest"]["median"] < TARGET_MB_S
        else ""
    )
    return [
        row(
            t,
            f"one {mb} MB text line, ingest end to end (1 worker) / read + decode + NFC + "
            "split of it",
            r,
            f"≥ {VS_BASELINE}×",
            at_least(r, VS_BASELINE),
            unit="×",
        ),
        row(
            t,
            "the same, ingest MB/s",
            result["mb_per_s"]["ingest"],
            f"≥ {TARGET_MB_S:g} MB/s (information: absolute)",
            None,
            unit=" MB/s",
            digits=1,
            note=f"baseline {result['mb_per_s']['baseline']['median']:.0f} MB/s; "
            f"stages in MB/s: {stages_}{where}",
        ),
    ]


def _needed(result: dict[str, Any]) -> str:
    """What the absolute target asks of the chain, from the stages' own rates."""
    stages = result["stages_mb_per_s"]
    chain = sum(1 / stages[k] for k in result["share_of_ingest"] if k in stages)
    return (
        f"; needed: {TARGET_MB_S:g} MB/s is {1 / TARGET_MB_S:.2f} s a MB for the whole chain, "
        f"and its stages alone take {chain:.2f} s a MB one after another: each ~"
        f"{chain * TARGET_MB_S:.0f}× faster, or the stages overlapped on more cores"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a 10 MB line, 2 rounds")
    ap.add_argument("--mb", type=int)
    ap.add_argument("--repeat", type=int, help="interleaved rounds")
    a = ap.parse_args()
    run(a.quick, a.mb, a.repeat)
