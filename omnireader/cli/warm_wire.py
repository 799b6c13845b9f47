"""The warm process's wire: one JSON object per frame (a 4-byte big-endian length, then
UTF-8 JSON) over a unix socket. Standard library only.

A call: the client sends ``{"op": "run", "ident": …, "argv": …, "cwd": …, "env": …,
"streams": …}``; the process answers at once ``{"accepted": true}`` (or ``{"accepted":
false, "why": …}`` when it is not the client's: another identity, or its code changed on
disk), then ``{"beat": 1}`` every :data:`BEAT_S` while the command runs, then ``{"code": N,
"writes": [[1 or 2, text], …]}``: the exit status and what the command wrote to standard
output (1) and error (2), in order. ``{"failed": …}`` instead means the command crashed
there; the client then runs it itself. ``{"op": "status"}`` and ``{"op": "stop"}`` work
whatever the identity (so ``omnireader warm stop`` stops any version's process).
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

from omnireader.errors import OmniReaderError

__all__ = ["WarmUnavailableError", "send", "receive", "BEAT_S", "MAX_FRAME"]

#: how often a busy warm process says it is alive (a client gives up after a few missed)
BEAT_S = 0.2
#: a frame longer than this is not ours (a search's output is a few hundred KB at most)
MAX_FRAME = 256 * 1024 * 1024
_HEAD = struct.Struct(">I")


class WarmUnavailableError(OmniReaderError):
    """The warm process cannot serve this call (none, dead, hung, another identity, a broken
    frame). The client catches it and runs the command in-process; set
    ``OMNIREADER_WARM_DEBUG=1`` to see why, ``OMNIREADER_WARM=0`` never to try.

    ``reason``: ``gone`` (no process listens), ``hung`` (no answer in time), ``refused``
    (not this client's process), ``broken`` (not the protocol), ``failed`` (the command
    crashed there)."""

    def __init__(self, message: str, reason: str = "broken") -> None:
        super().__init__(message)
        self.reason = reason


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message, ensure_ascii=False).encode("utf-8")
    try:
        sock.sendall(_HEAD.pack(len(data)) + data)
    except OSError as e:
        raise WarmUnavailableError(
            f"the warm process went away while we wrote: {e}", "gone"
        ) from None


def receive(sock: socket.socket, timeout: float | None) -> dict[str, Any]:
    """The next frame; :class:`WarmUnavailableError` if none comes within ``timeout``
    seconds, the peer closes, or the frame is not a JSON object."""
    sock.settimeout(timeout)
    (size,) = _HEAD.unpack(_exactly(sock, _HEAD.size))
    if size > MAX_FRAME:
        raise WarmUnavailableError(f"a frame of {size} bytes: not the warm protocol")
    try:
        message = json.loads(_exactly(sock, size).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise WarmUnavailableError(f"a frame that is not JSON: {e}") from None
    if not isinstance(message, dict):
        raise WarmUnavailableError("a frame that is not a JSON object")
    return message


def _exactly(sock: socket.socket, n: int) -> bytes:
    parts: list[bytes] = []
    while n:
        try:
            chunk = sock.recv(min(n, 1 << 20))
        except TimeoutError:
            raise WarmUnavailableError("the warm process did not answer in time", "hung") from None
        except OSError as e:
            raise WarmUnavailableError(f"the warm process went away: {e}", "gone") from None
        if not chunk:
            raise WarmUnavailableError("the warm process closed the connection", "gone")
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)
