"""Where a warm process lives and who may use it: the private directory, the name of a
store's socket, and the identity a client and its warm process must share.

A warm process (:mod:`omnireader.cli.warm_server`) keeps LanceDB imported so that read-only
commands (:data:`WARM_COMMANDS`) skip its ~0.5 s import. It is found by a name made from its
identity: the store's resolved path, omnireader's version, the package's directory and the
interpreter. Another install, version, checkout or Python gets another name, so it never
uses a process it did not start. Standard library only: the client path stays light.

Settings (environment): ``OMNIREADER_WARM=0`` (or ``off``/``no``/``false``) never hands over
and never starts a warm process (``--no-warm`` does the same for one command);
``OMNIREADER_WARM_IDLE`` the seconds a warm process waits for a call before it exits (600);
``OMNIREADER_WARM_DIR`` its directory (default ``$XDG_RUNTIME_DIR/omnireader-warm``, else
``/tmp/omnireader-warm-<uid>``); ``OMNIREADER_WARM_DEBUG=1`` says on standard error why a
call ran in-process and logs the warm process to ``<key>.log`` beside its socket.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import sys
from pathlib import Path

from omnireader._version import __version__

__all__ = [
    "WARM_COMMANDS",
    "IDLE_DEFAULT_S",
    "enabled",
    "idle_seconds",
    "debug",
    "say_debug",
    "private_dir",
    "identity",
    "key_of",
    "socket_path",
    "pid_path",
    "lock_path",
    "log_path",
]

#: the commands that only read a store: the ones a warm process runs (writes never do)
WARM_COMMANDS = frozenset({"search", "stats", "history"})
IDLE_DEFAULT_S = 600.0
_OFF = {"0", "off", "no", "false"}


def enabled(no_warm_flag: bool = False) -> bool:
    """Whether this call may use (or start) a warm process."""
    if no_warm_flag or not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return False  # platforms without unix sockets: always in-process
    return os.environ.get("OMNIREADER_WARM", "1").strip().lower() not in _OFF


def idle_seconds() -> float:
    """``OMNIREADER_WARM_IDLE`` (seconds, > 0), else :data:`IDLE_DEFAULT_S`."""
    try:
        value = float(os.environ.get("OMNIREADER_WARM_IDLE", ""))
    except ValueError:
        return IDLE_DEFAULT_S
    return value if value > 0 else IDLE_DEFAULT_S


def debug() -> bool:
    return os.environ.get("OMNIREADER_WARM_DEBUG", "").strip().lower() not in _OFF | {""}


def say_debug(text: str) -> None:
    """A line on standard error, only with ``OMNIREADER_WARM_DEBUG``: the warm machinery is
    otherwise silent on the user's terminal."""
    if debug():
        print(f"omnireader-warm: {text}", file=sys.stderr)


def private_dir(create: bool = True) -> Path | None:
    """The directory of the user's warm sockets, made 0700; None if it is not ours alone
    (another owner, group or world access, a symlink): then nothing is handed over."""
    given = os.environ.get("OMNIREADER_WARM_DIR")
    if given:
        base = Path(given)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        base = Path(os.environ["XDG_RUNTIME_DIR"]) / "omnireader-warm"
    else:
        import tempfile

        base = Path(tempfile.gettempdir()) / f"omnireader-warm-{os.getuid()}"
    try:
        if create:
            base.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(base)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or stat.S_IMODE(st.st_mode) & 0o077:
        say_debug(f"{base} is not a private directory of this user (0700): not used")
        return None
    return base


def identity(store: Path) -> dict[str, str]:
    """What a warm process must share with its client to serve it."""
    import omnireader

    return {
        "store": str(store.expanduser().resolve()),
        "version": __version__,
        "package": str(Path(omnireader.__file__).resolve().parent),
        "python": sys.executable,
    }


def key_of(ident: dict[str, str]) -> str:
    """The file name (without suffix) of the identity's socket: short, for AF_UNIX's ~100
    byte limit on a path."""
    blob = json.dumps(ident, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:24]


def socket_path(folder: Path, key: str) -> Path:
    return folder / f"{key}.sock"


def pid_path(folder: Path, key: str) -> Path:
    return folder / f"{key}.pid"


def lock_path(folder: Path, key: str) -> Path:
    return folder / f"{key}.lock"


def log_path(folder: Path, key: str) -> Path:
    return folder / f"{key}.log"
