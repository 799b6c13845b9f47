"""Planted ballast: each file a parser worker reads holds $OMNIREADER_PLANT_MB MB more
(every page touched) while it is parsed, and frees it after.

Loaded by every Python process of a run through PYTHONPATH (see ``tests/plants``); only a
worker calls the per-file parse, so only a worker's peak may grow."""

import functools
import os

import omnireader.batch.file_task as _file_task

_MB = int(os.environ.get("OMNIREADER_PLANT_MB", "400"))
_parse_file = _file_task.parse_file  # fails loudly if the worker's entry point changed shape


@functools.wraps(_parse_file)  # same name, so the pool pickles it by reference as before
def _heavy_parse_file(*args, **kwargs):  # type: ignore[no-untyped-def]
    ballast = b"\x01" * (_MB << 20)  # written, so resident
    try:
        return _parse_file(*args, **kwargs)
    finally:
        del ballast


_file_task.parse_file = _heavy_parse_file
