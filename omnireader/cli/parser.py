"""The ``omnireader`` command line's grammar: every command, its options and its help
(the shared option groups are in :mod:`omnireader.cli.arguments`). What the commands do is in
:mod:`omnireader.cli.commands`; running one and its exit status, in :mod:`omnireader.cli.main`.

Only argparse and the standard library load here, so ``omnireader --help`` answers at once.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from omnireader._version import __version__
from omnireader.cli.arguments import (
    add_common,
    add_db,
    add_filters,
    add_llm_options,
    add_no_warm,
    add_output,
    add_read_options,
    add_serve,
)
from omnireader.cli.values import (
    OneLineParser,
    at_least,
    positive_float,
)
from omnireader.cli.versions import add_version_commands
from omnireader.cli.warm_command import add_warm_command

__all__ = ["build_parser", "EPILOG"]


EPILOG = """examples:
  omnireader read report.pdf chats/ --format json
  omnireader read https://example.com/paper.pdf --format markdown
  cat notes.txt | omnireader read -
  omnireader ingest ~/Documents/papers --db papers.lance --workers 2 --sync
  omnireader search "quarterly revenue" --db papers.lance --view hybrid --k 5
  omnireader delete --db papers.lance --path ~/Documents/papers/old --dry-run
  omnireader history 3f2a9c1e-... --db notes.lance
  omnireader ingest notes/ --mode fine --llm openai:gpt-4o-mini
  omnireader refine --db papers.lance --llm ollama:qwen2.5:7b

exit status: 0 all good; 1 some inputs failed (the rest was kept) or the run could not do
its work; 2 usage error (nothing done); 130 interrupted.

warm process: after the first call on a store, search, stats and history are answered by
that store's warm process (LanceDB stays imported there; it exits after 10 idle minutes,
OMNIREADER_WARM_IDLE). --no-warm or OMNIREADER_WARM=0: in-process; omnireader warm stop.

LLM backends (fine mode): --llm openai:MODEL uses OPENAI_BASE_URL / OPENAI_API_KEY (OpenAI,
vLLM, llama.cpp server, LM Studio); --llm ollama:MODEL uses OLLAMA_HOST. Fast mode needs no
server, no network and no API key."""


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
    add_output(p, ["text", "json", "jsonl", "markdown"], "text")
    add_read_options(p)
    add_common(p)

    p = sub.add_parser(
        "ingest",
        help="read files / folders into the store",
        description="Read files, folders, URLs or standard input (-) into the "
        "store. Unchanged files are skipped; changed ones replace their old "
        "items; a killed run resumes where it stopped; files that failed for "
        "good are not read again (only timeouts, crashes and fetches retry).",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="file, folder, URL, or - for stdin")
    add_db(p)
    add_read_options(p)
    p.add_argument(
        "--sync",
        action="store_true",
        help="also remove the items of files that no longer exist under the given "
        "folders (items another path still holds stay)",
    )
    p.add_argument(
        "--keep-history",
        action="store_true",
        help="a changed file's old items are archived, not deleted (search "
        "--include-archived and history still find them)",
    )
    p.add_argument(
        "--link-near-duplicates",
        action="store_true",
        help="link a chunk that repeats a stored one up to whitespace, case, hyphenation "
        "and small edits (never a different number or name): one item, every source kept",
    )
    p.add_argument(
        "--consolidate",
        action="store_true",
        help="fine mode: the LLM compares each new memory with the most similar stored "
        "ones and merges duplicates, archiving what a newer memory updates or contradicts",
    )
    p.add_argument(
        "--workers",
        type=at_least(1),
        default=None,
        metavar="N",
        help="parser processes, 1 or more (default: enough to fill the CPUs with the "
        "writer counted as 0.4 of a worker, and no more than the files)",
    )
    p.add_argument(
        "--embedder",
        help="static (default: offline, a bundled model), minilm (the transformer: "
        "[local-embed] extra), hashing, openai:MODEL, ollama:MODEL, onnx:FOLDER (a new store "
        "only: a store keeps its own; omnireader reembed switches it)",
    )
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
    add_common(p)

    p = sub.add_parser(
        "search",
        help="search the store",
        description="Search the store by meaning (vector), keywords (fts) "
        "or both fused (hybrid), under filters. Exits 0 even with no results.",
    )
    p.add_argument("query")
    add_db(p)
    p.add_argument("--k", type=at_least(1), default=10, metavar="N", help="results (10)")
    p.add_argument("--view", choices=["hybrid", "vector", "fts"], default="hybrid")
    p.add_argument(
        "--max-chars",
        type=at_least(1),
        metavar="N",
        help="keep the best results whose texts fit in N characters together "
        "(what fits in a prompt)",
    )
    p.add_argument(
        "--include-archived",
        action="store_true",
        help="also search archived versions (each says when and by what it was replaced)",
    )
    add_output(p, ["text", "json", "jsonl"], "text")
    add_filters(p)
    add_no_warm(p)
    add_common(p)

    p = sub.add_parser("stats", help="counts of what the store holds")
    add_db(p)
    add_output(p, ["text", "json"], "text")
    add_no_warm(p)
    add_common(p)

    p = sub.add_parser("export", help="print every item of the store (one JSON per line)")
    add_db(p)
    add_output(p, ["jsonl"], "jsonl")
    add_filters(p)
    add_common(p)

    p = sub.add_parser(
        "delete",
        help="delete items from the store by filters",
        description="Delete the items matching the filters. With --path, the "
        "path is taken away from its items and only items seen at no other "
        "path go. At least one filter is required.",
    )
    add_db(p)
    add_filters(p)
    p.add_argument("--dry-run", action="store_true", help="say what would go; change nothing")
    add_common(p)

    add_version_commands(sub)

    p = sub.add_parser(
        "refine",
        help="upgrade fast items in the store with an LLM",
        description="Fast→fine transfer: send stored fast items to an LLM; "
        "the fast item stays, marked as refined and linked to its fine items.",
    )
    add_db(p)
    add_filters(p, mode=False)
    p.add_argument("--mode", dest="refine_mode", help=argparse.SUPPRESS)
    add_llm_options(p)
    p.add_argument("--limit", type=at_least(1), metavar="N", help="refine at most this many items")
    p.add_argument(
        "--force",
        action="store_true",
        help="refine items that were refined before too (replaces their fine items)",
    )
    add_common(p)

    p = sub.add_parser(
        "reembed",
        help="make every item's vector again with another embedder",
        description="Re-embed the store's items with --embedder (default: the offline "
        "default, the bundled static model); the store then records and searches with it. "
        "A store made with the old default (hashing) gets the semantic view this way.",
    )
    add_db(p)
    p.add_argument("--embedder", help="static (default), hashing, openai:MODEL, ollama:MODEL, …")
    add_common(p)

    add_serve(sub)
    add_warm_command(sub)

    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of an item and a search result",
        description="The output contract: JSON Schema (from the pydantic "
        "models) of a memory item, a search result, a read failure and an "
        "ingest report.",
    )
    add_output(p, ["json"], "json")
    add_common(p)
    return ap
