"""What the command line's options become: the reading mode, a Reader, the LLM, the inputs,
the store and the search filters, each checked with an error that names the option.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from omnireader.errors import ConfigError, FineModeUnavailableError, StoreError

__all__ = [
    "reading_mode",
    "reader_for",
    "llm_backend",
    "info",
    "read_inputs",
    "db_path",
    "open_store",
    "search_filters",
    "lean_memory",
    "DEFAULT_DB",
]

DEFAULT_DB = "./omnireader.lance"
STDIN = ("-", "/dev/stdin")


def reading_mode(args: argparse.Namespace) -> str:
    """The reading mode: ``--mode``, else fine when an LLM was named on the command line."""
    llm_flag = next(
        (
            f
            for f, v in (
                ("--llm", args.llm),
                ("--vision-llm", args.vision_llm),
                ("--speech-model", args.speech_model),
            )
            if v
        ),
        None,
    )
    if args.mode == "fast" and llm_flag:
        raise ConfigError(
            f"{llm_flag} is for fine mode, but --mode fast was given: drop "
            f"{llm_flag}, or use --mode fine"
        )
    return args.mode or ("fine" if llm_flag else "fast")


def reader_for(args: argparse.Namespace, mode: str) -> Any:
    from omnireader.reading.reader import Reader

    overrides: dict[str, Any] = {}
    if args.password:
        overrides["password"] = args.password
    if args.chunk_tokens:
        overrides["chunk_tokens"] = args.chunk_tokens
    if getattr(args, "ocr", None):
        overrides["ocr"] = args.ocr
    if getattr(args, "layout", None):
        overrides["layout"] = args.layout == "on"
    if args.allow_private_urls:
        overrides["allow_private_urls"] = True
    if getattr(args, "max_archive_depth", None) is not None:
        overrides["max_archive_depth"] = args.max_archive_depth
    return Reader(llm=llm_backend(args, required=True) if mode == "fine" else None, **overrides)


def llm_backend(args: argparse.Namespace, *, required: bool) -> Any:
    from omnireader.llm.config import make_chat_backend

    backend = make_chat_backend(
        args.llm, vision=args.vision_llm, speech=args.speech_model, concurrency=args.concurrency
    )
    if backend is None and required:
        given = next(
            (
                f"{f} {v!r}"
                for f, v in (
                    ("--vision-llm", args.vision_llm),
                    ("--speech-model", args.speech_model),
                )
                if v
            ),
            None,
        )
        if given:
            raise FineModeUnavailableError(
                f"{given} needs a chat model too: add --llm openai:MODEL or --llm ollama:MODEL"
            )
        raise FineModeUnavailableError(
            "fine mode needs an LLM: --llm openai:MODEL or --llm ollama:MODEL (or "
            "OMNIREADER_LLM, or llm = ... in omnireader.toml)"
        )
    if backend is not None:
        from omnireader.llm.reachable import check_reachable

        check_reachable(backend)  # once, at the start: not once per item
    return backend


def info(args: argparse.Namespace) -> dict[str, Any]:
    return {"user_id": args.user, "session_id": args.session}


def read_inputs(values: list[str]) -> list[Any]:
    """Command-line inputs: ``-`` is standard input, URLs stay URLs, the rest are paths."""
    from omnireader.intake.string_refs import file_url_path, is_url
    from omnireader.payloads import Blob

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


def db_path(args: argparse.Namespace) -> tuple[Path, str]:
    """The store directory and where it was named (for errors)."""
    if args.db:
        return Path(args.db).expanduser(), f"--db {args.db!r}"
    if os.environ.get("OMNIREADER_DB"):
        value = os.environ["OMNIREADER_DB"]
        return Path(value).expanduser(), f"environment variable OMNIREADER_DB={value!r}"
    return Path(DEFAULT_DB), f"the default store {DEFAULT_DB!r}"


def open_store(args: argparse.Namespace, embedder: str | None = None, create: bool = False) -> Any:
    from omnireader.errors import EmbedderMismatchError
    from omnireader.store import Store

    path, origin = db_path(args)
    if path.exists() and not path.is_dir():
        raise ConfigError(
            f"{origin} is a file, not a store directory: name a directory "
            f"(e.g. --db {path.with_suffix('.lance').name})"
        )
    if not create and not path.exists():
        raise StoreError(
            f"no store at {path} ({origin}): run `omnireader ingest PATH --db {path}` first"
        )
    try:
        return Store.open(path, embedder=embedder, create=create)
    except EmbedderMismatchError as e:
        built = str(e).split("built with embedder ", 1)[-1].split(" ", 1)[0]
        raise ConfigError(
            f"{origin} was built with embedder {built}; --embedder "
            f"{embedder!r} makes vectors it cannot compare with. Use "
            f"--embedder {built}, leave --embedder out, or use another "
            "--db"
        ) from None
    except OSError as e:
        raise ConfigError(
            f"{origin}: cannot open or create a store there: {e.strerror or e}"
        ) from None


def search_filters(args: argparse.Namespace) -> Any:
    from omnireader.store import SearchFilters
    from omnireader.store.locations import MEMBER_SEP, split_location

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


def lean_memory() -> None:
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
