"""What each ``omnireader`` command does (the grammar is :mod:`omnireader.cli.parser`).

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
)
from omnireader.cli.settings import (
    db_path,
    info,
    lean_memory,
    open_store,
    read_inputs,
    reader_for,
    reading_mode,
    search_filters,
)
from omnireader.cli.store_commands import (
    cmd_delete,
    cmd_export,
    cmd_reembed,
    cmd_refine,
    cmd_schema,
    cmd_stats,
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


def cmd_serve(args: argparse.Namespace) -> int:
    from omnireader.cli.serve import cmd_serve as serve

    return serve(args)


def cmd_mcp(args: argparse.Namespace) -> int:
    from omnireader.cli.serve import cmd_mcp as mcp

    return mcp(args)
