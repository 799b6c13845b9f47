"""Checking command-line values as they are parsed, so a bad one is a one-line error.

Each checker is an argparse ``type=``: it returns the value or raises
``argparse.ArgumentTypeError`` with what is wrong and what is valid. argparse adds the
option's name, and :class:`OneLineParser` prints ``omnireader: error: argument --k: …`` as
one line and exits with status 2 (a usage error).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = [
    "OneLineParser",
    "EXIT_OK",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_INTERRUPTED",
    "at_least",
    "positive_float",
    "iso_time",
    "choices_of",
    "fail",
]

#: every input read (or skipped as unchanged); for search, the search ran
EXIT_OK = 0
#: some inputs (or parts of inputs) could not be read, the rest was kept; or the run could
#: not do its work (no store, the LLM unreachable)
EXIT_FAILED = 1
#: a usage error: an unknown option, a bad value, a bad setting; nothing was done
EXIT_USAGE = 2
#: interrupted (Ctrl-C); what was written stays, a re-run resumes
EXIT_INTERRUPTED = 130


def fail(message: str) -> NoReturn:
    """Print one ``omnireader: error:`` line and exit with the usage status."""
    print(f"omnireader: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the command, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("omnireader").strip()
        hint = f"omnireader {command} --help" if command else "omnireader --help"
        fail(f"{message} (see {hint})")


def at_least(low: int) -> Callable[[str], int]:
    """An int checker: a whole number ``>= low``."""

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number (expected {low} or more)"
            ) from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small: use {low} or more")
        return value

    check.__name__ = f"whole number ≥ {low}"
    return check


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0")
    return value


def iso_time(text: str) -> str:
    """A time bound: checked here (ISO 8601 date or time), kept as text for the filters."""
    from omnireader.errors import InvalidInputError
    from omnireader.store.filters import parse_bound

    try:
        parse_bound(text)
    except InvalidInputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def choices_of(literal: Any) -> list[str]:
    """The values of a ``Literal`` type, for ``choices=``."""
    from typing import get_args

    return list(get_args(literal))
