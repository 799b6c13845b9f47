"""A store's warm process: LanceDB imported once, then read-only commands run one at a time
for clients (:mod:`omnireader.cli.warm_client`) on a unix socket; it exits after
``OMNIREADER_WARM_IDLE`` seconds without a call, on ``omnireader warm stop``, or when its own
code changed on disk.

    python -m omnireader.cli.warm_server STORE KEY      (started by the client, detached)

Each call runs the command line's own ``main`` with the client's arguments, working
directory and environment, its output captured and sent back; the store is opened afresh
for every call (LanceDB reads its latest version then), so a search sees what another
process wrote a moment ago. What the process keeps between calls is only what an import
builds; state a command would build once per process is reset (:func:`_reset_per_call`).
"""

from __future__ import annotations

import fcntl
import io
import os
import socket
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from omnireader.cli import warm_place as place
from omnireader.cli import warm_starting as starting
from omnireader.cli.warm_wire import BEAT_S, WarmUnavailableError, receive, send

__all__ = ["serve", "run_captured"]

_REQUEST_S = 2.0  # a client sends its request at once; a silent one is dropped


class _Captured(io.TextIOBase):
    """Standard output or error as the client has it (a terminal or not, its encoding),
    writing into the call's ordered list of writes."""

    def __init__(self, fd: int, writes: list[list[Any]], spec: dict[str, Any]) -> None:
        self._fd, self._writes = fd, writes
        self._tty = bool(spec.get("tty"))
        self._encoding = str(spec.get("encoding") or "utf-8")
        self._errors = str(spec.get("errors") or "strict")

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    @property
    def errors(self) -> str:  # type: ignore[override]
        return self._errors

    def isatty(self) -> bool:
        return self._tty

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text.encode(self._encoding, self._errors)  # fails here as it would there
        if self._writes and self._writes[-1][0] == self._fd:
            self._writes[-1][1] += text
        else:
            self._writes.append([self._fd, text])
        return len(text)


def _reset_per_call() -> None:
    """Forget what a command keeps for the rest of its process, so each call behaves as a
    fresh process: the routing names' short grace for a changed table (here: always read at
    the table's current version) and the once-per-process embedder fallback notice."""
    routing = sys.modules.get("omnireader.store.routing")
    if routing is not None:
        routing._cache.clear()
    embedding = sys.modules.get("omnireader.llm.embedding")
    if embedding is not None:
        embedding._fallback_said = False


def run_captured(
    argv: list[str], cwd: str, env: dict[str, str], streams: dict[str, Any]
) -> tuple[int, list[list[Any]]]:
    """``omnireader ARGV`` as the client would have run it: its exit status and writes."""
    import warnings

    from omnireader.cli.main import main

    writes: list[list[Any]] = []
    saved = (dict(os.environ), os.getcwd(), sys.stdout, sys.stderr, sys.stdin)
    try:
        os.environ.clear()
        os.environ.update(env)
        os.environ["OMNIREADER_WARM"] = "0"  # the command runs here: never hand it over again
        os.chdir(cwd)
        sys.stdout = _Captured(1, writes, streams.get("out", {}))
        sys.stderr = _Captured(2, writes, streams.get("err", {}))
        sys.stdin = io.StringIO("")
        _reset_per_call()
        with warnings.catch_warnings():  # each call shows its warnings, as a fresh process
            try:
                code = main(argv)
            except SystemExit as e:
                code = _exit_status(e.code)
    finally:
        environ, old_cwd, sys.stdout, sys.stderr, sys.stdin = saved
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(old_cwd)
    return code, writes


