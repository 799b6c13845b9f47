"""A fast read whose first part may come in pieces, each final, before the read ends.

:func:`.outcomes.read_fast` returns an input's items once all are made. A long plain text's
items can be made a piece at a time (:meth:`FileParser.parse_pieces
<omnireader.parsers.file.FileParser.parse_pieces>`); :class:`PiecedRead` hands each piece
on as soon as it is finished (named after its file, surrogates repaired: what
:meth:`.outcomes.ReadOutcome.finish` does to every item), so an ingest writes the first
while the worker makes the next. What did not come in pieces (a short file, the other parts
of an input) ends up in :attr:`PiecedRead.outcome` as :func:`.outcomes.read_fast` gives it.

If the part fails after pieces were given (a bug on a late chunk), its failure is recorded
as :func:`.outcomes.read_fast` records it, and :attr:`PiecedRead.undo` says the pieces
given must be taken back: the caller's read then holds what the single pass holds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from omnireader.intake.router import Task, iter_route
from omnireader.models import MemoryItem
from omnireader.parsers.base import ParseContext, get_parser
from omnireader.reading.failures import captured
from omnireader.reading.file_provenance import name_file
from omnireader.reading.outcomes import ReadOutcome, _parse_task, _Part, describe_input
from omnireader.reading.unread_pages import take_unread_pages
from omnireader.text.unicode_repair import repair_model

__all__ = ["PiecedRead"]


class PiecedRead:
    """Read ``input`` in fast mode; iterating gives the pieces of its first part (when its
    parser makes them, ``size`` items each), then :attr:`outcome` holds the rest. With
    ``repair`` False the pieces' surrogates are left (the outcome's are repaired)."""

    def __init__(self, input: Any, ctx: ParseContext, size: int, repair: bool = True) -> None:
        self.input, self.ctx, self.size = input, ctx, size
        # False: the caller repairs the pieces' surrogates itself (an ingest's rows fail on
        # one, so it repairs a piece only then, not each item on the way).
        self.repair = repair
        self.outcome: ReadOutcome | None = None
        self.label = describe_input(input)
        self.sent = 0  # pieces given
        self.undo = False  # the part failed after pieces were given: take them back

    def __iter__(self) -> Iterator[list[MemoryItem]]:
        started = time.perf_counter()
        out = ReadOutcome(input=self.label)
        parts: list[_Part] = []
        with captured(out, out.input):
            for task in iter_route(self.input, self.ctx.options):
                if parts or not self._pieced(task):
                    parts.append(_parse_task(task, self.ctx))
                    continue
                part = _Part(label=task.label)
                yield from self._pieces(task, part)
                parts.append(part)
        self.outcome = out.finish(parts, self.input, started)

    def _pieced(self, task: Task) -> bool:
        parser = get_parser(task.parser) if task.failure is None else None
        return self.ctx.mode != "fine" and hasattr(parser, "parse_pieces")

    def _pieces(self, task: Task, part: _Part) -> Iterator[list[MemoryItem]]:
        """The part's pieces, finished, each given as soon as it is made; a part made in one
        piece is left in ``part`` for the outcome."""
        made = get_parser(task.parser).parse_pieces(task.payload, self.ctx, self.size)
        while True:
            failed = len(part.failures)
            piece = None
            with captured(part, task.label):
                piece = next(made, None)
            if len(part.failures) > failed:  # the parser raised: nothing of the part stands
                self.undo = self.sent > 0
                return
            if piece is None:
                return
            if piece.last and not self.sent:
                part.items = piece.items
                return
            yield self._finished(piece.items, part)

    def _finished(self, items: list[MemoryItem], part: _Part) -> list[MemoryItem]:
        part.failures.extend(take_unread_pages(items, part.label or self.label))
        name_file(items, self.input)
        if self.repair:
            for item in items:
                repair_model(item)
        self.sent += 1
        return items
