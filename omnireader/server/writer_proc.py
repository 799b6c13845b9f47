"""Ingest in a child process, so the server's own interpreter and cores stay with searches.

Measured under upload load (``bench/bench_server.py``), more CPU went to LanceDB's native
threads than to Python, and those threads are shared: a write's ``merge_insert`` and the
index upkeep ran in the same pool as the searches' queries, at the same priority (a thread's
nice value does not reach them), and the writer's Python (parsing results, embedding, Arrow
building) held the server's interpreter lock between a search's steps. A separate process
fixes all three: it has its own interpreter lock and its own LanceDB threads, and the whole
process, every thread it will ever start included, runs at the ingest nice value (it is set
before anything else runs, and threads inherit it).

The child (:mod:`.writer_child`) reads one JSON request a line on stdin and answers one JSON
line on a private copy of stdout; it writes through the same ``Store``, so exactly-once holds
as before. When the child dies, the call raises :class:`WriterDiedError`; :class:`WriterPool`
starts a new child and tries the group once more (re-reading a file is an upsert, so nothing
is written twice).

    python -m omnireader.server.writer_proc   # started by the server, not by hand
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from omnireader.errors import ServiceError

__all__ = ["WriterDiedError", "WriterProcess", "WriterPool"]


class WriterDiedError(RuntimeError):
    """The ingest process ended before it answered."""


class WriterProcess:
    """One child ingest process (parent side). Not thread-safe: :class:`WriterPool` lends it
    to one job thread at a time."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        # the child must import the same omnireader as the server
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "omnireader.server.writer_proc"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._send(self.settings)
        ready = self._receive()
        if not ready.get("ok"):
            self.stop()
            raise WriterDiedError(f"the ingest process did not start: {ready.get('error')}")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        if not self.alive():
            self.start()
        self._send(request)
        answer = self._receive()
        if not answer.get("ok"):
            raise ServiceError(answer.get("error") or "the ingest process failed")
        return answer

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            try:  # its end of the pipe closes when it exits
                code: int | str = self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                code = "unknown"
            raise WriterDiedError(
                f"the ingest process ended (exit status {code}) before it took the request ({e})"
            ) from None

    def _receive(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise WriterDiedError(
                f"the ingest process ended (exit status {code}) before it answered"
            )
        return dict(json.loads(line))

    def stop(self, timeout: float = 120) -> None:
        """Let the child finish its index upkeep and exit (killed after ``timeout``)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()  # EOF: the child folds new rows in and exits
            proc.wait(timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


class WriterPool:
    """Up to ``size`` child processes, lent to job threads one call at a time."""

    def __init__(self, settings: dict[str, Any], size: int = 1) -> None:
        self.settings = settings
        self._idle: list[WriterProcess] = []
        self._all: list[WriterProcess] = []
        self._free = threading.Semaphore(max(1, size))
        self._lock = threading.Lock()
        self.restarts = 0
        self.calls = 0  # requests run (a burst of jobs is one)

    def ingest(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run one request; a child that dies mid-call is replaced and the call tried once
        more (an upsert: nothing doubles), then the error goes to the job."""
        with self._free:
            with self._lock:
                self.calls += 1
                writer = self._idle.pop() if self._idle else None
                if writer is None:
                    writer = WriterProcess(self.settings)
                    self._all.append(writer)
            try:
                try:
                    return writer.call(request)
                except WriterDiedError:
                    with self._lock:
                        self.restarts += 1
                    return writer.call(request)  # a fresh child (call starts it)
            finally:
                with self._lock:
                    self._idle.append(writer)

    def prestart(self) -> None:
        """Start one child now, in the background: its imports take seconds, which the first
        upload should not wait for."""

        def start() -> None:
            with self._free:  # a job arriving meanwhile waits for this child
                with self._lock:
                    if self._all:
                        return
                    writer = WriterProcess(self.settings)
                    self._all.append(writer)
                try:
                    writer.start()
                except WriterDiedError:
                    pass  # the first call starts it again and reports the reason
                with self._lock:
                    self._idle.append(writer)

        threading.Thread(target=start, name="omnireader-writer-start", daemon=True).start()

    def pids(self) -> list[int]:
        with self._lock:
            return [w.pid for w in self._all if w.alive() and w.pid is not None]

    def close(self) -> None:
        with self._lock:
            writers, self._all, self._idle = self._all, [], []
        for w in writers:
            w.stop()


if __name__ == "__main__":  # the child's command line names this module (WriterProcess.start)
    from omnireader.server.writer_child import main

    main()
