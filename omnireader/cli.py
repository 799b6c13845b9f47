"""The ``omnireader`` command line: read, ingest, search, stats, export, refine.

Only argparse and the standard library load at start-up; each command imports what it
needs, so ``omnireader --help`` answers at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["main", "build_parser"]

DEFAULT_DB = "./omnireader.lance"

EPILOG = """examples:
  omnireader read report.pdf chats/ --format json
  omnireader ingest ~/Documents/papers --db papers.lance --workers 2
  omnireader search "quarterly revenue" --db papers.lance --view hybrid --k 5
  omnireader ingest notes/ --mode fine --llm openai:gpt-4o-mini
  omnireader refine --db papers.lance --llm ollama:qwen2.5:7b

LLM backends (fine mode): --llm openai:MODEL uses OPENAI_BASE_URL / OPENAI_API_KEY (OpenAI,
vLLM, llama.cpp server, LM Studio); --llm ollama:MODEL uses OLLAMA_HOST. Fast mode needs no
server, no network and no API key."""


def _add_read_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reading")
    g.add_argument("--mode", choices=["fast", "fine"], default="fast",
                   help="fast: rules only (default); fine: an LLM writes the memories")
    g.add_argument("--user", help="user_id stored on every item")
    g.add_argument("--session", help="session_id stored on every item")
    g.add_argument("--password", help="password for encrypted PDFs")
    g.add_argument("--chunk-tokens", type=int, help="document chunk size in tokens (512)")
    g.add_argument("--allow-private-urls", action="store_true",
                   help="let URLs in inputs reach loopback / private addresses (off: safe)")
    _add_llm_options(p)


def _add_llm_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("LLM (fine mode)")
    g.add_argument("--llm", help="chat model: openai:MODEL or ollama:MODEL "
                                 "(env OMNIREADER_LLM)")
    g.add_argument("--vision-llm", help="vision model (default: --llm)")
    g.add_argument("--speech-model", help="speech-to-text model (OpenAI-compatible)")
    g.add_argument("--concurrency", type=int, help="LLM calls in flight (default 8)")


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=os.environ.get("OMNIREADER_DB", DEFAULT_DB),
                   help=f"store directory (default {DEFAULT_DB}, env OMNIREADER_DB)")


def _add_filters(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("filters")
    g.add_argument("--user", help="only this user_id")
    g.add_argument("--session", help="only this session_id")
    g.add_argument("--type", dest="memory_type", help="memory type, e.g. LongTermMemory")
    g.add_argument("--mode", dest="filter_mode", choices=["fast", "fine"], help="item mode")
    g.add_argument("--since", help="timestamp at or after (ISO 8601)")
    g.add_argument("--until", help="timestamp at or before (ISO 8601)")
    g.add_argument("--person", action="append", help="any of these persons (repeatable)")
    g.add_argument("--entity", action="append", help="any of these entities (repeatable)")
    g.add_argument("--path", dest="path_prefix", help="source path or URL prefix")
    g.add_argument("--page", type=int, help="source page number")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="omnireader",
        description="Read anything an AI agent meets (text, chats, tool calls, PDF, DOCX, "
        "PPTX, XLSX, HTML, CSV, JSON, EPUB, ZIP, images, audio) into structured memory "
        "items, store them in a searchable LanceDB store, and search it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--version", action="version", version="omnireader 0.1.0")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("read", help="read inputs and print their items (no store)",
                       description="Read files or folders (recursively) and print the items.")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--format", choices=["text", "json", "jsonl"], default="text")
    _add_read_options(p)

    p = sub.add_parser("ingest", help="read files / folders into the store",
                       description="Read files and folders into the store. Unchanged files "
                       "are skipped; changed ones replace their old items; a killed run "
                       "resumes where it stopped.")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    _add_db(p)
    _add_read_options(p)
    p.add_argument("--workers", type=int, default=None,
                   help="parser processes (default: number of CPUs)")
    p.add_argument("--embedder", help="hashing (default, offline), openai:MODEL, ollama:MODEL")
    p.add_argument("--timeout", type=float, default=300.0,
                   help="seconds one file may take before it is stopped (300)")
    p.add_argument("--memory-mb", type=int, default=2048,
                   help="memory one parser process may use, in MB (2048)")
    p.add_argument("--batch-size", type=int, default=2048,
                   help="items per store write (2048); a killed run resumes from the last one")
    p.add_argument("--report", type=Path, help="write the run's summary as JSON here")
    p.add_argument("--force", action="store_true", help="re-read files even if unchanged")

    p = sub.add_parser("search", help="search the store",
                       description="Search the store by meaning (vector), keywords (fts) "
                       "or both fused (hybrid), under filters.")
    p.add_argument("query")
    _add_db(p)
    p.add_argument("--k", type=int, default=10, help="results (10)")
    p.add_argument("--view", choices=["hybrid", "vector", "fts"], default="hybrid")
    p.add_argument("--max-chars", type=int, metavar="N",
                   help="keep the best results whose texts fit in N characters together "
                        "(what fits in a prompt)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    _add_filters(p)

    p = sub.add_parser("stats", help="counts of what the store holds")
    _add_db(p)
    p.add_argument("--format", choices=["text", "json"], default="text")

    p = sub.add_parser("export", help="print every item of the store")
    _add_db(p)
    p.add_argument("--format", choices=["jsonl"], default="jsonl")
    p.add_argument("--output", "-o", type=Path, help="file to write (default stdout)")

    p = sub.add_parser("refine", help="upgrade fast items in the store with an LLM",
                       description="Fast→fine transfer: send stored fast items to an LLM; "
                       "the fast item stays, marked as refined and linked to its fine items.")
    _add_db(p)
    _add_filters(p)
    _add_llm_options(p)
    p.add_argument("--limit", type=int, help="refine at most this many items")
    p.add_argument("--force", action="store_true",
                   help="refine items that were refined before too (replaces their fine items)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help()
        return 2
    from . import commands  # the commands pull in the package; --help never pays for it
    from .errors import OmniReaderError

    try:
        return int(getattr(commands, f"cmd_{args.command}")(args) or 0)
    except OmniReaderError as e:
        print(f"omnireader: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("omnireader: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `omnireader read ... | head`
        return 0


def dump_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    sys.exit(main())
