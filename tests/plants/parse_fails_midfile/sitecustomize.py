"""Planted bug: reading a file whose name holds $OMNIREADER_PLANT_FILE fails (a typed
``CorruptError``) when its chunk number $OMNIREADER_PLANT_CHUNK is made into an item: half
way through the file, after its first items were made (and, made a piece at a time, sent
and written).

Loaded by every Python process of a run through PYTHONPATH (see ``tests/plants``)."""

import functools
import os

from omnireader.errors import CorruptError
from omnireader.parsers.base import Parser

_FILE = os.environ.get("OMNIREADER_PLANT_FILE", "fails")
_CHUNK = int(os.environ.get("OMNIREADER_PLANT_CHUNK", "35"))
_make_chunk_items = Parser.make_chunk_items


@functools.wraps(_make_chunk_items)
def _failing_make_chunk_items(self, chunks, ctx, *, source, **kwargs):  # type: ignore[no-untyped-def]
    name = os.path.basename(source.path or "")
    if _FILE in name and any(c.index == _CHUNK for c in chunks):
        raise CorruptError(name, f"planted: chunk {_CHUNK} cannot be read")
    return _make_chunk_items(self, chunks, ctx, source=source, **kwargs)


Parser.make_chunk_items = _failing_make_chunk_items
