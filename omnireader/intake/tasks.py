"""What routing gives: tasks (a parser, its payload, a label), and the two routes back to
files that message parts need (a part may name a path or carry a file's bytes).

Routing is one pass down: the router (:mod:`.router`) takes what a caller passed, message
parts (:mod:`.parts`) and conversations (:mod:`.conversation`) split it further, and a part
that is a file goes back to the router through :class:`FileRoutes`, handed down, never
imported back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from omnireader.errors import ReadError
from omnireader.models import ReadFailure
from omnireader.options import ReadOptions
from omnireader.parsers.base import get_parser
from omnireader.payloads import Blob

__all__ = ["Task", "FileRoutes", "task"]


class Task(BaseModel):
    """One unit of parsing work: which parser, what payload, and a label for reports."""

    parser: str
    payload: Any
    label: str
    # Set when this part of a larger input could not be read (e.g. one bad attachment):
    # the rest of the input is still parsed and this is reported, never stored.
    failure: ReadFailure | None = None

    @classmethod
    def failed(cls, e: ReadError) -> Task:
        """A part of an input that could not be read: reported, never parsed."""
        failure = ReadFailure(input=e.input_name, error=e.code, message=str(e))
        return cls(parser="", payload=None, label=e.input_name, failure=failure)


def task(parser: str, payload: BaseModel, label: str) -> Task:
    """A task for ``parser``; fails early, with the list of parsers, if it is missing."""
    get_parser(parser)
    return Task(parser=parser, payload=payload, label=label)


@dataclass(frozen=True)
class FileRoutes:
    """How a part that is a file is routed: the router's own path and blob routes."""

    path: Callable[[Path, ReadOptions], list[Task]]
    blob: Callable[[Blob, ReadOptions], list[Task]]
