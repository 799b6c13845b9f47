"""The Reader: what users call to turn inputs into memory items.

>>> from omnireader import Reader
>>> items = Reader().read("Alice moved to Berlin in 2021.", info={"user_id": "u1"})
>>> items[0].metadata.mode
'fast'
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from pydantic import BaseModel, ValidationError

from omnireader.errors import FineModeUnavailableError, InvalidInputError
from omnireader.intake.walk import expand
from omnireader.models import MemoryItem, Mode, ReadInfo
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext, Parser, get_parser
from omnireader.payloads import Blob
from omnireader.reading.failures import captured
from omnireader.reading.outcomes import (
    ReadOutcome,
    ReadResult,
    describe_input,
    parse_parts,
    raise_or_items,
    read_fast,
    validate_info,
)

if TYPE_CHECKING:
    from omnireader.llm.base import ChatBackend
    from omnireader.refine import Refiner

__all__ = ["Reader", "ReadInput", "ReadOutcome", "ReadResult"]

#: What :meth:`Reader.read` takes: a string (text, or a path / URL it names), a path,
#: bytes, a :class:`~omnireader.payloads.Blob`, a chat message or content part (a dict or
#: a model), or a list of any of these (a list of messages is one conversation).
ReadInput: TypeAlias = (
    str
    | os.PathLike[str]
    | bytes
    | bytearray
    | memoryview
    | Blob
    | BaseModel
    | Mapping[str, Any]
    | Sequence[Any]
)


class Reader:
    """Reads inputs into memory items: router → parser, per input, with failures isolated.

    It only reads: :func:`omnireader.ingest` (the batch layer, above it) writes what a
    Reader reads into a store.

    ``llm`` (a chat backend from :mod:`omnireader.llm`) enables fine mode; option keywords
    (``chunk_tokens=``, ``password=``, ``allow_private_urls=`` ...) set :class:`ReadOptions`.
    """

    def __init__(
        self,
        *,
        options: ReadOptions | None = None,
        llm: ChatBackend | None = None,
        **option_overrides: Any,
    ) -> None:
        try:
            base = options or ReadOptions()
            self.options = base.model_copy(update=option_overrides) if option_overrides else base
            if option_overrides:
                ReadOptions.model_validate(self.options.model_dump())
        except ValidationError as e:
            raise InvalidInputError(
                f"invalid reader options: {e.errors()[0]['msg']}; valid options are "
                f"{', '.join(ReadOptions.model_fields)}"
            ) from None
        unknown = set(option_overrides) - set(ReadOptions.model_fields)
        if unknown:
            raise InvalidInputError(
                f"unknown reader option(s) {sorted(unknown)}; valid options are "
                f"{', '.join(ReadOptions.model_fields)}"
            )
        self.llm = llm
        self._refiner: Refiner | None = None

    @property
    def refiner(self) -> Refiner | None:
        """Fine mode's engine for ``llm`` (None without an LLM)."""
        if self._refiner is None and self.llm is not None:
            from omnireader.refine import Refiner

            self._refiner = Refiner(self.llm, self.options)
        return self._refiner

    # ------------------------------------------------------------------ public

    def read(
        self,
        inputs: ReadInput,
        info: dict[str, Any] | ReadInfo | None = None,
        mode: Mode | str = Mode.FAST,
        on_error: Literal["raise", "skip"] = "raise",
    ) -> list[MemoryItem]:
        """Items for ``inputs``. With ``on_error="raise"`` (default) the first input that
        could not be read raises its typed error; ``"skip"`` returns what could be read
        (use :meth:`read_report` to also get the failures)."""
        return raise_or_items(self.read_report(inputs, info=info, mode=mode), on_error)

    def read_report(
        self,
        inputs: ReadInput,
        info: dict[str, Any] | ReadInfo | None = None,
        mode: Mode | str = Mode.FAST,
    ) -> ReadResult:
        """Items and failures for ``inputs``; one bad input never stops the others."""
        return ReadResult.of(self.iter_read(inputs, info=info, mode=mode))

    def iter_read(
        self,
        inputs: ReadInput,
        info: dict[str, Any] | ReadInfo | None = None,
        mode: Mode | str = Mode.FAST,
    ) -> Iterator[ReadOutcome]:
        """One :class:`ReadOutcome` per input, as each is read (folders yield per file)."""
        ctx = self.context(info, mode)
        for one in expand(inputs, self.options):
            yield self.read_one(one, ctx)

    @staticmethod
    def mode_of(mode: Mode | str) -> Mode:
        """``mode`` as a :class:`Mode`, checked once where a read or an ingest starts."""
        try:
            return Mode(mode)
        except ValueError:
            raise InvalidInputError(f"mode must be 'fast' or 'fine', not {mode!r}") from None

    def context(self, info: dict[str, Any] | ReadInfo | None, mode: Mode | str) -> ParseContext:
        """The parse context for ``info`` and ``mode``, validated."""
        mode = self.mode_of(mode)
        if mode == Mode.FINE and self.llm is None:
            raise FineModeUnavailableError(
                "fine mode needs an LLM backend: Reader(llm=make_chat_backend('openai:MODEL')) "
                "or --llm openai:MODEL / --llm ollama:MODEL on the command line"
            )
        inf = validate_info(info)
        return ParseContext(
            user_id=inf.user_id,
            session_id=inf.session_id,
            mode=mode,
            options=self.options,
            refiner=self.refiner if mode == Mode.FINE else None,
        )

    def read_one(self, input: ReadInput, ctx: ParseContext) -> ReadOutcome:
        """Read a single (already expanded) input under ``ctx``; never raises for bad input.

        Fine mode runs :meth:`aread_one` on an event loop of its own, so the LLM calls of
        the input's parts (a chat, its tool trajectories, its attachments) overlap.
        """
        if ctx.mode == Mode.FINE:
            return ctx.refiner.llm.run_sync(self.aread_one(input, ctx))
        return read_fast(input, ctx)

    # ------------------------------------------------------------------- async

    async def aread_one(self, input: ReadInput, ctx: ParseContext) -> ReadOutcome:
        """:meth:`read_one` for async callers: routing and parsing in a worker thread (one
        input at a time), the LLM calls of every part of the input (a chat, its tool
        trajectories, its attachments) in flight together.

        In fine mode the input is parsed only once the LLM has room for more work (see
        :meth:`omnireader.refine.Refiner.admission`), so the first calls go out at once.
        """
        started = time.perf_counter()
        out = ReadOutcome(input=describe_input(input))
        if ctx.mode != Mode.FINE:
            parts = await asyncio.to_thread(Parser.locked_parse, parse_parts, input, ctx, out)
            return out.finish(parts, input, started)

        refiner = ctx.refiner
        async with refiner.admission():
            parts = await asyncio.to_thread(Parser.locked_parse, parse_parts, input, ctx, out)
            jobs = [refiner.start(p.items, p.task.payload) if p.task else None for p in parts]
            for _ in range(4):  # let the new calls get on the wire before the next parse
                await asyncio.sleep(0)
        for part, job in zip(parts, jobs):
            if job is not None and part.task is not None:
                with captured(part, part.task.label):
                    result = await job
                    part.items = get_parser(part.task.parser)._fine_items(result)
                    if result.fine:
                        part.refined_fast = [
                            i for i in result.fast if i.metadata.refine_status == "refined"
                        ]
        return out.finish(parts, input, started)

    async def aread_report(
        self,
        inputs: ReadInput,
        info: dict[str, Any] | ReadInfo | None = None,
        mode: Mode | str = Mode.FAST,
    ) -> ReadResult:
        """:meth:`read_report` for async callers; inputs are read concurrently."""
        ctx = self.context(info, mode)
        return ReadResult.of(
            await asyncio.gather(*(self.aread_one(x, ctx) for x in expand(inputs, self.options)))
        )

    async def aread(
        self,
        inputs: ReadInput,
        info: dict[str, Any] | ReadInfo | None = None,
        mode: Mode | str = Mode.FAST,
        on_error: Literal["raise", "skip"] = "raise",
    ) -> list[MemoryItem]:
        """:meth:`read` for async callers (an agent's upload handler): paths, bytes,
        :class:`~omnireader.payloads.Blob` (bytes with a file name) or messages."""
        return raise_or_items(await self.aread_report(inputs, info, mode), on_error)

    # -------------------------------------------------------- fast->fine transfer

    def refine(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """Upgrade fast items already made: the fine items, then every fast item kept and
        marked (``refined`` and linked to its fine items, or ``failed`` with the reason)."""
        result = self._require_refiner().refine(items)
        return [*result.fine, *result.fast]

    async def arefine(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """:meth:`refine` for async callers."""
        result = await self._require_refiner().arefine(items)
        return [*result.fine, *result.fast]

    def _require_refiner(self) -> Refiner:
        refiner = self.refiner
        if refiner is None:
            raise FineModeUnavailableError(
                "refining needs an LLM backend: Reader(llm=make_chat_backend('openai:MODEL'))"
            )
        return refiner
