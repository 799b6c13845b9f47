"""The version commands: ``update``, ``history``, ``archive``, ``rollback`` (and what they
print). Parsers here, beside their commands, so :mod:`.main` only wires them in; like the
other commands, each imports what it needs when it runs (``--help`` stays fast)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from omnireader.cli.arguments import add_common, add_db, add_output
from omnireader.cli.values import EXIT_OK, at_least

__all__ = ["add_version_commands", "cmd_update", "cmd_history", "cmd_archive", "cmd_rollback"]

_REASONS = ["edit", "duplicate", "update", "conflict", "source_changed"]


def add_version_commands(sub: Any) -> None:
    p = sub.add_parser(
        "update",
        help="change a stored memory, keeping its old version in its history",
        description="Write a new current version of the item ID (version + 1); the "
        "previous version stays in the item's history (see history, rollback).",
    )
    p.add_argument("item_id", metavar="ID")
    add_db(p)
    p.add_argument("--memory", metavar="TEXT", help="the new text (default: keep it)")
    p.add_argument(
        "--metadata",
        metavar="JSON",
        help='metadata fields to change, as a JSON object (e.g. \'{"tags": ["moved"]}\')',
    )
    add_output(p, ["text", "json"], "text")
    add_common(p)

    p = sub.add_parser(
        "history",
        help="every version of a memory, oldest first",
        description="The versions of the item ID, oldest first, the current one last, "
        "each with its version, time and why it changed; and the memories it replaced.",
    )
    p.add_argument("item_id", metavar="ID")
    add_db(p)
    add_output(p, ["text", "json", "jsonl"], "text")
    add_common(p)

    p = sub.add_parser(
        "archive",
        help="take memories out of search, keeping them in their history",
        description="Archive the items: default searches no longer return them; "
        "search --include-archived, history and rollback still do.",
    )
    p.add_argument("item_ids", nargs="+", metavar="ID")
    add_db(p)
    p.add_argument("--reason", choices=_REASONS, default="edit", help="why (default edit)")
    p.add_argument("--superseded-by", metavar="ID", help="the item that replaces them")
    add_common(p)

    p = sub.add_parser(
        "rollback",
        help="make an older version of a memory current again",
        description="Write version VERSION of the item ID as its new current version; the "
        "current one (if any) goes to the history.",
    )
    p.add_argument("item_id", metavar="ID")
    p.add_argument("version", type=at_least(1), metavar="VERSION")
    add_db(p)
    add_output(p, ["text", "json"], "text")
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
    from omnireader.cli.output import output, render_item, say
    from omnireader.cli.settings import open_store

    versions = open_store(args).history(args.item_id)
    with output(args) as out:
        if args.format == "json":
            dumped = [v.model_dump(mode="json") for v in versions]
            print(json.dumps(dumped, ensure_ascii=False, indent=2), file=out)
        elif args.format == "jsonl":
            for v in versions:
                print(v.model_dump_json(), file=out)
        else:
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
