"""How a failure is captured instead of stopping the rest of a batch: one bad input (or one
bad part of an input) becomes a failure record, an unexpected exception an ``internal`` one
with its traceback."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

from omnireader.errors import (
    FineModeUnavailableError,
    InvalidInputError,
    OmniReaderError,
    ReadError,
)
from omnireader.models import ReadFailure

log = logging.getLogger("omnireader")

__all__ = ["captured", "internal_failure", "log_internal"]


class FailureRecords(Protocol):
    """What a failure is recorded on: an input's outcome, or one part of it."""

    failures: list[ReadFailure]


@contextmanager
def captured(out: FailureRecords, label: str) -> Iterator[None]:
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
        return ReadFailure(input=label, error="unreadable", message=f"{label}: {e.strerror or e}")
    return ReadFailure(input=label, error="error", message=f"{label}: {e}")
