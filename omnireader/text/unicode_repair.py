"""UTF-16 surrogates out of text before it leaves a reader.

Python strings can hold surrogate code points that UTF-8 cannot encode: a JSON escape of half
an emoji (``"\\ud83d"``), RTF's ``\\uN`` (Word writes an emoji as its two signed UTF-16
halves), a file name decoded with ``surrogateescape``. JSON output, Arrow and LanceDB each
fail on the first one, so one such character used to crash ``read`` and stop an ingest. A
high and low half in a row are joined into their character; a lone half that stands for an
undecodable byte (U+DC80-U+DCFF, what ``surrogateescape`` makes of a file name that is not
UTF-8) becomes ``\\xNN``, the name's shown form (:mod:`omnireader.file_names`), so the
file's items name it as the store, the reports and ``--sync`` do; any other lone half
becomes U+FFFD.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from omnireader.file_names import escape_bytes

__all__ = ["repair_surrogates", "repair_model"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_surrogates(text: str) -> str:
    """``text`` with surrogate pairs joined, undecodable bytes written ``\\xNN`` and other
    lone halves replaced (``text`` itself when it has none, the common case: no copy)."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    text = escape_bytes(text)
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def repair_model(model: BaseModel) -> BaseModel:
    """Repair every string inside ``model`` (nested models, lists and dicts too), in place.

    In place and without validation: the values only lose characters no validator could
    have accepted as text, and items are built as trusted on the hot path. Most models have
    nothing to repair: pydantic's JSON encoder (Rust) tells so in ~15 µs an item, where a
    walk of its fields in Python takes ~50-90 µs; the walk runs only when the encoder fails.
    """
    from pydantic_core import PydanticSerializationError, to_json

    try:
        to_json(model)
        return model
    except PydanticSerializationError:
        pass
    return _walk(model)


def _walk(model: BaseModel) -> BaseModel:
    for name, value in model.__dict__.items():
        new = _repaired(value)
        if new is not value:
            model.__dict__[name] = new
    return model


def _repaired(value: Any) -> Any:
    if isinstance(value, str):
        return repair_surrogates(value)
    if isinstance(value, BaseModel):
        return _walk(value)
    if isinstance(value, list):
        new = [_repaired(v) for v in value]
        return value if all(a is b for a, b in zip(new, value)) else new
    if isinstance(value, dict):
        pairs = [(_repaired(k), _repaired(v)) for k, v in value.items()]
        changed = any(a is not k or b is not v for (a, b), (k, v) in zip(pairs, value.items()))
        return dict(pairs) if changed else value
    return value
