"""What each ``omnireader`` command does (argument parsing lives in :mod:`omnireader.cli`).

Each ``cmd_*`` returns the exit status (see :mod:`omnireader.cli_values`); errors are raised
as typed :class:`~omnireader.errors.OmniReaderError` and printed as one line by the CLI.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from .cli_output import (
    document_markdown,
    output,
    plural,
    print_failures,
    render_item,
    say,
    stats_table,
)
from .cli_values import EXIT_FAILED, EXIT_OK
from .errors import ConfigError, FineModeUnavailableError, StoreError

__all__ = [
    "cmd_read",
    "cmd_ingest",
    "cmd_search",
    "cmd_stats",
    "cmd_export",
    "cmd_delete",
    "cmd_refine",
    "cmd_schema",
    "render_item",
]

DEFAULT_DB = "./omnireader.lance"
STDIN = ("-", "/dev/stdin")


# ------------------------------------------------------------------- settings


def _mode(args: argparse.Namespace) -> str:
    """The reading mode: ``--mode``, else fine when an LLM was named on the command line."""
    llm_flag = next((f for f, v in (("--llm", args.llm), ("--vision-llm", args.vision_llm),
                                    ("--speech-model", args.speech_model)) if v), None)
    if args.mode == "fast" and llm_flag:
        raise ConfigError(f"{llm_flag} is for fine mode, but --mode fast was given: drop "
                          f"{llm_flag}, or use --mode fine")
    return args.mode or ("fine" if llm_flag else "fast")


def _reader(args: argparse.Namespace, mode: str) -> Any:
    from .readers.reader import Reader

    overrides: dict[str, Any] = {}
    if args.password:
        overrides["password"] = args.password
    if args.chunk_tokens:
        overrides["chunk_tokens"] = args.chunk_tokens
    if args.allow_private_urls:
        overrides["allow_private_urls"] = True
    return Reader(llm=_llm(args, required=True) if mode == "fine" else None, **overrides)


def _llm(args: argparse.Namespace, *, required: bool) -> Any:
    from .llm.config import make_chat_backend

    backend = make_chat_backend(args.llm, vision=args.vision_llm, speech=args.speech_model,
                                concurrency=args.concurrency)
    if backend is None and required:
        given = next((f"{f} {v!r}" for f, v in (("--vision-llm", args.vision_llm),
                                                 ("--speech-model", args.speech_model)) if v), None)
        if given:
            raise FineModeUnavailableError(f"{given} needs a chat model too: add --llm "
                                           "openai:MODEL or --llm ollama:MODEL")
        raise FineModeUnavailableError(
            "fine mode needs an LLM: --llm openai:MODEL or --llm ollama:MODEL (or "
            "OMNIREADER_LLM, or llm = ... in omnireader.toml)")
    if backend is not None:
        from .llm.reachable import check_reachable

        check_reachable(backend)  # once, at the start: not once per item
    return backend


def _info(args: argparse.Namespace) -> dict[str, Any]:
    return {"user_id": args.user, "session_id": args.session}


def _inputs(values: list[str]) -> list[Any]:
    """Command-line inputs: ``-`` is standard input, URLs stay URLs, the rest are paths."""
    from .payloads import Blob
    from .string_refs import file_url_path, is_url

    out: list[Any] = []
    for value in values:
        if value in STDIN:
            data = sys.stdin.buffer.read() if sys.stdin is not None else b""
            out.append(Blob(data=data, filename="<stdin>"))
        elif is_url(value):
            out.append(value)  # fetched by the router, behind the address guard
        else:
            out.append(file_url_path(value) or Path(value).expanduser())
    return out


def _db(args: argparse.Namespace) -> tuple[Path, str]:
    """The store directory and where it was named (for errors)."""
    if args.db:
        return Path(args.db).expanduser(), f"--db {args.db!r}"
    if os.environ.get("OMNIREADER_DB"):
        value = os.environ["OMNIREADER_DB"]
        return Path(value).expanduser(), f"environment variable OMNIREADER_DB={value!r}"
    return Path(DEFAULT_DB), f"the default store {DEFAULT_DB!r}"


def _store(args: argparse.Namespace, embedder: str | None = None, create: bool = False) -> Any:
    from .errors import EmbedderMismatchError
    from .store import Store

    path, origin = _db(args)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{origin} is a file, not a store directory: name a directory "
                          f"(e.g. --db {path.with_suffix('.lance').name})")
    if not create and not path.exists():
        raise StoreError(f"no store at {path} ({origin}): run `omnireader ingest PATH --db "
                         f"{path}` first")
    try:
        return Store.open(path, embedder=embedder, create=create)
    except EmbedderMismatchError as e:
        built = str(e).split("built with embedder ", 1)[-1].split(" ", 1)[0]
        raise ConfigError(f"{origin} was built with embedder {built}; --embedder "
                          f"{embedder!r} makes vectors it cannot compare with. Use "
                          f"--embedder {built}, leave --embedder out, or use another --db") from None
    except OSError as e:
        raise ConfigError(f"{origin}: cannot open or create a store there: "
                          f"{e.strerror or e}") from None


def _filters(args: argparse.Namespace) -> Any:
    from .store import SearchFilters
    from .store.locations import MEMBER_SEP, split_location

    path = args.path
    if path and "://" not in path:
        base, member = split_location(path)
        path = str(Path(base).expanduser().resolve()) + (f"{MEMBER_SEP}{member}" if member else "")
    return SearchFilters(
        user_id=args.user,
        session_id=args.session,
        memory_type=args.memory_type,
        mode=getattr(args, "filter_mode", None),
        since=args.since,
        until=args.until,
        persons=args.person or None,
        entities=args.entity or None,
        path=path,
        page=args.page,
    )


# ------------------------------------------------------------------- commands


def cmd_read(args: argparse.Namespace) -> int:
    mode = _mode(args)
    reader = _reader(args, mode)
    inputs = _inputs(args.inputs)
    n_items = n_inputs = 0
    failures = []
    items_json: list[dict[str, Any]] = []  # --format json prints one object at the end
    with output(args) as out:
        for got in reader.iter_read(inputs, info=_info(args), mode=mode):
            n_inputs += 1
            failures.extend(got.failures)
            n_items += len(got.items)
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
            data = {"items": items_json, "failures": [f.model_dump() for f in failures]}
            print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
    say(args, f"read {plural(n_inputs, 'input')}: {plural(n_items, 'item')}, "
              f"{plural(len(failures), 'error')}")
    print_failures(args, failures)
    return EXIT_FAILED if failures else EXIT_OK


def _lean_memory() -> None:
    """Tune this process (the CLI owns it) to hold less memory in a long ingest.

    Each LanceDB / Arrow thread would otherwise get its own glibc malloc arena and Arrow its
    own caching allocator; with two arenas and the system allocator the writer's peak RSS
    on a 500-page PDF drops by about 20 MB. Both must happen before LanceDB starts.
    """
    import ctypes
    import ctypes.util

    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-8, 2)  # M_ARENA_MAX = 2 (glibc only; elsewhere this is a no-op)
    except (OSError, AttributeError):
        pass


def cmd_ingest(args: argparse.Namespace) -> int:
    if "lancedb" not in sys.modules:
        _lean_memory()
    mode = _mode(args)
    reader = _reader(args, mode)
    inputs = _inputs(args.inputs)
    path, _ = _db(args)
    existed = path.exists()
    store = _store(args, embedder=args.embedder, create=True)
    try:
        report = reader.ingest(
            inputs, store=store, info=_info(args), mode=mode, workers=args.workers,
            timeout=args.timeout, memory_mb=args.memory_mb, force=args.force,
            batch_size=args.batch_size, sync=args.sync,
            progress=not (args.quiet or args.no_progress),
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
            raise ConfigError(f"--report {str(args.report)!r}: cannot write there: "
                              f"{e.strerror or e}") from None
    if not args.quiet:
        print(report.summary())
        if not existed and not path.exists():
            print(f"nothing could be read, so no store was created at {path}")
    print_failures(args, report.failures)
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_search(args: argparse.Namespace) -> int:
    store = _store(args)
    results = store.search(args.query, k=args.k, view=args.view, filters=_filters(args))
    with output(args) as out:
        if args.format == "json":
            print(json.dumps([r.model_dump(mode="json") for r in results],
                             ensure_ascii=False, indent=2), file=out)
        elif args.format == "jsonl":
            for r in results:
                print(r.model_dump_json(), file=out)
        else:
            if not results:
                say(args, f"no results for {args.query!r}")
            for r in results:
                print(render_item(r.item, score=r.score), file=out)
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    stats = _store(args).stats()
    with output(args) as out:
        if args.format == "json":
            print(stats.model_dump_json(indent=2), file=out)
        else:
            print(stats_table(stats), file=out)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    store = _store(args)
    with output(args) as out:
        n = store.export_jsonl(out, filters=_filters(args))
    if args.output:
        say(args, f"exported {plural(n, 'item')} to {args.output}")
    return EXIT_OK


def cmd_delete(args: argparse.Namespace) -> int:
    filters = _filters(args)
    if filters.is_empty():
        raise ConfigError("delete needs at least one filter (--path, --user, --session, --type, "
                          "--mode, --since, --until, --person, --entity, --page); to empty a "
                          "store, remove its directory")
    store = _store(args)
    result = store.delete_report(filters=filters, dry_run=args.dry_run)
    verb = "would delete" if args.dry_run else "deleted"
    text = f"{verb} {plural(result.deleted, 'item')}"
    if result.updated:
        kept = "would keep" if args.dry_run else "kept"
        text += (f"; {kept} {plural(result.updated, 'item')} without that path (the same "
                 "content is still at another path)")
    if not args.quiet:
        print(text)
    if result.deleted and not args.dry_run:
        store.optimize()
    return EXIT_OK


def cmd_refine(args: argparse.Namespace) -> int:
    from .readers.refine import refine_store

    if args.refine_mode is not None:
        raise ConfigError(f"refine does not take --mode {args.refine_mode!r}: it always turns "
                          "fast items into fine ones; choose which with --user, --session, "
                          "--type, --path, --since, --until, --person, --entity, --page")
    store = _store(args)
    report = refine_store(store, llm=_llm(args, required=True), filters=_filters(args),
                          limit=args.limit, force=args.force,
                          progress=not (args.quiet or args.no_progress))
    if not args.quiet:
        print(report.summary())
    return EXIT_FAILED if report.failed else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    from .models import MemoryItem, ReadFailure
    from .readers.ingest_report import IngestReport
    from .store.results import SearchResult

    schemas = {
        "MemoryItem": MemoryItem.model_json_schema(),
        "SearchResult": SearchResult.model_json_schema(),
        "ReadFailure": ReadFailure.model_json_schema(),
        "IngestReport": IngestReport.model_json_schema(),
    }
    with output(args) as out:
        print(json.dumps(schemas, ensure_ascii=False, indent=2), file=out)
    return EXIT_OK
