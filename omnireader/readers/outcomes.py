"""What reading produced (items and failure records) and how a failure is captured
instead of stopping the rest of a batch."""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from ..errors import FineModeUnavailableError, InvalidInputError, OmniReaderError, ReadError
from ..models import MemoryItem, ReadFailure, ReadInfo
from ..parsers.base import ParseContext, get_parser
from ..router import Task, route

log = logging.getLogger("omnireader")

__all__ = [
    "ReadOutcome",
    "internal_failure",
    "log_internal",
    "ReadResult",
    "validate_info",
    "describe_input",
    "captured",
    "name_file",
    "raise_or_items",
    "parse_parts",
]


class ReadOutcome(BaseModel):
    """What became of one input: its items, or why (part of) it could not be read."""

    input: str
    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    seconds: float = 0.0

    def finish(self, parts: Iterable[_Part], input: Any, started: float) -> ReadOutcome:
        """Gather the parts' items and failures (in order), name the file they came from,
        and stamp the time taken."""
        for part in parts:
            self.items.extend(part.items)
            self.failures.extend(part.failures)
        name_file(self.items, input)
        self.seconds = time.perf_counter() - started
        return self


class ReadResult(BaseModel):
    """Everything a read produced: items, and one record per input that failed."""

    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)
    inputs: int = 0

    @classmethod
    def of(cls, outcomes: Iterable[ReadOutcome]) -> ReadResult:
        """The outcomes of several inputs, together."""
        result = cls()
        for out in outcomes:
            result.inputs += 1
            result.items.extend(out.items)
            result.failures.extend(out.failures)
        return result


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
        bad = ", ".join(
            f"{'.'.join(map(str, err['loc']))} ({err['msg']})" for err in e.errors()
        )
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
    items: list[MemoryItem] = Field(default_factory=list)
    failures: list[ReadFailure] = Field(default_factory=list)


def parse_parts(input: Any, ctx: ParseContext, out: ReadOutcome) -> list[_Part]:
    """Route ``input`` and fast-parse each part (for an LLM in fine mode), failures kept
    in place; a failure to route at all is recorded on ``out``."""
    tasks: list[Task] = []
    with captured(out, out.input):
        tasks = route(input, ctx.options)
    parts: list[_Part] = []
    for task in tasks:
        if task.failure is not None:
            parts.append(_Part(failures=[task.failure]))
            continue
        part = _Part()
        parser = get_parser(task.parser)
        with captured(part, task.label):
            if ctx.mode == "fine":
                part.items = parser._fast_for_llm(task.payload, ctx)
                part.task = task
            else:
                part.items = parser.parse_fast(task.payload, ctx)
        parts.append(part)
    return parts


@contextmanager
def captured(out: ReadOutcome | _Part, label: str) -> Iterator[None]:
    """Record a failure of the block on ``out`` instead of raising: one bad input (or
    one bad part of an input) never stops the rest."""
    try:
        yield
    except FineModeUnavailableError:
        raise
    except (OmniReaderError, OSError, MemoryError, RecursionError) as e:
        out.failures.append(_failure(label, e))
    except Exception as e:  # a bug on one input must not stop a batch, nor blame the file
        out.failures.append(internal_failure(label, e))


def internal_failure(label: str, e: BaseException) -> ReadFailure:
    """An unexpected exception while reading ``label``: code ``internal``, with its
    traceback kept in ``detail`` and logged. A parser reports a broken input with a typed
    :class:`~omnireader.errors.ReadError`; anything else is a bug, not a corrupt file."""
    failure = ReadFailure(
        input=label,
        error="internal",
        message=f"{label}: internal error ({type(e).__name__}: {e}); this is a bug in "
        "omnireader or a library it uses, not a problem with the input: please report it "
        "with the failure's detail",
        detail="".join(traceback.format_exception(e)),
    )
    log_internal([failure])
    return failure


def log_internal(failures: Iterable[ReadFailure]) -> None:
    """Log every ``internal`` failure with its traceback (error level, logger
    ``omnireader``); the batch calls it for failures that come back from a worker, whose
    own log is not kept."""
    for f in failures:
        if f.error == "internal":
            log.error("%s\n%s", f.message, f.detail or "(no traceback)")


def name_file(items: list[MemoryItem], input: Any) -> None:
    """Every item read from a file names that file, even when its parser's sources are
    messages (a chat log): the store finds a file's items by path to replace them."""
    if not isinstance(input, os.PathLike):
        return
    path = str(input)
    for item in items:
        for i, src in enumerate(item.metadata.sources):
            if src.path is None and src.url is None:
                item.metadata.sources[i] = src.model_copy(update={"path": path})


def raise_or_items(result: ReadResult, on_error: str) -> list[MemoryItem]:
    if result.failures and on_error == "raise":
        from ..errors import error_for_code

        f = result.failures[0]
        if f.error == "invalid_input":
            raise InvalidInputError(f.message)
        raise error_for_code(f.error, f.input, f.message.removeprefix(f"{f.input}: "))
    return result.items


def _failure(label: str, e: BaseException) -> ReadFailure:
    if isinstance(e, ReadError):
        return ReadFailure(input=e.input_name, error=e.code, message=str(e))
    if isinstance(e, InvalidInputError):
        return ReadFailure(input=label, error="invalid_input", message=str(e))
    if isinstance(e, MemoryError):
        return ReadFailure(input=label, error="too_large", message=f"{label}: out of memory")
    if isinstance(e, RecursionError):
        return ReadFailure(input=label, error="too_large", message=f"{label}: nested too deeply")
    if isinstance(e, OSError):
        return ReadFailure(
            input=label, error="unreadable", message=f"{label}: {e.strerror or e}"
        )
    return ReadFailure(input=label, error="error", message=f"{label}: {e}")
