"""Planted death: a parser worker that has sent the first piece of a file whose name holds
$OMNIREADER_PLANT_FILE is killed (SIGKILL, as the kernel's OOM killer would), half way
through handing the file over.

Loaded by every Python process of a run through PYTHONPATH (see ``tests/plants``); only a
worker sends pieces, so only a worker dies."""

import functools
import os
import signal

import omnireader.batch.file_task as _file_task

_FILE = os.environ.get("OMNIREADER_PLANT_FILE", "dies")
_parse_file = _file_task.parse_file  # fails loudly if the worker's entry point changed shape
_send_part = _file_task.send_part
_reading: list[str] = [""]


@functools.wraps(_parse_file)  # same name, so the pool pickles it by reference as before
def _noting_parse_file(path, *args, **kwargs):  # type: ignore[no-untyped-def]
    _reading[0] = os.path.basename(path)
    return _parse_file(path, *args, **kwargs)


def _dying_send_part(value):  # type: ignore[no-untyped-def]
    _send_part(value)
    if _FILE in _reading[0]:
        os.kill(os.getpid(), signal.SIGKILL)


_file_task.parse_file = _noting_parse_file
_file_task.send_part = _dying_send_part
