"""Recognise a file by its content (magic bytes, then structure), not by its extension alone.

The tests come from the format registry (:mod:`omnireader.formats.registry`): each
format's module declares its own. This module only runs them in order.
"""

from __future__ import annotations

from pydantic import BaseModel

from omnireader.formats import registry
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Layer

__all__ = ["Sniffed", "sniff", "family", "resniff_whole"]


class Sniffed(BaseModel):
    kind: str  # a record's name (pdf, docx, eml, ...), "image", "audio" or "unknown"
    mime: str
    format: str | None = None  # image / audio format name: jpeg, png, wav, mp3, m4a, ...


_UNKNOWN = Sniffed(kind="unknown", mime="application/octet-stream")


def sniff(data: bytes, filename: str | None = None) -> Sniffed:
    """What ``data`` is. ``filename`` only breaks ties between text formats."""
    probe = Probe(data, filename)
    return _run(probe, "bytes") or _UNKNOWN


def _run(probe: Probe, layer: Layer) -> Sniffed | None:
    for magic, fmt in registry.chain(layer):
        found = magic.test(probe)
        if not found:
            continue
        if fmt.refines is not None:
            inner = _run(probe, fmt.refines)
            if inner is not None:
                return inner
        return _sniffed(fmt, found)
    return None


def _sniffed(fmt: Format, found: bool | str) -> Sniffed:
    mime = found if isinstance(found, str) else (fmt.mimes[0] if fmt.mimes else "")
    return Sniffed(kind=fmt.sniffed_kind, mime=mime, format=fmt.subtype)


def resniff_whole(kind: str) -> bool:
    """Kinds told from a file's head that may change once the whole file is seen: a ZIP's
    directory and an OLE file's stream names can sit past the first MiB."""
    fmt = registry.by_kind(kind)
    return fmt is not None and fmt.resniff_whole


def family(s: Sniffed) -> str:
    """The parser family: ``image``, ``audio`` or ``file``."""
    fmt = registry.by_kind(s.kind)
    return fmt.family if fmt is not None else "file"
