"""The parser surface every input kind implements, and the registry the router uses.

A parser turns one payload into memory items. ``parse_fast`` is rule-based (no LLM, no
network); ``parse_fine`` asks an LLM and falls back to a clear error until a backend is
configured. ``create_source`` / ``rebuild_from_source`` let any stored item be traced back to
its input and re-processed.
"""

from __future__ import annotations

import gc
import threading
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from omnireader.errors import FineModeUnavailableError, InvalidInputError
from omnireader.fast_construct import trusted
from omnireader.ids import item_id
from omnireader.models import MemoryItem, MemoryMetadata, MemoryType, Mode, Source
from omnireader.normalize import guess_lang
from omnireader.options import ReadOptions
from omnireader.text.chunking import Chunk

__all__ = [
    "ParseContext",
    "Parser",
    "register",
    "get_parser",
    "parser_names",
    "chunk_source",
    "PARSE_LOCK",
]

#: Held while a parser runs in a worker thread (the async API): parsing is GIL-bound, so one
#: parse at a time costs little. PDFium, which is not thread-safe, has a lock of its own
#: that every caller takes, the sync path's too (``formats/pdf/pdfium_lock.py``).
PARSE_LOCK = threading.RLock()

P = TypeVar("P", bound=BaseModel)


class ParseContext(BaseModel):
    """Who the items are for, which mode, the read options and (fine mode) the LLM."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    user_id: str | None = None
    session_id: str | None = None
    mode: Mode = Mode.FAST
    options: ReadOptions = Field(default_factory=ReadOptions)
    # Fine mode's engine (an omnireader.refine.Refiner), injected by the Reader so parsers
    # never import the LLM layer.
    refiner: Any = Field(default=None, exclude=True)
    # Fast extraction for an LLM: chat windows sized for fine mode (larger, fewer calls).
    large_windows: bool = False

    @property
    def scope(self) -> str:
        return f"{self.user_id or ''}/{self.session_id or ''}"


class Parser(ABC, Generic[P]):
    """Base class: subclasses set ``name`` and ``payload`` and implement the fast path."""

    name: ClassVar[str]
    payload: ClassVar[type[BaseModel]]

    @abstractmethod
    def parse_fast(self, input: P, ctx: ParseContext) -> list[MemoryItem]:
        """Items by rules alone: real extraction, no LLM, no network."""

    def parse_fine(self, input: P, ctx: ParseContext) -> list[MemoryItem]:
        """Items an LLM wrote: fast extraction, then the refiner on each fast item.

        Returns the fine items, plus the fast items that were not refined (marked
        ``refine_status="failed"`` with the reason, or with nothing to refine, like a bare
        file reference) so nothing is lost. When the LLM found nothing worth remembering
        in the whole input, its fast items are returned (marked refined, reason
        ``no_memories``): every input yields at least one item.
        """
        self._require_refiner(ctx)
        return self._fine_items(ctx.refiner.refine(self._fast_for_llm(input, ctx), input))

    async def aparse_fine(self, input: P, ctx: ParseContext) -> list[MemoryItem]:
        """:meth:`parse_fine` for async callers: parsing runs in a thread, LLM calls overlap."""
        import asyncio

        self._require_refiner(ctx)
        refiner = ctx.refiner
        # One input parsed at a time, and only while the LLM has work waiting for it: the
        # first calls go out at once and the event loop is not starved of the GIL.
        async with refiner.admission():
            fast = await asyncio.to_thread(self.locked_parse, self._fast_for_llm, input, ctx)
            job = refiner.start(fast, input)
            for _ in range(4):  # let the new calls get on the wire before the next parse
                await asyncio.sleep(0)
        return self._fine_items(await job)

    @staticmethod
    def locked_parse(fn: Any, *args: Any) -> Any:
        """``fn(*args)`` under :data:`PARSE_LOCK` (for parsing in worker threads)."""
        with PARSE_LOCK:
            return fn(*args)

    def _require_refiner(self, ctx: ParseContext) -> None:
        if ctx.refiner is None:
            raise FineModeUnavailableError(
                f"fine mode for {self.name} inputs needs an LLM backend: pass llm=... to "
                "Reader or --llm openai:MODEL / --llm ollama:MODEL on the command line"
            )

    def _fast_for_llm(self, input: P, ctx: ParseContext) -> list[MemoryItem]:
        return self.parse_fast(
            input, ctx.model_copy(update={"mode": Mode.FAST, "large_windows": True})
        )

    @staticmethod
    def _fine_items(result: Any) -> list[MemoryItem]:
        if not result.fine:
            return list(result.fast)
        kept = [i for i in result.fast if i.metadata.refine_status != "refined"]
        return [*result.fine, *kept]

    @abstractmethod
    def create_source(self, input: P) -> Source:
        """The provenance record of ``input``."""

    @abstractmethod
    def rebuild_from_source(self, source: Source) -> P:
        """The payload again, from a stored source (inverse of :meth:`create_source`)."""

    def parse(self, input: P, ctx: ParseContext) -> list[MemoryItem]:
        if ctx.mode == "fine":
            return self.parse_fine(input, ctx)
        return self.parse_fast(input, ctx)

    # -- shared helpers for subclasses

    def make_item(
        self,
        text: str,
        ctx: ParseContext,
        *,
        sources: list[Source],
        position: tuple[object, ...],
        memory_type: MemoryType = "LongTermMemory",
        **metadata: Any,
    ) -> MemoryItem:
        """An item with a deterministic id from its first source's hash and ``position``."""
        anchor = sources[0].content_hash or "" if sources else ""
        return MemoryItem(
            id=item_id(anchor, self.name, ctx.mode, *position, scope=ctx.scope),
            memory=text,
            metadata=MemoryMetadata(
                user_id=ctx.user_id,
                session_id=ctx.session_id,
                memory_type=memory_type,
                mode=ctx.mode,
                sources=sources,
                **metadata,
            ),
        )

    def make_chunk_items(
        self,
        chunks: list[Chunk],
        ctx: ParseContext,
        *,
        source: Source,
        where: tuple[object, ...],
        source_update: dict[str, Any],
        guess: bool = True,
        **metadata: Any,
    ) -> list[MemoryItem]:
        """What :meth:`make_item` makes for each chunk (one source each, :func:`chunk_source`
        of ``source``; position ``(*where, chunk.index)``), built without re-validation.
        ``guess=False`` leaves each source's ``lang`` None (unless ``source_update`` has one)
        for the caller to guess later (a document's chunks all at once: ``doc_languages``).

        A long text makes tens of thousands of items; validating each (and its metadata)
        cost ~0.1 ms an item, more than chunking. Every value here was validated already:
        ``source`` and the context are models, ``metadata`` comes from the parser. Lists and
        dicts in ``metadata`` are copied per item, as validation copies them.
        """
        anchor = source.content_hash or ""
        copied = [k for k, v in metadata.items() if isinstance(v, (list, dict))]
        base = dict(
            user_id=ctx.user_id,
            session_id=ctx.session_id,
            memory_type="LongTermMemory",
            mode=ctx.mode,
            **metadata,
        )
        name, mode, scope = self.name, ctx.mode, ctx.scope
        items = []
        # No cyclic garbage collection while building: each item allocates a dozen
        # containers, and the collections they trigger re-scan every item made so far
        # (~20% of the build on a 10 MB text). Items hold no reference cycles.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for chunk in chunks:
                sources = [chunk_source(source, chunk, guess=guess, **source_update)]
                fields = dict(base, sources=sources)
                for k in copied:
                    fields[k] = fields[k].copy()
                items.append(
                    trusted(
                        MemoryItem,
                        id=item_id(anchor, name, mode, *where, chunk.index, scope=scope),
                        memory=chunk.text,
                        metadata=trusted(MemoryMetadata, **fields),
                    )
                )
        finally:
            if collecting:
                gc.enable()
        return items


