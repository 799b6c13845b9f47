"""Agent framework adapters: LangChain (:mod:`.langchain`), LlamaIndex (:mod:`.llama_index`).

Each adapter module imports its framework at the top (its classes subclass the framework's
base classes) and needs the optional extra named in its text; this package itself imports
neither, so ``import omnireader`` never pays for them. What both adapters share lives here:
how a loader's sources become Reader inputs, and the flat provenance dict a framework
document carries as metadata.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import InvalidInputError, MissingExtraError

if TYPE_CHECKING:
    from omnireader.models import MemoryItem
    from omnireader.reading.reader import Reader
    from omnireader.store import Store

__all__ = ["require_extra", "as_inputs", "provenance", "open_store", "loader_reader", "Source"]

#: What a loader takes: a path, a URL, or a folder (walked recursively), or a list of them.
Source = str | os.PathLike[str]


def require_extra(module: str, package: str, extra: str, *, needed_by: str) -> Any:
    """``module`` imported, or a one-line :class:`MissingExtraError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingExtraError(
            f"{needed_by} needs {package}, which is not installed ({e.name or module} is "
            f"missing): pip install 'omnireader[{extra}]'",
            extra=extra,
        ) from None


def as_inputs(sources: Source | Iterable[Source]) -> list[Any]:
    """Reader inputs for a loader's ``sources``.

    A string is a URL when it has a scheme (``https://``, ``file://``) and a path otherwise:
    a loader is given paths, never text, so a missing path must be the same
    :class:`~omnireader.errors.ReadError` as ``Reader().read(Path(...))`` gives, not a
    string read as text (what ``Reader.read("missing.pdf")`` does, with a warning).
    """
    many = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    if not many:
        raise InvalidInputError("no sources given: pass a path, a URL or a folder (or a list)")
    out: list[Any] = []
    for s in many:
        if isinstance(s, os.PathLike):
            out.append(Path(s).expanduser().resolve())
        elif isinstance(s, str):
            out.append(s if "://" in s else Path(s).expanduser().resolve())
        else:
            raise InvalidInputError(
                f"a source is a path, a URL or a folder, not {type(s).__name__}"
            )
    return out


def provenance(item: MemoryItem) -> dict[str, Any]:
    """Where ``item`` came from, as a flat dict of plain values (frameworks serialise it).

    ``source`` is the URL or path (``a.zip!member`` for an archive member); ``heading`` and
    ``section`` (a document part such as ``header`` or ``comments``) are set only when the
    reader found them. Keys whose value is unknown are left out rather than set to None.
    """
    meta = item.metadata
    src = meta.sources[0] if meta.sources else None
    # seen_at: the places an item with these exact bytes was seen (its path when the source
    # has none, e.g. an item read from a Blob that was later ingested from disk).
    where = (src.url or src.path if src else None) or (meta.seen_at[0] if meta.seen_at else None)
    if where and src is not None and src.member and "!" not in where:
        where = f"{where}!{src.member}"
    extra = meta.extra
    values: dict[str, Any] = {
        "item_id": item.id,
        "source": where,
        "path": src.path if src else None,
        "url": src.url if src else None,
        "filename": src.filename if src else None,
        "member": src.member if src else None,
        "mime": src.mime if src else None,
        "source_kind": src.kind if src else None,
        "page": src.page if src else None,
        # the last page a passage runs onto (a paragraph a page break cut, read whole)
        "page_end": src.page_end if src else None,
        "chunk_index": src.chunk_index if src else None,
        "chunk_total": src.chunk_total if src else None,
        "heading": extra.get("heading"),
        "section": extra.get("section"),
        "title": extra.get("title"),
        "timestamp": meta.timestamp,
        "time_source": meta.time_source,  # "mtime": the file's modification time, not its own
        "persons": list(meta.persons) or None,
        "memory_type": meta.memory_type,
        "mode": meta.mode,
        "user_id": meta.user_id,
        "session_id": meta.session_id,
        "flags": list(meta.flags) or None,
    }
    return {k: v for k, v in values.items() if v is not None}


def open_store(store: Store | str | os.PathLike[str]) -> Store:
    """``store`` itself, or the existing store at that path (never created by a retriever)."""
    from omnireader.store import Store

    if isinstance(store, Store):
        return store
    if isinstance(store, (str, os.PathLike)):
        return Store.open(Path(store).expanduser(), create=False)
    raise InvalidInputError(f"store must be a Store or the path of one, not {type(store).__name__}")


def loader_reader(
    reader: Reader | None, ocr: str | None, on_error: str, options: dict[str, Any]
) -> Reader:
    """The Reader a loader reads with: ``reader`` (its options and LLM, with ``options``
    over them, checked) or a new one; ``on_error`` checked here, where the loader is made."""
    from omnireader.reading.reader import Reader

    if on_error not in ("raise", "skip"):
        raise InvalidInputError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    if ocr is not None:
        options["ocr"] = ocr
    if reader is not None and options:
        return Reader(options=reader.options, llm=reader.llm, **options)
    return reader if reader is not None else Reader(**options)
