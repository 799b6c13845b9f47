"""The ``omnireader`` command line: read, ingest, search, stats, export, delete, update,
history, archive, rollback, refine, reembed, schema.

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
from typing import Any

from omnireader.cli.parser import build_parser
from omnireader.cli.values import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
)

__all__ = ["main", "build_parser", "dump_json"]


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help()
        return EXIT_USAGE
    from omnireader.cli.warm_client import hand_over, start

    # A read-only command goes to the store's warm process if one answers (LanceDB is
    # imported there already); else it runs here, and a warm process starts for the next.
    handed = hand_over(args, sys.argv[1:] if argv is None else list(argv))
    if handed.code is not None:
        return handed.code
    code = _run(args)
    if handed.start_for is not None and code == EXIT_OK:
        start(handed.start_for)
    return code


def _run(args: argparse.Namespace) -> int:
    from omnireader.errors import (
        ConfigError,
        FineModeUnavailableError,
        InvalidInputError,
        OmniReaderError,
    )

    try:
        if args.command == "warm":  # standard library only, like the client
            from omnireader.cli.warm_command import cmd_warm as command
        else:
            from omnireader.cli.plugin_scan import skip_empty_plugin_scan

            skip_empty_plugin_scan()  # before the first pydantic model is built
            from omnireader.cli import (
                commands,  # the commands pull in the package; --help never pays for it
            )

            command = getattr(commands, f"cmd_{args.command}")
        return int(command(args) or EXIT_OK)
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
