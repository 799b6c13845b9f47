"""The version commands: ``update``, ``history``, ``archive``, ``rollback`` (and what they
print). Parsers here, beside their commands, so :mod:`.main` only wires them in; like the
other commands, each imports what it needs when it runs (``--help`` stays fast)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from omnireader.cli.arguments import add_common, add_db, add_no_warm, add_output
from omnireader.cli.values import EXIT_OK, at_least

__all__ = ["add_version_commands", "cmd_update", "cmd_history", "cmd_archive", "cmd_rollback"]

_REASONS = ["edit", "duplicate", "update", "conflict", "source_changed"]


# One version command: name, help, description, its positional arguments, its own options
# (after --db), and the formats it prints items in (None: it prints a count).
_Arg = tuple[tuple[str, ...], dict[str, Any]]
_ID: _Arg = (("item_id",), {"metavar": "ID"})
_COMMANDS: list[tuple[str, str, str, list[_Arg], list[_Arg], list[str] | None]] = [
    (
        "update",
        "change a stored memory, keeping its old version in its history",
        "Write a new current version of the item ID (version + 1); the previous version "
        "stays in the item's history (see history, rollback).",
        [_ID],
        [
            (("--memory",), {"metavar": "TEXT", "help": "the new text (default: keep it)"}),
            (
                ("--metadata",),
                {
                    "metavar": "JSON",
                    "help": "metadata fields to change, as a JSON object "
                    '(e.g. \'{"tags": ["moved"]}\')',
                },
            ),
        ],
        ["text", "json"],
    ),
    (
        "history",
        "every version of a memory, oldest first",
        "The versions of the item ID, oldest first, the current one last, each with its "
        "version, time and why it changed; and the memories it replaced.",
        [_ID],
        [],
        ["text", "json", "jsonl"],
    ),
    (
        "archive",
        "take memories out of search, keeping them in their history",
        "Archive the items: default searches no longer return them; search "
        "--include-archived, history and rollback still do.",
        [(("item_ids",), {"nargs": "+", "metavar": "ID"})],
        [
            (("--reason",), {"choices": _REASONS, "default": "edit", "help": "why (default edit)"}),
            (("--superseded-by",), {"metavar": "ID", "help": "the item that replaces them"}),
        ],
        None,
    ),
    (
        "rollback",
        "make an older version of a memory current again",
        "Write version VERSION of the item ID as its new current version; the current one "
        "(if any) goes to the history.",
        [_ID, (("version",), {"type": at_least(1), "metavar": "VERSION"})],
        [],
        ["text", "json"],
    ),
]


def add_version_commands(sub: Any) -> None:
    for name, summary, description, positional, options, formats in _COMMANDS:
        p = sub.add_parser(name, help=summary, description=description)
        for names, spec in positional:
            p.add_argument(*names, **spec)
        add_db(p)
        for names, spec in options:
            p.add_argument(*names, **spec)
        if formats:
            add_output(p, formats, "text")
        if name == "history":  # the one version command that only reads
            add_no_warm(p)
        add_common(p)


def _metadata(text: str | None) -> dict[str, Any] | None:
    from omnireader.errors import ConfigError

    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"--metadata is not JSON ({e.msg}): give an object") from None
    if not isinstance(value, dict):
        raise ConfigError("--metadata must be a JSON object of metadata fields")
    return value


def _print_one(args: argparse.Namespace, change: Any) -> None:
    """Run ``change()`` and print the item it returns (the output opens first: a bad
    ``--output`` is reported before anything is written)."""
    from omnireader.cli.output import output, render_item

    with output(args) as out:
        item = change()
        if args.format == "json":
            print(item.model_dump_json(indent=2), file=out)
        else:
            print(render_item(item, width=10**9), file=out)


def cmd_update(args: argparse.Namespace) -> int:
    from omnireader.cli.settings import open_store
    from omnireader.errors import ConfigError

    changes = _metadata(args.metadata)
    if args.memory is None and changes is None:
        raise ConfigError("update needs --memory TEXT and/or --metadata JSON")
    store = open_store(args)
    _print_one(args, lambda: store.update(args.item_id, memory=args.memory, metadata=changes))
    return EXIT_OK


def cmd_history(args: argparse.Namespace) -> int:
    from omnireader.cli.output import output, print_models, render_item, say
    from omnireader.cli.settings import open_store

    versions = open_store(args).history(args.item_id)
    with output(args) as out:
        if not print_models(versions, args.format, out):
            if not versions:
                say(args, f"no item or history for {args.item_id!r}")
            for v in versions:
                print(render_item(v, width=10**9), file=out)
    return EXIT_OK


def cmd_archive(args: argparse.Namespace) -> int:
    from omnireader.cli.output import plural
    from omnireader.cli.settings import open_store

    store = open_store(args)
    n = store.archive(args.item_ids, args.reason, superseded_by=args.superseded_by)
    if n:
        store.optimize()
    if not args.quiet:
        print(f"archived {plural(n, 'item')}")
    return EXIT_OK


def cmd_rollback(args: argparse.Namespace) -> int:
    from omnireader.cli.settings import open_store

    store = open_store(args)
    _print_one(args, lambda: store.rollback(args.item_id, args.version))
    return EXIT_OK
