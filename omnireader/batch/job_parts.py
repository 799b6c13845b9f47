"""A pool job handing back its result in pieces while it runs.

A worker that has read a big file sends its items a piece at a time, so the writer embeds
and writes the first pieces while the worker still prepares the rest (:mod:`.file_task`).
The pool sets the sender around each job it runs (:mod:`.workers`); elsewhere (the caller's
own process, a Ray task) there is none, and the job returns its result whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["can_send_parts", "send_part", "sending_parts"]

_sender: Callable[[Any], None] | None = None


def can_send_parts() -> bool:
    """True in a pool worker running a job."""
    return _sender is not None


def send_part(value: Any) -> None:
    """Hand ``value`` to the pool now, as one piece of the running job's result (the pool
    yields it as a ``partial`` result); the job's return value still ends the job. Blocks
    while the pool has not read the earlier pieces: the pipe is the back-pressure."""
    if _sender is None:
        raise RuntimeError("send_part is for a job running in a WorkerPool worker")
    _sender(value)


@contextmanager
def sending_parts(sender: Callable[[Any], None]) -> Iterator[None]:
    """Pieces sent by the job run in this block go to ``sender``."""
    global _sender
    _sender = sender
    try:
        yield
    finally:
        _sender = None