def _exit_status(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # what Python does with sys.exit("message")
    return 1


class _Server:
    """Calls come on their own threads (each is answered at once and kept alive with beats,
    so a call waiting behind another is not taken for a hung process); commands run one at
    a time (they share the process's standard streams, environment and directory)."""

    def __init__(self, ident: dict[str, str]) -> None:
        self.ident = ident
        self.started = time.time()
        self.calls = 0
        self.mtimes: dict[str, int] = {}
        self.stopping = False
        self.busy = 0
        self.last = time.monotonic()  # the end of the last command: the idle clock
        self.state = threading.Lock()
        self.running = threading.Lock()

    def code_changed(self) -> bool:
        """Whether a module this process loaded changed on disk since (it then serves no
        more: the client runs the command itself and starts a process with the new code)."""
        for name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if not file or not name.startswith("omnireader"):
                continue
            try:
                mtime = os.stat(file).st_mtime_ns
            except OSError:
                return True
            if self.mtimes.setdefault(file, mtime) != mtime:
                return True
        return False

    def quiet_for(self) -> float | None:
        """Seconds since the last command ended; None while one runs or waits."""
        with self.state:
            return None if self.busy else time.monotonic() - self.last

    def serve(self, conn: socket.socket) -> None:
        with conn:
            try:
                self.handle(conn)
            except (WarmUnavailableError, OSError, KeyError, TypeError) as e:
                print(f"a call failed: {e!r}", file=sys.stderr)  # logged with DEBUG only
            finally:
                with self.state:
                    self.busy -= 1

    def handle(self, conn: socket.socket) -> None:
        request = receive(conn, _REQUEST_S)
        op = request.get("op")
        if op == "status":
            send(conn, {"pid": os.getpid(), "ident": self.ident, "calls": self.calls,
                        "started": self.started, "idle_s": place.idle_seconds()})  # fmt: skip
            return
        if op == "stop":
            self.stopping = True
            send(conn, {"stopping": True, "pid": os.getpid()})
            return
        why = None
        if request.get("ident") != self.ident:
            why = "another identity (store, version, package or interpreter)"
        elif self.code_changed():
            why, self.stopping = "its code changed on disk", True
        if why:
            send(conn, {"accepted": False, "why": why})
            return
        send(conn, {"accepted": True})
        done = threading.Event()

        def beat() -> None:  # "alive", while the command waits for its turn and runs
            while not done.wait(BEAT_S):
                try:
                    send(conn, {"beat": 1})
                except WarmUnavailableError:
                    return  # the client went away (Ctrl-C): its reply is dropped too

        beating = threading.Thread(target=beat, daemon=True)
        beating.start()
        try:
            with self.running:
                self.calls += 1
                try:
                    code, writes = run_captured(
                        list(request["argv"]), request["cwd"], request["env"], request["streams"]
                    )
                    reply: dict[str, Any] = {"code": code, "writes": writes}
                except Exception:  # the client runs it in-process and shows the real error
                    reply = {"failed": traceback.format_exc(limit=5)}
                with self.state:
                    self.last = time.monotonic()
        finally:
            done.set()
            beating.join()
        send(conn, reply)


def serve(store: str, expected_key: str) -> int:
    folder = place.private_dir()
    if folder is None:
        return 2
    ident = place.identity(Path(store))
    key = place.key_of(ident)
    if key != expected_key:  # not the omnireader the client runs: it could never use us
        print(f"identity {ident} is not the client's key {expected_key}", file=sys.stderr)
        return 2
    lock = open(place.lock_path(folder, key), "w")  # noqa: SIM115 - held for life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # another one serves this store already
    server = _Server(ident)
    path = place.socket_path(folder, key)
    listening = False

    def stop_listening() -> bool:  # SIGTERM: once listening, a stop as over the socket
        server.stopping = server.stopping or listening
        return listening

    # Starting (`warm status` lists it, `warm stop` ends it) until it listens.
    def gone() -> None:  # killed before listening: nothing of ours is left (we hold the lock)
        for left in (path, place.pid_path(folder, key)):
            left.unlink(missing_ok=True)
        starting.unmark(folder, key)

    starting.on_terminate(stop_listening, gone)
    starting.mark(folder, key, ident)
    try:
        # Warm up before listening: import LanceDB, open the store once; clients meanwhile
        # run in-process rather than wait on a process that is not ready.
        run_captured(["stats", "--db", ident["store"], "--no-warm"], "/", dict(os.environ), {})
        server.code_changed()  # record the loaded modules' mtimes
        path.unlink(missing_ok=True)  # a dead predecessor's (we hold the lock)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(path))
        os.chmod(path, 0o600)
        listener.listen(8)
        place.pid_path(folder, key).write_text(str(os.getpid()))
        listening = True
    finally:
        starting.unmark(folder, key)
    idle, home = place.idle_seconds(), Path(ident["store"])
    server.last = time.monotonic()
    listener.settimeout(min(idle, 0.25))  # how soon a stop or the idle time is noticed
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                quiet = server.quiet_for()
                if quiet is not None and (
                    server.stopping or quiet >= idle or _orphaned(path, home)
                ):
                    break
                continue
            with server.state:
                server.busy += 1
            threading.Thread(target=server.serve, args=(conn,), daemon=True).start()
    finally:
        path.unlink(missing_ok=True)
        place.pid_path(folder, key).unlink(missing_ok=True)
        listener.close()
    return 0


def _orphaned(path: Path, store: Path) -> bool:
    """Whether no call can reach us or want us any more: the socket file was removed (a
    cleaned directory) or the store was (a temporary store deleted): no need to sit out the
    idle time."""
    return not path.exists() or not store.is_dir()


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1], sys.argv[2]))
