"""The command line's side of a warm process: hand a read-only command to the store's warm
process, or say that it must run in-process (and start one for the next call).

Standard library only (no LanceDB, no pydantic): a handed-over call costs Python's start,
argparse and one round trip. Whatever goes wrong (no process, a dead or hung one, another
identity, a crash there) the command runs in-process, the same as with ``OMNIREADER_WARM=0``:
the output never depends on whether a warm process answered.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

from omnireader.cli import warm_place as place
from omnireader.cli.warm_wire import WarmUnavailableError, receive, send

__all__ = ["Handover", "hand_over", "start", "ANSWER_S"]

#: how long a client waits for an answer (the first, and between a busy process's beats)
#: before it takes the process for hung and runs the command itself
ANSWER_S = 2.0


class Handover:
    """What :func:`hand_over` found: the exit status if the warm process ran the command,
    else whether a warm process should be started once the command ran in-process."""

    __slots__ = ("code", "start_for")  # a plain class: dataclasses costs ~8 ms to import

    def __init__(self, code: int | None = None, start_for: Path | None = None) -> None:
        self.code, self.start_for = code, start_for


def hand_over(args: argparse.Namespace, argv: list[str]) -> Handover:
    if args.command not in place.WARM_COMMANDS or not place.enabled(
        getattr(args, "no_warm", False)
    ):
        return Handover()
    from omnireader.cli.settings import db_path

    store = db_path(args)[0]
    if not store.is_dir() or sys.stdout is None or sys.stderr is None:
        return Handover()  # nothing a warm process could keep open
    folder = place.private_dir()
    if folder is None:
        return Handover()
    ident = place.identity(store)
    key = place.key_of(ident)
    path = place.socket_path(folder, key)
    if not path.exists():
        place.say_debug(f"no warm process for {ident['store']}: in-process, starting one")
        return Handover(start_for=store)
    try:
        try:
            code = _run_there(path, ident, argv)
        except KeyboardInterrupt:  # Ctrl-C while waiting: as in-process (EXIT_INTERRUPTED)
            print("omnireader: interrupted", file=sys.stderr)
            return Handover(code=130)
        place.say_debug(f"handed over to the warm process at {path}")
        return Handover(code=code)
    except WarmUnavailableError as e:
        place.say_debug(f"{e}: in-process")
        if e.reason == "hung":
            _end_hung(folder, key)
        # A process that is gone, hung or not ours is replaced; one whose command crashed
        # (or that speaks another protocol) is left to its idle exit.
        return Handover(start_for=store if e.reason in ("gone", "hung", "refused") else None)


def _run_there(path: Path, ident: dict[str, str], argv: list[str]) -> int:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(ANSWER_S)
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError) as e:
            raise WarmUnavailableError(f"no warm process listens: {e}", "gone") from None
        except OSError as e:
            raise WarmUnavailableError(f"cannot connect: {e}", "gone") from None
        send(
            sock,
            {
                "op": "run",
                "ident": ident,
                "argv": argv,
                "cwd": os.getcwd(),
                "env": dict(os.environ),
                "streams": {"out": _stream(sys.stdout), "err": _stream(sys.stderr)},
            },
        )
        answer = receive(sock, ANSWER_S)
        if not answer.get("accepted"):
            raise WarmUnavailableError(
                f"refused: {answer.get('why', 'no reason given')}", "refused"
            )
        while True:
            answer = receive(sock, ANSWER_S)
            if "beat" in answer:
                continue
            if "failed" in answer:
                raise WarmUnavailableError(
                    f"the command failed there: {answer['failed']}", "failed"
                )
            return _replay(answer)
    finally:
        sock.close()


def _stream(fp: TextIO) -> dict[str, Any]:
    """What the command may ask of standard output or error there, answered as here."""
    try:
        tty = fp.isatty()
    except (AttributeError, ValueError):
        tty = False
    return {
        "tty": tty,
        "encoding": getattr(fp, "encoding", None) or "utf-8",
        "errors": getattr(fp, "errors", None) or "strict",
    }


def _replay(answer: dict[str, Any]) -> int:
    """Write what the command wrote there through this process's own streams (their
    encoding and buffering are this process's, as in-process)."""
    try:
        for fd, text in answer.get("writes", []):
            (sys.stdout if fd == 1 else sys.stderr).write(text)
    except BrokenPipeError:  # `omnireader search … | head`, as cli.main does
        return 0
    return int(answer.get("code", 1))


def _end_hung(folder: Path, key: str) -> None:
    """Kill a warm process that stopped answering (only if its pid is still that process:
    its command line names its key), so the next call starts a fresh one."""
    import signal

    try:
        pid = int(place.pid_path(folder, key).read_text())
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if key.encode() not in f.read():
                return
        os.kill(pid, signal.SIGKILL)
        place.socket_path(folder, key).unlink(missing_ok=True)
        place.say_debug(f"killed the hung warm process {pid}")
    except (OSError, ValueError):
        pass  # gone already, or no /proc: it exits on its own when idle


def start(store: Path) -> None:
    """Start the store's warm process, detached (its own session, no terminal, no output
    unless ``OMNIREADER_WARM_DEBUG``). Two at once: the second sees the first's lock and
    exits. Never fails the command: a process that cannot start is simply not there."""
    import subprocess
    import time

    folder = place.private_dir()
    if folder is None:
        return
    ident = place.identity(store)
    key = place.key_of(ident)
    env = dict(os.environ)
    # The same omnireader as this process, however it was found (PYTHONPATH, cwd).
    root = str(Path(ident["package"]).parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    try:
        log = open(place.log_path(folder, key), "ab") if place.debug() else subprocess.DEVNULL  # noqa: SIM115
        started = time.perf_counter()
        subprocess.Popen(
            [sys.executable, "-m", "omnireader.cli.warm_server", ident["store"], key],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd="/",
            env=env,
            start_new_session=True,
        )
        place.say_debug(f"started a warm process in {time.perf_counter() - started:.3f} s")
    except OSError as e:
        place.say_debug(f"could not start a warm process: {e}")
