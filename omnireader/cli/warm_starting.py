"""A warm process that is starting: it holds its store's lock and imports LanceDB, but does
not listen yet (it listens once warm, so that no call waits on it meanwhile).

It says so in ``<key>.starting`` (its pid and identity, written as soon as it holds the lock,
removed once it listens or exits), so ``omnireader warm status`` can list it and
``omnireader warm stop`` can stop it (SIGTERM: :func:`on_terminate`) instead of missing it
and letting it come up a moment later. A marker whose process is gone (killed while
starting) is ignored: the pid must be alive and, where ``/proc`` tells, be that process
(its command line names its key). Standard library only, like the client.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["mark", "unmark", "starting", "stop", "on_terminate"]

_SUFFIX = ".starting"


def _path(folder: Path, key: str) -> Path:
    return folder / f"{key}{_SUFFIX}"


def mark(folder: Path, key: str, ident: dict[str, str]) -> None:
    """Say that this process, holding ``key``'s lock, is starting (written whole, then
    renamed: a reader never sees half of it)."""
    path = _path(folder, key)
    part = path.with_name(f"{path.name}.{os.getpid()}")
    part.write_text(json.dumps({"pid": os.getpid(), "ident": ident, "started": time.time()}))
    os.replace(part, path)


def unmark(folder: Path, key: str) -> None:
    _path(folder, key).unlink(missing_ok=True)


def _is_process(pid: int, key: str) -> bool:
    """Whether ``pid`` is alive and is the warm process of ``key`` (not a zombie, not
    another program that got the pid since)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if key.encode() not in f.read():
                return False
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b") ", 1)[1][:1] != b"Z"
    except OSError:
        return True  # no /proc (macOS): the pid alone says it


def starting(folder: Path, wanted: str | None = None) -> list[dict[str, Any]]:
    """The live starting processes in ``folder`` that do not listen yet (only the store
    ``wanted``'s, a resolved path, if given): each ``{"pid", "ident", "key"}``."""
    found = []
    for path in sorted(folder.glob(f"*{_SUFFIX}")):
        key = path.name[: -len(_SUFFIX)]
        if path.with_name(f"{key}.sock").exists():
            continue  # it listens: ``warm status`` asks it
        try:
            info = json.loads(path.read_text())
            pid = int(info["pid"])
            ident = dict(info["ident"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if wanted and ident.get("store") != wanted:
            continue
        if _is_process(pid, key):
            found.append({"pid": pid, "ident": ident, "key": key})
    return found


def stop(entry: dict[str, Any], seconds: float = 5.0) -> bool:
    """SIGTERM a starting process and wait until it is gone; whether it went."""
    pid, key = entry["pid"], entry["key"]
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    end = time.monotonic() + seconds
    while _is_process(pid, key):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def on_terminate(stop_listening: Callable[[], bool], cleanup: Callable[[], None]) -> None:
    """SIGTERM (``warm stop`` of a starting process): before the process listens, take its
    files away and exit at once, mid-import or not; once it listens, ``stop_listening()``
    (True) has told it to stop as ``warm stop`` over the socket does, and it exits from its
    loop."""

    def handler(signum: int, frame: Any) -> None:
        if stop_listening():
            return
        cleanup()
        os._exit(0)

    signal.signal(signal.SIGTERM, handler)
