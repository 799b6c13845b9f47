"""What each ``omnireader`` command does (argument parsing lives in :mod:`omnireader.cli`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .models import MemoryItem

__all__ = [
    "cmd_read",
    "cmd_ingest",
    "cmd_search",
    "cmd_stats",
    "cmd_export",
    "cmd_refine",
    "render_item",
]


def _reader(args: argparse.Namespace) -> Any:
    from .readers.reader import Reader

    overrides: dict[str, Any] = {}
    if getattr(args, "password", None):
        overrides["password"] = args.password
    if getattr(args, "chunk_tokens", None):
        overrides["chunk_tokens"] = args.chunk_tokens
    if getattr(args, "allow_private_urls", False):
        overrides["allow_private_urls"] = True
    llm = _llm(args) if getattr(args, "mode", "fast") == "fine" else None
    return Reader(llm=llm, **overrides)


def _llm(args: argparse.Namespace) -> Any:
    from .llm.config import make_chat_backend

    return make_chat_backend(
        getattr(args, "llm", None),
        vision=getattr(args, "vision_llm", None),
        speech=getattr(args, "speech_model", None),
        concurrency=getattr(args, "concurrency", None),
    )


def _info(args: argparse.Namespace) -> dict[str, Any]:
    return {"user_id": getattr(args, "user", None), "session_id": getattr(args, "session", None)}


def _where(item: MemoryItem) -> str:
    s = item.source
    if s is None:
        return ""
    name = s.path or s.url or s.filename or s.file_id or ""
    if s.member:
        name += f"!{s.member}"
    if s.kind in ("chat", "tool", "string") and not name:
        ids = [x.message_id for x in item.metadata.sources if x.message_id]
        name = f"{s.kind}" + (f" [{', '.join(ids)}]" if ids else "")
    if s.page is not None:
        name += f" p.{s.page}"
    if s.chunk_total and s.chunk_total > 1:
        name += f" chunk {(s.chunk_index or 0) + 1}/{s.chunk_total}"
    return name


def render_item(item: MemoryItem, width: int = 400, score: float | None = None) -> str:
    m = item.metadata
    head = f"── {item.id[:8]} {m.memory_type} ({m.mode})"
    if score is not None:
        head += f" score={score:.4f}"
    where = _where(item)
    if where:
        head += f" · {where}"
    if m.flags:
        head += f" · flags: {', '.join(m.flags)}"
    text = item.memory if len(item.memory) <= width else item.memory[: width - 1] + "…"
    return head + "\n   " + text.replace("\n", "\n   ")


def _print_failures(failures: list[Any]) -> None:
    for f in failures:
        print(f"  ✗ [{f.error}] {f.message}", file=sys.stderr)


def cmd_read(args: argparse.Namespace) -> int:
    reader = _reader(args)
    n_items = n_inputs = 0
    failures = []
    collected: list[dict[str, Any]] = []  # --format json prints one array at the end
    for out in reader.iter_read(args.paths, info=_info(args), mode=args.mode):
        n_inputs += 1
        failures.extend(out.failures)
        for item in out.items:
            n_items += 1
            if args.format == "text":
                print(render_item(item))
            elif args.format == "jsonl":
                print(item.model_dump_json())
        if args.format == "json":
            collected.extend(i.model_dump(mode="json") for i in out.items)
    if args.format == "json":
        print(json.dumps(collected, ensure_ascii=False, indent=2))
    print(
        f"read {n_inputs} inputs: {n_items} items, {len(failures)} errors", file=sys.stderr
    )
    _print_failures(failures)
    return 0 if n_items or not failures else 1



def _store(args: argparse.Namespace, embedder: str | None = None, create: bool = False) -> Any:
    from pathlib import Path

    from .errors import StoreError
    from .store import Store

    if not create and not Path(args.db).exists():
        raise StoreError(f"no store at {args.db}: run `omnireader ingest PATH --db {args.db}` first")
    return Store.open(args.db, embedder=embedder)


def _lean_memory() -> None:
    """Tune this process (the CLI owns it) to hold less memory in a long ingest.

    Each LanceDB / Arrow thread would otherwise get its own glibc malloc arena and Arrow its
    own caching allocator; with two arenas and the system allocator the writer's peak RSS
    on a 500-page PDF drops by about 20 MB. Both must happen before LanceDB starts.
    """
    import ctypes
    import ctypes.util
    import os

    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-8, 2)  # M_ARENA_MAX = 2 (glibc only; elsewhere this is a no-op)
    except (OSError, AttributeError):
        pass


def cmd_ingest(args: argparse.Namespace) -> int:
    if "lancedb" not in sys.modules:
        _lean_memory()
    reader = _reader(args)
    store = _store(args, embedder=args.embedder, create=True)
    report = reader.ingest(
        args.paths,
        store=store,
        info=_info(args),
        mode=args.mode,
        workers=args.workers,
        timeout=args.timeout,
        memory_mb=args.memory_mb,
        force=args.force,
        batch_size=args.batch_size,
        progress=True,
    )
    print(report.summary())
    _print_failures(report.failures)
    if args.report:
        args.report.write_text(report.model_dump_json(indent=2))
    return 0


def _filters(args: argparse.Namespace) -> Any:
    from .store import SearchFilters

    return SearchFilters(
        user_id=args.user,
        session_id=args.session,
        memory_type=args.memory_type,
        mode=args.filter_mode,
        since=args.since,
        until=args.until,
        persons=args.person or None,
        entities=args.entity or None,
        path_prefix=args.path_prefix,
        page=args.page,
    )


def cmd_search(args: argparse.Namespace) -> int:
    store = _store(args)
    results = store.search(args.query, k=args.k, view=args.view, filters=_filters(args),
                           max_chars=getattr(args, "max_chars", None))
    if args.format == "json":
        print(json.dumps(
            [{"score": r.score, "text": r.text, "item": r.item.model_dump(mode="json"),
              "context_ids": [i.id for i in r.items], "message_ids": r.message_ids}
             for r in results],
            ensure_ascii=False, indent=2,
        ))
        return 0
    if not results:
        print(f"no results for {args.query!r}")
    for r in results:
        # The passage (the hit with its context), whole when a budget was asked for.
        shown = r.item.model_copy(update={"memory": r.text or r.item.memory})
        print(render_item(shown, width=10**9 if args.max_chars else 400, score=r.score))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    stats = _store(args).stats()
    if args.format == "json":
        print(stats.model_dump_json(indent=2))
    else:
        for k, v in stats.model_dump().items():
            print(f"{k:>16}: {v}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    store = _store(args)
    if args.output:
        with args.output.open("w", encoding="utf-8") as fp:
            n = store.export_jsonl(fp)
        print(f"exported {n} items to {args.output}", file=sys.stderr)
    else:
        store.export_jsonl(sys.stdout)
    return 0


def cmd_refine(args: argparse.Namespace) -> int:
    from .readers.refine import refine_store

    store = _store(args)
    report = refine_store(store, llm=_llm(args), filters=_filters(args), limit=args.limit,
                          force=args.force, progress=True)
    print(report.summary())
    return 0