_REGISTRY: dict[str, Parser[Any]] = {}


def chunk_source(source: Source, chunk: Chunk, guess: bool = True, **update: Any) -> Source:
    """``source`` narrowed to one chunk: its place among the chunks, its span and language
    (the chunk's own, unless ``update`` carries one the document declared; None without
    one when not ``guess``)."""
    lang = update.pop("lang", None) or (guess_lang(chunk.text) if guess else None)
    return source.model_copy(
        update=dict(
            chunk_index=chunk.index,
            chunk_total=chunk.total,
            char_start=chunk.char_start,
            char_end=chunk.char_end,
            lang=lang,
            **update,
        )
    )


def register(cls: type[Parser[Any]]) -> type[Parser[Any]]:
    """Class decorator: make a parser available under its ``name`` (:func:`get_parser`)."""
    _REGISTRY[cls.name] = cls()
    return cls


def _load_builtin() -> None:
    """Import every parser module of this package once: each registers itself. Done on
    first lookup, so nothing has to import the parsers to make them known."""
    global _LOADED
    if _LOADED:
        return
    import importlib
    import pkgutil
    from pathlib import Path

    package = __name__.rsplit(".", 1)[0]
    for info in pkgutil.iter_modules([str(Path(__file__).parent)], package + "."):
        importlib.import_module(info.name)
    _LOADED = True


_LOADED = False


def get_parser(name: str) -> Parser[Any]:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise InvalidInputError(
            f"no parser named {name!r}; known parsers: {', '.join(sorted(_REGISTRY))}"
        ) from None


def parser_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)
