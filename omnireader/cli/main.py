"""The ``omnireader`` command line: read, ingest, search, stats, export, delete, refine, schema.

Only argparse and the standard library load at start-up; each command imports what it
needs, so ``omnireader --help`` answers at once.

Exit status (the same rule for every command): 0 all good; 1 some inputs (or parts of
them) could not be read and the rest was kept, or the run could not do its work (no store,
LLM unreachable); 2 a usage error (unknown option, bad value, bad setting; nothing done);
130 interrupted. Every error is one ``omnireader: error: …`` line on stderr naming the
value, where it came from (flag, environment variable or config file) and what is valid.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from omnireader._version import __version__
from omnireader.cli.values import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    OneLineParser,
    at_least,
    iso_time,
    positive_float,
)

__all__ = ["main", "build_parser", "dump_json"]

DEFAULT_DB = "./omnireader.lance"
MEMORY_TYPES = ["UserMemory", "LongTermMemory", "WorkingMemory", "ToolTrajectoryMemory"]

EPILOG = """examples:
  omnireader read report.pdf chats/ --format json
  omnireader read https://example.com/paper.pdf --format markdown
  cat notes.txt | omnireader read -
  omnireader ingest ~/Documents/papers --db papers.lance --workers 2 --sync
  omnireader search "quarterly revenue" --db papers.lance --view hybrid --k 5
  omnireader delete --db papers.lance --path ~/Documents/papers/old --dry-run
  omnireader ingest notes/ --mode fine --llm openai:gpt-4o-mini
  omnireader refine --db papers.lance --llm ollama:qwen2.5:7b

exit status: 0 all good; 1 some inputs failed (the rest was kept) or the run could not do
its work; 2 usage error (nothing done); 130 interrupted.

