"""What each ``omnireader`` command does (argument parsing lives in :mod:`omnireader.cli.main`).

Each ``cmd_*`` returns the exit status (see :mod:`omnireader.cli.values`); errors are raised
as typed :class:`~omnireader.errors.OmniReaderError` and printed as one line by the CLI.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from omnireader.cli.output import (
    document_markdown,
    output,
    plural,
    print_failures,
    print_models,
    render_item,
    say,
    stats_table,
)
from omnireader.cli.settings import (
    db_path,
    info,
    lean_memory,
    llm_backend,
    open_store,
    read_inputs,
    reader_for,
    reading_mode,
    search_filters,
)
from omnireader.cli.values import EXIT_FAILED, EXIT_OK
from omnireader.cli.versions import cmd_archive, cmd_history, cmd_rollback, cmd_update
from omnireader.errors import ConfigError

__all__ = [
    "cmd_read",
    "cmd_ingest",
    "cmd_search",
    "cmd_stats",
    "cmd_export",
    "cmd_delete",
    "cmd_update",
    "cmd_history",
    "cmd_archive",
    "cmd_rollback",
    "cmd_refine",
    "cmd_reembed",
    "cmd_schema",
    "cmd_serve",
    "cmd_mcp",
    "render_item",
]

# ------------------------------------------------------------------- commands


def cmd_read(args: argparse.Namespace) -> int:
    mode = reading_mode(args)
    reader = reader_for(args, mode)
    inputs = read_inputs(args.inputs)
    from collections import Counter

    from omnireader.reading.outcomes import left_fast_text, refine_counts

    n_items = n_inputs = n_fine = 0
    left_fast: Counter[str] = Counter()  # fine mode: items the LLM failed on, by reason
    failures = []
    items_json: list[dict[str, Any]] = []  # --format json prints one object at the end
    with output(args) as out:
        for got in reader.iter_read(inputs, info=info(args), mode=mode):
            n_inputs += 1
            failures.extend(got.failures)
            n_items += len(got.items)
            fine, left = refine_counts(got.items)
            n_fine += fine
            left_fast.update(left)
            if args.format == "text":
                for item in got.items:
                    print(render_item(item), file=out)
            elif args.format == "jsonl":
                for item in got.items:
                    print(item.model_dump_json(), file=out)
            elif args.format == "markdown" and got.items:
                if len(args.inputs) > 1 or n_inputs > 1:
                    print(f"<!-- {got.input} -->", file=out)
                print(document_markdown(got.items), file=out)
            else:
                items_json.extend(i.model_dump(mode="json") for i in got.items)
        if args.format == "json":
            data: dict[str, Any] = {
                "items": items_json,
                "failures": [f.model_dump() for f in failures],
            }
            if mode == "fine":
                data["refine"] = {
                    "fine_items": n_fine,
                    "left_fast": sum(left_fast.values()),
                    "reasons": dict(left_fast),
                }
            print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
    line = (
        f"read {plural(n_inputs, 'input')}: {plural(n_items, 'item')}, "
        f"{plural(len(failures), 'error')}"
    )
    if left_fast:
        # Fine mode was asked and some items stayed fast: say so, and fail the exit status.
        line += f"; {left_fast_text(n_fine, dict(left_fast))}"
    say(args, line)
    print_failures(args, failures)
    return EXIT_FAILED if failures or left_fast else EXIT_OK


def cmd_ingest(args: argparse.Namespace) -> int:
    if "lancedb" not in sys.modules:
        lean_memory()
    mode = reading_mode(args)
    if mode == "fast" and args.engine == "local":
        from omnireader.batch.file_task import prestart_workers

        # The workers' imports (~1 s) overlap opening the store (importing LanceDB: ~3 s).
        prestart_workers()
    reader = reader_for(args, mode)
    inputs = read_inputs(args.inputs)
    path, _ = db_path(args)
    existed = path.exists()
    store = open_store(args, embedder=args.embedder, create=True)
    from omnireader.batch.ingest import ingest
    from omnireader.options import IngestOptions

    try:
        report = ingest(
            inputs,
            store,
            reader=reader,
            info=info(args),
            mode=mode,
            options=IngestOptions(
                workers=args.workers,
                timeout=args.timeout,
                memory_mb=args.memory_mb,
                force=args.force,
                batch_size=args.batch_size,
                sync=args.sync,
                keep_history=args.keep_history,
                consolidate=args.consolidate,
                link_near_duplicates=args.link_near_duplicates,
                progress=not (args.quiet or args.no_progress),
                engine=args.engine,
                ray_address=args.ray_address,
                verbose=args.verbose,
            ),
        )
    finally:
        # Nothing is created when nothing could be read.
        if not existed and path.is_dir() and store.count() == 0:
            import shutil

            shutil.rmtree(path, ignore_errors=True)
    if args.report:
        try:
            args.report.write_text(report.model_dump_json(indent=2))
        except OSError as e:
            raise ConfigError(
                f"--report {str(args.report)!r}: cannot write there: {e.strerror or e}"
            ) from None
    if not args.quiet:
        print(report.summary())
        if not existed and not path.exists():
            print(f"nothing could be read, so no store was created at {path}")
    print_failures(args, report.failures)
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_search(args: argparse.Namespace) -> int:
    store = open_store(args)
    results = store.search(
        args.query,
        k=args.k,
        view=args.view,
        filters=search_filters(args),
        max_chars=args.max_chars,
        include_archived=args.include_archived,
    )
    with output(args) as out:
        if not print_models(results, args.format, out):
            if not results:
                say(args, f"no results for {args.query!r}")
            for r in results:
                # The passage (the hit with its context), whole when a budget was asked for.
                shown = r.item.model_copy(update={"memory": r.text or r.item.memory})
                print(
                    render_item(shown, width=10**9 if args.max_chars else 400, score=r.score),
                    file=out,
                )
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    stats = open_store(args).stats()
    with output(args) as out:
        if args.format == "json":
            print(stats.model_dump_json(indent=2), file=out)
        else:
            print(stats_table(stats), file=out)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    store = open_store(args)
    with output(args) as out:
        n = store.export_jsonl(out, filters=search_filters(args))
    if args.output:
        say(args, f"exported {plural(n, 'item')} to {args.output}")
    return EXIT_OK


def cmd_delete(args: argparse.Namespace) -> int:
    filters = search_filters(args)
    if filters.is_empty():
        raise ConfigError(
            "delete needs at least one filter (--path, --user, --session, --type, "
            "--mode, --since, --until, --person, --entity, --page); to empty a "
            "store, remove its directory"
        )
    store = open_store(args)
    result = store.delete_report(filters=filters, dry_run=args.dry_run)
    verb = "would delete" if args.dry_run else "deleted"
    text = f"{verb} {plural(result.deleted, 'item')}"
    if result.updated:
        kept = "would keep" if args.dry_run else "kept"
        text += (
            f"; {kept} {plural(result.updated, 'item')} without that path (the same "
            "content is still at another path)"
        )
    if not args.quiet:
        print(text)
    if result.deleted and not args.dry_run:
        store.optimize()
    return EXIT_OK


def cmd_refine(args: argparse.Namespace) -> int:
    from omnireader.batch.refine_store import refine_store

    if args.refine_mode is not None:
        raise ConfigError(
            f"refine does not take --mode {args.refine_mode!r}: it always turns "
            "fast items into fine ones; choose which with --user, --session, "
            "--type, --path, --since, --until, --person, --entity, --page"
        )
    store = open_store(args)
    report = refine_store(
        store,
        llm=llm_backend(args, required=True),
        filters=search_filters(args),
        limit=args.limit,
        force=args.force,
        progress=not (args.quiet or args.no_progress),
    )
    if not args.quiet:
        print(report.summary())
    return EXIT_FAILED if report.failed else EXIT_OK


def cmd_reembed(args: argparse.Namespace) -> int:
    from omnireader.batch.progress import Progress
    from omnireader.store.reembedding import reembed

    bar: Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total, label="items", enabled=not (args.quiet or args.no_progress))
        bar.update(done=done - bar.done)

    store = open_store(args)  # the same checks and messages as every store command
    report = reembed(store.path, args.embedder, progress=progress)
    if not args.quiet:
        if report.changed:
            print(
                f"re-embedded {plural(report.items, 'item')}: {report.before} -> "
                f"{report.after} ({report.dim} dimensions) in {report.seconds:.1f}s"
            )
        else:
            print(f"nothing to do: the store's embedder is already {report.after}")
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from omnireader.cli.serve import cmd_serve as serve

    return serve(args)


def cmd_mcp(args: argparse.Namespace) -> int:
    from omnireader.cli.serve import cmd_mcp as mcp

    return mcp(args)


def cmd_schema(args: argparse.Namespace) -> int:
    from omnireader.batch.report import IngestReport
    from omnireader.models import MemoryItem, ReadFailure
    from omnireader.store.results import SearchResult

    schemas = {
        "MemoryItem": MemoryItem.model_json_schema(),
        "SearchResult": SearchResult.model_json_schema(),
        "ReadFailure": ReadFailure.model_json_schema(),
        "IngestReport": IngestReport.model_json_schema(),
    }
    with output(args) as out:
        print(json.dumps(schemas, ensure_ascii=False, indent=2), file=out)
    return EXIT_OK
