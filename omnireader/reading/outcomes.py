"""What reading produced (items and failure records): one input's outcome, a read's result,
and the fast parse of an input's routed parts, each part's failure captured
(:mod:`.failures`) instead of stopping the rest of a batch."""

from __future__ import annotations

import time
import warnings
from collections import Counter
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from omnireader.errors import InvalidInputError, OmniReaderWarning
from omnireader.intake.router import Task, iter_route
from omnireader.models import MemoryItem, ReadFailure, ReadInfo
from omnireader.parsers.base import ParseContext, get_parser
from omnireader.reading.failures import captured, internal_failure, log_internal
from omnireader.reading.file_provenance import name_file
from omnireader.reading.unread_pages import take_unread_pages, without_text
from omnireader.text.unicode_repair import repair_model

__all__ = [
    "ReadOutcome",
    "internal_failure",
    "log_internal",
    "ReadResult",
    "refine_counts",
    "left_fast_text",
    "validate_info",
    "describe_input",
    "captured",
    "name_file",
    "raise_or_items",
    "parse_parts",
    "read_fast",
]


class ReadOutcome(BaseModel):
    """What became of one input: its items, or why (part of) it could not be read."""

    input: str
    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    # Fine mode: the fast items the fine ones were made from (marked refined, linked by
    # refined_into). Not returned by read(); an ingest stores them beside the fine items.
    refined_fast: list[MemoryItem] = Field(default_factory=list)
    seconds: float = 0.0

    def finish(self, parts: Iterable[_Part], input: Any, started: float) -> ReadOutcome:
        """Gather the parts' items and failures (in order), name the file they came from,
        repair surrogates in their text (:mod:`omnireader.text.unicode_repair`), and stamp the
        time taken. Pages nothing read are reported, their empty items taken out
        (:mod:`omnireader.reading.unread_pages`)."""
        for part in parts:
            part.failures.extend(take_unread_pages(part.items, part.label or self.input))
            self.items.extend(part.items)
            self.failures.extend(part.failures)
            # A page the vision model read: its fine items stand, its empty item goes.
            self.refined_fast.extend(i for i in part.refined_fast if not without_text(i))
        name_file(self.items, input)
        name_file(self.refined_fast, input)
        for x in (*self.items, *self.refined_fast, *self.failures):
            repair_model(x)
        self.seconds = time.perf_counter() - started
        return self

    def __repr__(self) -> str:
        # Short on purpose: asyncio.run formats the repr of the task's result when it
        # restores its SIGINT handler (twice, Python 3.11), and pydantic's repr of hundreds
        # of items costs tens of milliseconds.
        return (
            f"ReadOutcome(input={self.input!r}, items={len(self.items)}, "
            f"failures={len(self.failures)}, refined_fast={len(self.refined_fast)})"
        )


class ReadResult(BaseModel):
    """Everything a read produced: items, and one record per input (or part) that failed.

    ``failures`` holds every record; ``lost`` the first record of each input that gave no
    item at all. The rest are parts of inputs that were otherwise read (one bad attachment
    of a message, one bad member of an archive): the input's other items are kept.
    """

    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    lost: list[ReadFailure] = Field(default_factory=list)
    inputs: int = 0
    # Fine mode: items the LLM wrote, and fast items it could not refine (kept), by reason.
    fine_items: int = 0
    refine_failed: int = 0
    refine_reasons: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def of(cls, outcomes: Iterable[ReadOutcome]) -> ReadResult:
        """The outcomes of several inputs, together."""
        result = cls()
        reasons: Counter[str] = Counter()
        for out in outcomes:
            result.inputs += 1
            result.items.extend(out.items)
            result.failures.extend(out.failures)
            if out.failures and not out.items:
                result.lost.append(out.failures[0])
            fine, left = refine_counts(out.items)
            result.fine_items += fine
            reasons.update(left)
        result.refine_failed = sum(reasons.values())
        result.refine_reasons = dict(reasons)
        return result

    def __repr__(self) -> str:  # short: see ReadOutcome.__repr__
        return (
            f"ReadResult(inputs={self.inputs}, items={len(self.items)}, "
            f"failures={len(self.failures)}, lost={len(self.lost)}, "
            f"refine_failed={self.refine_failed})"
        )


def refine_counts(items: Iterable[MemoryItem]) -> tuple[int, Counter[str]]:
    """How many of ``items`` are fine, and the fast ones the LLM failed on, by reason
    (``"source_unavailable (gone)"`` counts as ``source_unavailable``)."""
    fine = 0
    left: Counter[str] = Counter()
    for item in items:
        m = item.metadata
        if m.mode == "fine":
            fine += 1
        elif m.refine_status == "failed":
            left[(m.refine_reason or "unknown").split(" (", 1)[0]] += 1
    return fine, left