LLM backends (fine mode): --llm openai:MODEL uses OPENAI_BASE_URL / OPENAI_API_KEY (OpenAI,
vLLM, llama.cpp server, LM Studio); --llm ollama:MODEL uses OLLAMA_HOST. Fast mode needs no
server, no network and no API key."""


def _common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print only results and errors (no summary, no progress)",
    )
    g.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print every failure and what the run decided",
    )
    g.add_argument("--no-progress", action="store_true", help="no progress bar or lines")


def _add_output(p: argparse.ArgumentParser, formats: list[str], default: str) -> None:
    p.add_argument(
        "--format",
        choices=formats,
        default=default,
        help=f"output format: {', '.join(formats)} (default {default})",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write the output to FILE instead of standard output",
    )


def _add_read_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reading")
    g.add_argument(
        "--mode",
        choices=["fast", "fine"],
        default=None,
        help="fast: rules only (default); fine: an LLM writes the memories (implied by --llm)",
    )
    g.add_argument("--user", help="user_id stored on every item")
    g.add_argument("--session", help="session_id stored on every item")
    g.add_argument("--password", help="password for encrypted PDFs")
    g.add_argument(
        "--ocr",
        choices=["auto", "off", "always"],
        default="auto",
        help="OCR in fast mode: auto (default) reads scanned pages and images with "
        "text; always also pictures inside text PDFs and DOCX; off: none",
    )
    g.add_argument(
        "--layout",
        choices=["on", "off"],
        default=None,
        help="PDF page layout: on (default) keeps headings, columns, tables and "
        "running headers/footers apart; off gives each page's plain text",
    )
    g.add_argument(
        "--chunk-tokens",
        type=at_least(16),
        metavar="N",
        help="document chunk size in tokens, 16 or more (default 512)",
    )
    g.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let URLs in inputs reach loopback / private addresses (off: safe)",
    )
    g.add_argument(
        "--max-archive-depth",
        type=at_least(0),
        metavar="N",
        help="open archives and e-mails inside each other up to N levels (default 2)",
    )
    _add_llm_options(p)


def _add_llm_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("LLM (fine mode)")
    g.add_argument(
        "--llm",
        help="chat model: openai:MODEL or ollama:MODEL "
        "(env OMNIREADER_LLM, or llm in the config file)",
    )
    g.add_argument("--vision-llm", help="vision model (default: --llm)")
    g.add_argument("--speech-model", help="speech-to-text model (OpenAI-compatible)")
    g.add_argument(
        "--concurrency", type=at_least(1), metavar="N", help="LLM calls in flight (default 8)"
    )


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        default=None,
        metavar="DIR",
        help=f"store directory (default {DEFAULT_DB}, env OMNIREADER_DB)",
    )


def _add_filters(p: argparse.ArgumentParser, mode: bool = True) -> None:
    g = p.add_argument_group("filters")
    g.add_argument("--user", help="only this user_id")
    g.add_argument("--session", help="only this session_id")
    g.add_argument("--type", dest="memory_type", choices=MEMORY_TYPES, help="memory type")
    if mode:
        g.add_argument("--mode", dest="filter_mode", choices=["fast", "fine"], help="item mode")
    g.add_argument("--since", type=iso_time, help="timestamp at or after (ISO 8601 date or time)")
    g.add_argument("--until", type=iso_time, help="timestamp at or before (ISO 8601 date or time)")
    g.add_argument("--person", action="append", help="any of these persons (repeatable)")
    g.add_argument("--entity", action="append", help="any of these entities (repeatable)")
    g.add_argument(
        "--path",
        dest="path",
        help="a file, URL or archive member (a.zip!x.md) the item was seen at, or a folder of them",
    )
    g.add_argument("--page", type=at_least(0), help="source page number")


def _add_serve(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the store over HTTP (needs omnireader[server])",
        description="An HTTP API over one store: read, ingest (uploads become "
        "jobs), search, items, stats, delete; OpenAPI docs at /docs. With API "
        "keys (OMNIREADER_API_KEYS=key:user,... or --keys-file) each key sees "
        "only its user's items; without keys it binds to loopback only.",
    )
    _add_db(p)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    p.add_argument("--port", type=at_least(0), default=8700, help="port (8700)")
    p.add_argument(
        "--keys-file",
        type=Path,
        metavar="FILE",
        help="API keys, one KEY:USER_ID a line (also env OMNIREADER_API_KEYS)",
    )
    p.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="allow a non-loopback --host without API keys (anyone reaching it "
        "can read and delete everything)",
    )
    p.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let URLs in inputs reach loopback / private addresses (off: safe)",
    )
    p.add_argument(
        "--spool",
        type=Path,
        metavar="DIR",
        help="where uploads wait for their job (default: beside the store)",
    )
    p.add_argument(
        "--workers",
        type=at_least(1),
        default=1,
        metavar="N",
        help="parser processes per ingest job (1)",
    )
    p.add_argument(
        "--ingest-nice",
        type=at_least(0),
        default=10,
        metavar="N",
        help="nice value ingest runs at, so searches get the cores first (10; 0 = normal priority)",
    )
    p.add_argument(
        "--ingest-in-process",
        action="store_true",
        help="run fast-mode ingest in the server's own process instead of a "
        "child process (slower searches under upload load)",
    )
    g = p.add_argument_group("limits (413 / 429 beyond them)")
    g.add_argument(
        "--max-request-mb",
        type=positive_float,
        default=2.0,
        metavar="MB",
        help="JSON request body (2)",
    )
    g.add_argument(
        "--max-upload-mb",
        type=positive_float,
        default=100.0,
        metavar="MB",
        help="one uploaded file (100)",
    )
    g.add_argument(
        "--max-files",
        type=at_least(1),
        default=100,
        metavar="N",
        help="files in one upload request (100)",
    )
    g.add_argument(
        "--max-jobs",
        type=at_least(1),
        default=16,
        metavar="N",
        help="ingest jobs queued or running at once (16)",
    )
    g.add_argument(
        "--rate-per-minute",
        type=at_least(1),
        default=600,
        metavar="N",
        help="requests per API key (or client address) a minute (600)",
    )
    g.add_argument(
        "--max-spool-mb",
        type=positive_float,
        default=2048.0,
        metavar="MB",
        help="all uploads waiting on disk together (2048)",
    )
    _add_llm_options(p)
    _common(p)

    p = sub.add_parser(
        "mcp",
        help="an MCP server on stdio (needs omnireader[server])",
        description="Model Context Protocol server over standard input/output: "
        "tools read, ingest, search and stats over one store.",
    )
    _add_db(p)
    p.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let URLs in inputs reach loopback / private addresses (off: safe)",
    )
    _common(p)


def build_parser() -> argparse.ArgumentParser:
    ap = OneLineParser(
        prog="omnireader",
        description="Read anything an AI agent meets (text, chats, tool calls, PDF, DOCX, "
        "PPTX, XLSX, HTML, CSV, JSON, EPUB, ZIP, images, audio) into structured memory "
        "items, store them in a searchable LanceDB store, and search it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--version", action="version", version=f"omnireader {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)

    p = sub.add_parser(
        "read",
        help="read inputs and print their items (no store)",
        description="Read files, folders (recursively), http(s):// URLs or "
        "standard input (-) and print the items, or each document as Markdown.",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, folder, URL, or - for stdin")
    _add_output(p, ["text", "json", "jsonl", "markdown"], "text")
    _add_read_options(p)
    _common(p)

    p = sub.add_parser(
        "ingest",
        help="read files / folders into the store",
        description="Read files, folders, URLs or standard input (-) into the "
        "store. Unchanged files are skipped; changed ones replace their old "
        "items; a killed run resumes where it stopped; files that failed for "
        "good are not read again (only timeouts, crashes and fetches retry).",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, folder, URL, or - for stdin")
    _add_db(p)
    _add_read_options(p)
    p.add_argument(
        "--sync",
        action="store_true",
        help="also remove the items of files that no longer exist under the given "
        "folders (items another path still holds stay)",
    )
    p.add_argument(
        "--workers",
        type=at_least(1),
        default=None,
        metavar="N",
        help="parser processes, 1 or more (default: enough to fill the CPUs with the "
        "writer counted as 0.4 of a worker, and no more than the files)",
    )
    p.add_argument("--embedder", help="hashing (default, offline), openai:MODEL, ollama:MODEL")
    p.add_argument(
        "--timeout",
        type=positive_float,
        default=300.0,
        metavar="SECONDS",
        help="seconds one file may take before it is stopped (300)",
    )
    p.add_argument(
        "--memory-mb",
        type=at_least(64),
        default=2048,
        metavar="MB",
        help="memory one parser process may use, in MB (2048)",
    )
    p.add_argument(
        "--batch-size",
        type=at_least(1),
        default=2048,
        metavar="N",
        help="items per store write (2048); a killed run resumes from the last one",
    )
    p.add_argument(
        "--report", type=Path, metavar="FILE", help="write the run's summary as JSON here"
    )
    p.add_argument("--force", action="store_true", help="re-read files even if unchanged")
    p.add_argument(
        "--engine",
        choices=["local", "ray"],
        default="local",
        help="where files are parsed: local worker processes (default) or a Ray "
        "cluster (needs pip install 'omnireader[ray]')",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --engine ray: the cluster to join (host:port of its head, or "
        "'auto'); default: start a local one (RAY_ADDRESS is honoured too)",
    )
    _common(p)

    p = sub.add_parser(
        "search",
        help="search the store",
        description="Search the store by meaning (vector), keywords (fts) "
        "or both fused (hybrid), under filters. Exits 0 even with no results.",
    )
    p.add_argument("query")
    _add_db(p)
    p.add_argument("--k", type=at_least(1), default=10, metavar="N", help="results (10)")
    p.add_argument("--view", choices=["hybrid", "vector", "fts"], default="hybrid")
    p.add_argument(
        "--max-chars",
        type=at_least(1),
        metavar="N",
        help="keep the best results whose texts fit in N characters together "
        "(what fits in a prompt)",
    )
    _add_output(p, ["text", "json", "jsonl"], "text")
    _add_filters(p)
    _common(p)

    p = sub.add_parser("stats", help="counts of what the store holds")
    _add_db(p)
    _add_output(p, ["text", "json"], "text")
    _common(p)

    p = sub.add_parser("export", help="print every item of the store (one JSON per line)")
    _add_db(p)
    _add_output(p, ["jsonl"], "jsonl")
    _add_filters(p)
    _common(p)

    p = sub.add_parser(
        "delete",
        help="delete items from the store by filters",
        description="Delete the items matching the filters. With --path, the "
        "path is taken away from its items and only items seen at no other "
        "path go. At least one filter is required.",
    )
    _add_db(p)
    _add_filters(p)
    p.add_argument("--dry-run", action="store_true", help="say what would go; change nothing")
    _common(p)

    p = sub.add_parser(
        "refine",
        help="upgrade fast items in the store with an LLM",
        description="Fast→fine transfer: send stored fast items to an LLM; "
        "the fast item stays, marked as refined and linked to its fine items.",
    )
    _add_db(p)
    _add_filters(p, mode=False)
    p.add_argument("--mode", dest="refine_mode", help=argparse.SUPPRESS)
    _add_llm_options(p)
    p.add_argument("--limit", type=at_least(1), metavar="N", help="refine at most this many items")
    p.add_argument(
        "--force",
        action="store_true",
        help="refine items that were refined before too (replaces their fine items)",
    )
    _common(p)

    _add_serve(sub)

    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of an item and a search result",
        description="The output contract: JSON Schema (from the pydantic "
        "models) of a memory item, a search result, a read failure and an "
        "ingest report.",
    )
    _add_output(p, ["json"], "json")
    _common(p)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help()
        return EXIT_USAGE
    from omnireader.cli import (
        commands,  # the commands pull in the package; --help never pays for it
    )
    from omnireader.errors import (
        ConfigError,
        FineModeUnavailableError,
        InvalidInputError,
        OmniReaderError,
    )

    try:
        return int(getattr(commands, f"cmd_{args.command}")(args) or EXIT_OK)
    except (ConfigError, InvalidInputError, FineModeUnavailableError) as e:
        print(f"omnireader: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_USAGE
    except OmniReaderError as e:
        print(f"omnireader: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("omnireader: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `omnireader read ... | head`
        return EXIT_OK


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())


def dump_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    sys.exit(main())
