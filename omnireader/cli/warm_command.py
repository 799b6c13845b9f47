"""``omnireader warm status`` and ``omnireader warm stop``: the user's warm processes (see
:mod:`omnireader.cli.warm_place`), listed or stopped; with ``--db``, only that store's.
Standard library only, like the client."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

from omnireader.cli import warm_place as place
from omnireader.cli import warm_starting as starting
from omnireader.cli.warm_wire import WarmUnavailableError, receive, send

__all__ = ["add_warm_command", "cmd_warm", "ask_all", "starting_ones"]


def add_warm_command(sub: Any) -> None:
    p = sub.add_parser(
        "warm",
        help="list or stop the warm processes that answer read-only commands",
        description="search, stats and history hand their work to a warm process per store "
        "(LanceDB stays imported there; started by the first call, gone after "
        "OMNIREADER_WARM_IDLE seconds without a call, 600 by default). OMNIREADER_WARM=0 or "
        "--no-warm runs every command in-process and starts none.",
    )
    p.add_argument("action", choices=["status", "stop"])
    p.add_argument(
        "--db", default=None, metavar="DIR", help="only this store's (default: every store's)"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing")


def ask_all(op: str, store: Path | None = None) -> list[dict[str, Any]]:
    """Send ``op`` (status or stop) to each of the user's warm processes that answers (any
    version's: these two operations do not check identity); their answers."""
    folder = place.private_dir(create=False)
    if folder is None:
        return []
    wanted = str(store.expanduser().resolve()) if store else None
    answers = []
    for path in sorted(folder.glob("*.sock")):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(2.0)
            sock.connect(str(path))
            send(sock, {"op": "status"})
            status = receive(sock, 2.0)
            if wanted and status.get("ident", {}).get("store") != wanted:
                continue
            if op == "stop":
                sock.close()
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(2.0)
                sock.connect(str(path))
                send(sock, {"op": "stop"})
                receive(sock, 2.0)
                _wait_gone(path)
            answers.append(status)
        except (OSError, WarmUnavailableError):
            continue  # a dead one's socket: the next process for that store replaces it
        finally:
            sock.close()
    return answers


def _wait_gone(path: Path, seconds: float = 3.0) -> None:
    """Until the stopped process has taken its socket away (it does as it exits)."""
    import time

    end = time.monotonic() + seconds
    while path.exists() and time.monotonic() < end:
        time.sleep(0.02)


def cmd_warm(args: argparse.Namespace) -> int:
    if args.db and not Path(args.db).expanduser().is_dir():
        from omnireader.errors import ConfigError

        raise ConfigError(
            f"--db {args.db!r} is not a store directory: name the store whose warm process "
            f"to {'stop' if args.action == 'stop' else 'list'}, or leave --db out for all"
        )
    store = Path(args.db) if args.db else None
    answers = ask_all(args.action, store)
    # Those still importing LanceDB (no socket yet): listed, or stopped with a signal.
    early = starting_ones(store)
    if args.action == "stop":
        early = [e for e in early if starting.stop(e)]
    if args.quiet:
        return 0
    verb = "stopped" if args.action == "stop" else "running"
    if not answers and not early:
        print(f"no warm process {'to stop' if args.action == 'stop' else 'running'}")
    for a in answers:
        ident = a.get("ident", {})
        print(
            f"{verb}: pid {a.get('pid')} · {ident.get('store')} · omnireader "
            f"{ident.get('version')} · {a.get('calls')} calls · idle exit after "
            f"{a.get('idle_s'):g} s"
        )
    for e in early:
        ident = e["ident"]
        print(
            f"{'stopped' if args.action == 'stop' else 'starting'}: pid {e['pid']} · "
            f"{ident.get('store')} · omnireader {ident.get('version')} · "
            f"{'was starting' if args.action == 'stop' else 'warming up, not answering yet'}"
        )
    return 0


def starting_ones(store: Path | None = None) -> list[dict[str, Any]]:
    """The user's warm processes that are starting (any version's; only ``store``'s if given)."""
    folder = place.private_dir(create=False)
    if folder is None:
        return []
    return starting.starting(folder, str(store.expanduser().resolve()) if store else None)