def left_fast_text(fine: int, reasons: dict[str, int]) -> str:
    """``3 items fine, 2 left fast: server_error`` (reasons with counts when several)."""
    left = sum(reasons.values())
    why = (
        next(iter(reasons))
        if len(reasons) == 1
        else ", ".join(f"{r} {n}" for r, n in sorted(reasons.items()))
    )
    return f"{fine} item{'' if fine == 1 else 's'} fine, {left} left fast: {why}"


def validate_info(info: dict[str, Any] | ReadInfo | None) -> ReadInfo:
    if info is None:
        return ReadInfo()
    if isinstance(info, ReadInfo):
        return info
    if not isinstance(info, dict):
        raise InvalidInputError(
            f"info must be a dict like {{'user_id': ..., 'session_id': ...}}, "
            f"not {type(info).__name__}"
        )
    try:
        return ReadInfo.model_validate(info)
    except ValidationError as e:
        bad = ", ".join(f"{'.'.join(map(str, err['loc']))} ({err['msg']})" for err in e.errors())
        raise InvalidInputError(
            f"invalid info: {bad}; valid keys are {', '.join(ReadInfo.model_fields)}"
        ) from None


def describe_input(x: Any) -> str:
    """A short name for an input, for reports and errors."""
    if isinstance(x, str):
        return f"<string: {x[:40]!r}>" if len(x) > 40 else f"<string: {x!r}>"
    if isinstance(x, (bytes, bytearray)):
        return f"<{len(x)} bytes>"
    if isinstance(x, (list, tuple)):
        return f"<{len(x)} messages/parts>"
    if isinstance(x, dict):
        return f"<{x.get('role') or x.get('type') or 'dict'}>"
    label = getattr(x, "label", None)
    return str(label if label is not None else x)


class _Part(BaseModel):
    """One routed part of an input after its fast parse (``task`` None: nothing to refine)."""

    task: Task | None = None
    label: str = ""  # the part's input as failures name it
    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    refined_fast: list[MemoryItem] = Field(default_factory=list)


def read_fast(input: Any, ctx: ParseContext) -> ReadOutcome:
    """Read one (already expanded) input in fast mode; never raises for bad input."""
    started = time.perf_counter()
    out = ReadOutcome(input=describe_input(input))
    return out.finish(parse_parts(input, ctx, out), input, started)


def parse_parts(input: Any, ctx: ParseContext, out: ReadOutcome) -> list[_Part]:
    """Route ``input`` and fast-parse each part (for an LLM in fine mode), failures kept
    in place; a failure to route at all is recorded on ``out``. Parts are routed as they
    are parsed, so a mailbox's messages are never all held at once."""
    parts: list[_Part] = []
    with captured(out, out.input):
        for task in iter_route(input, ctx.options):
            parts.append(_parse_task(task, ctx))
    return parts


def _parse_task(task: Task, ctx: ParseContext) -> _Part:
    if task.failure is not None:
        return _Part(failures=[task.failure])
    part = _Part(label=task.label)
    parser = get_parser(task.parser)
    with captured(part, task.label):
        if ctx.mode == "fine":
            part.items = parser._fast_for_llm(task.payload, ctx)
            part.task = task
        else:
            part.items = parser.parse_fast(task.payload, ctx)
    return part


def raise_or_items(result: ReadResult, on_error: str) -> list[MemoryItem]:
    """The items; with ``on_error="raise"`` an input that gave nothing raises its error, and
    a bad part of an input that was otherwise read is a warning (its other items stay)."""
    if result.refine_failed:
        # Fine mode asked, fast items given: never silently.
        warnings.warn(
            f"{left_fast_text(result.fine_items, result.refine_reasons)} (the LLM could not "
            "refine them; they are kept as fast items, marked refine_status='failed')",
            OmniReaderWarning,
            stacklevel=3,
        )
    if on_error != "raise":
        return result.items
    if result.lost:
        from omnireader.errors import error_for_code

        f = result.lost[0]
        if f.error == "invalid_input":
            raise InvalidInputError(f.message)
        raise error_for_code(f.error, f.input, f.message.removeprefix(f"{f.input}: "))
    for f in result.failures:
        warnings.warn(
            f"part of an input was not read [{f.error}]: {f.message}; the rest was kept "
            "(read_report() returns the failure records)",
            OmniReaderWarning,
            stacklevel=3,
        )
    return result.items
