"""Where the ingest writer's time goes, per page, stage by stage (a profile, not a benchmark).

    python bench/profile_writer.py [--files 40] [--pages 20] [--batch 2048] [--cprofile]

The PDFs of bench_ingest are parsed first, in this process (the parser's cost is not the
writer's), and their results pickled as a worker hands them over (the items' Arrow rows and
a summary). Then the writer's work is replayed stage by stage, batch by batch, on a fresh
store, each stage timed in CPU seconds of this process (LanceDB's runtime threads included):

- ``receive``: unpickling one file's result (what the ingest process does per file);
- ``account``: the report's bookkeeping per file;
- ``embed``: the default embedder over the rows' match texts (with one worker the writer
  embeds; with two the workers do);
- ``locations``: looking up the stored locations of the batch's ids (merging any);
- ``rows (vectors added)``: the vector column put beside the workers' columns;
- ``merge_insert (or append)``: LanceDB's upsert of the table (an append when no id is
  stored, as ``Store.add_rows`` does);
- ``ledger``: recording the files as done;
- ``optimize``: the end-of-ingest index fold (once, not per page; process CPU, Lance's
  threads included).

``--cprofile`` also prints the top functions of the whole replay.
"""

from __future__ import annotations

import argparse
import pickle
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from _util import OUT
from make_corpus import make_pdf_folder


def parse_all(paths: list[Path], schema: Any) -> tuple[list[tuple[str, bytes]], dict[str, float]]:
    """(path, pickled worker result) per file, parsed here with OCR off, as the workers
    return them (rows built for ``schema``); and the CPU seconds of the worker's part that
    is the writer's business: building the rows and pickling the result, against pickling
    the items themselves (what the workers sent before)."""
    from omnireader import Reader
    from omnireader.batch.file_task import parse_file
    from omnireader.batch.report import ItemSummary
    from omnireader.store.schema import items_to_rows

    reader = Reader(ocr="off")
    ctx = reader.context(None, "fast").model_dump(exclude={"refiner"})
    out, cost = [], {"worker: rows + pickle": 0.0, "worker: pickle items (before)": 0.0}
    for p in paths:
        got = parse_file(str(p.resolve()), ctx, None)
        c = time.process_time()
        pickle.dumps(got, protocol=pickle.HIGHEST_PROTOCOL)
        cost["worker: pickle items (before)"] += time.process_time() - c
        c = time.process_time()
        res = {
            "rows": items_to_rows(got["items"], schema),
            "summary": ItemSummary.of(got["items"]),
            "failures": got["failures"],
            "vectors": None,
        }  # what parse_file returns given the schema
        blob = pickle.dumps(res, protocol=pickle.HIGHEST_PROTOCOL)
        cost["worker: rows + pickle"] += time.process_time() - c
        out.append((str(p.resolve()), blob))
    return out, cost


def replay(results: list[tuple[str, bytes]], batch_size: int) -> tuple[dict[str, float], int]:
    """CPU seconds per stage of writing ``results`` into a fresh store, as BatchWriter does."""
    import pyarrow as pa

    from omnireader import Reader, Store
    from omnireader.batch.ingest import settings_key
    from omnireader.batch.report import IngestReport
    from omnireader.store.embed_text import row_texts
    from omnireader.store.maintenance import retry_conflicts
    from omnireader.store.row_writes import unique_rows
    from omnireader.store.schema import with_vectors

    db = Path(tempfile.mkdtemp(prefix="omni-prof-")) / "store.lance"
    t: dict[str, float] = defaultdict(float)
    # Process CPU: LanceDB writes on its own runtime threads, which thread time would miss
    # (nothing else runs in this process meanwhile).
    clock = time.process_time
    try:
        store = Store.open(db)
        reader = Reader(ocr="off")
        ctx = reader.context(None, "fast")
        ledger = store.ledger(
            scope=f"{ctx.scope}/fast", settings=settings_key(ctx, store.embedder.name)
        )
        report = IngestReport(store=str(db), mode="fast")
        pending: list[tuple[str, Any]] = []
        n_items = 0

        def flush() -> None:
            c = clock()
            rows = pa.concat_tables([r for _, r in pending])
            vectors = store.embedder.embed(row_texts(rows, store.embedder))
            t["embed"] += clock() - c
            c = clock()
            unique, vecs, new = unique_rows(store.table, rows, vectors)
            t["locations"] += clock() - c
            c = clock()
            data = with_vectors(unique, vecs, store.table.schema)
            t["rows (vectors added)"] += clock() - c
            c = clock()
            if new:  # as the store writes: ids it lacks are appended, others merged
                retry_conflicts(lambda: store.table.add(data), "add")
            else:
                retry_conflicts(
                    lambda: (
                        store.table.merge_insert("id")
                        .when_matched_update_all()
                        .when_not_matched_insert_all()
                        .execute(data)
                    ),
                    "add",
                )
            t["merge_insert (or append)"] += clock() - c
            c = clock()
            ledger.record([(p, "0" * 64, []) for p, _ in pending])
            t["ledger"] += clock() - c
            pending.clear()

        buffered = 0
        for path, blob in results:
            c = clock()
            res = pickle.loads(blob)
            t["receive"] += clock() - c
            c = clock()
            report.account(res["summary"], res["failures"])
            t["account"] += clock() - c
            pending.append((path, res["rows"]))
            buffered += res["rows"].num_rows
            n_items += res["rows"].num_rows
            if buffered >= batch_size:
                flush()
                buffered = 0
        if pending:
            flush()
        c = clock()
        store.optimize()
        t["optimize (CPU, once)"] += clock() - c
        return dict(t), n_items
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cprofile", action="store_true")
    a = ap.parse_args()
    paths = make_pdf_folder(OUT / f"pdfs_{a.files}x{a.pages}", files=a.files, pages=a.pages)
    pages = a.files * a.pages
    from omnireader.llm.embedding import make_embedder
    from omnireader.store.schema import items_schema

    emb = make_embedder(None)
    results, worker = parse_all(paths, items_schema(emb.dim, emb.name))
    size = sum(len(b) for _, b in results)
    replay(results[:2], a.batch)  # warm-up: imports, LanceDB runtime
    runs = []
    for _ in range(a.repeat):
        if a.cprofile and not runs:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            runs.append(replay(results, a.batch))
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        else:
            runs.append(replay(results, a.batch))
    n_items = runs[0][1]
    print(
        f"{pages} pages, {n_items} items ({n_items / pages:.2f}/page), "
        f"{size / n_items:.0f} pickled bytes/item, batch {a.batch}, {a.repeat} runs"
    )
    print(f"{'stage':24} {'ms/page (median of runs)':>26} {'range':>16}")
    total = []
    for stage in runs[0][0]:
        vals = sorted(r[0][stage] * 1000 / pages for r in runs)
        med = vals[len(vals) // 2]
        if not stage.startswith("optimize"):
            total.append(med)
        print(f"{stage:24} {med:26.3f} {vals[0]:8.3f}-{vals[-1]:.3f}")
    print(f"{'total per page (excl. optimize)':32} {sum(total):18.3f}")
    for stage, sec in worker.items():
        print(f"{stage:32} {sec * 1000 / pages:18.3f}  (once)")


if __name__ == "__main__":
    main()
