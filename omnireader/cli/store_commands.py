"""The commands that work on a store already made: ``stats``, ``export``, ``delete``,
``refine`` (fast items made fine), ``reembed`` (another embedder), and ``schema`` (the output
contract). Reading and searching are in :mod:`omnireader.cli.commands`, which re-exports these.
"""

from __future__ import annotations

import argparse
import json

from omnireader.cli.output import output, plural, say, stats_table
from omnireader.cli.settings import llm_backend, open_store, search_filters
from omnireader.cli.values import EXIT_FAILED, EXIT_OK
from omnireader.errors import ConfigError

__all__ = ["cmd_stats", "cmd_export", "cmd_delete", "cmd_refine", "cmd_reembed", "cmd_schema"]


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
