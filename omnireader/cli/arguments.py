"""The option groups the ``omnireader`` commands share (output, reading, LLM, store,
filters) and the ``serve`` / ``mcp`` commands' options: what ``build_parser`` assembles."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from omnireader.cli.settings import DEFAULT_DB
from omnireader.cli.values import at_least, iso_time, positive_float

__all__ = [
    "add_common",
    "add_output",
    "add_read_options",
    "add_llm_options",
    "add_db",
    "add_filters",
    "add_serve",
    "add_no_warm",
    "DEFAULT_DB",
    "MEMORY_TYPES",
]

MEMORY_TYPES = ["UserMemory", "LongTermMemory", "WorkingMemory", "ToolTrajectoryMemory"]


def add_common(p: argparse.ArgumentParser) -> None:
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


def add_output(p: argparse.ArgumentParser, formats: list[str], default: str) -> None:
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


def add_read_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reading")
    g.add_argument(
        "--mode",
        choices=["fast", "fine"],
        default=None,
        help="fast: rules only (default); fine: an LLM writes the memories (implied by --llm)",
    )
    g.add_argument("--user", help="user_id stored on every item")
    g.add_argument("--session", help="session_id stored on every item")
    g.add_argument(
        "--password",
        help="password for encrypted PDFs and password-protected Office files (DOCX, XLSX, "
        "PPTX, DOC, PPT)",
    )
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
        help="page layout of PDFs and OCR'd scans: on (default) keeps headings, columns, "
        "tables and running headers/footers apart; off gives each page's plain text",
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
    add_llm_options(p)


def add_llm_options(p: argparse.ArgumentParser) -> None:
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


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        default=None,
        metavar="DIR",
        help=f"store directory (default {DEFAULT_DB}, env OMNIREADER_DB)",
    )


def add_no_warm(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-warm",
        action="store_true",
        help="run in this process: neither use nor start the store's warm process (which "
        "keeps LanceDB imported between calls; OMNIREADER_WARM=0 for every command, "
        "`omnireader warm stop` ends them)",
    )


def add_filters(p: argparse.ArgumentParser, mode: bool = True) -> None:
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
    g.add_argument(
        "--page", type=at_least(0), help="source page number (an item running onto it counts)"
    )


def add_serve(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the store over HTTP (needs omnireader[server])",
        description="An HTTP API over one store: read, ingest (uploads become "
        "jobs), search, items, stats, delete; OpenAPI docs at /docs. With API "
        "keys (OMNIREADER_API_KEYS=key:user,... or --keys-file) each key sees "
        "only its user's items; without keys it binds to loopback only.",
    )
    add_db(p)
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
    add_llm_options(p)
    add_common(p)

    p = sub.add_parser(
        "mcp",
        help="an MCP server on stdio (needs omnireader[server])",
        description="Model Context Protocol server over standard input/output: "
        "tools read, ingest, search and stats over one store.",
    )
    add_db(p)
    p.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let URLs in inputs reach loopback / private addresses (off: safe)",
    )
    add_common(p)
