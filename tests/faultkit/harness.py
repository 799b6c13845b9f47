"""The fault matrix's frame: a case, what came of it, and the registry the cases join.

A case is a function that builds its inputs in a fresh folder, reads them, and returns an
:class:`Outcome`: what happened (in the words of the error codes), how many items the
readable inputs lost, and every broken expectation as a sentence. A case passes when it
ran, lost nothing and broke nothing.

    @fault("files", "zero-byte", "a zero-byte file", expected="empty")
    def zero_byte(env: RunEnv) -> Outcome: ...

Adding a case: a file case is a ``@builder`` in :mod:`.files` (see there). Any other case
is a function registered with ``@fault(group, id, title, expected)`` in its group's module
(``limits``, ``network``, ``api``, ``store``, ``llm``, ``together``; a new group joins
``registry.GROUPS``). It builds its inputs under ``env.tmp`` / ``env.folder(name)``, sized by
``env.sizes`` (``Sizes.test()`` in the suite), reads them with ``reading.read_batch`` (via
``env.via``) and returns ``checks.check_batch(...)`` or an ``Outcome`` it fills itself. If
it puts control files beside its input (``fault_cases.write_controls``), it checks them
with ``checks.control_readables`` so their text is checked, not just their count. Only
``../shared`` missing may skip a case (``need_shared``); anything else that goes wrong
fails it. Then list the case id in the matching ``tests/faults/test_<group>.py`` (the
``files``, ``network`` and ``api`` tests pick up new cases by themselves).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from tests.faultkit.fault_cases import Sizes

__all__ = [
    "Scale",
    "Via",
    "RunEnv",
    "Outcome",
    "FaultCase",
    "CASES",
    "fault",
    "run_case",
    "Skip",
    "need_shared",
]

Scale = Literal["test", "full"]
Via = Literal["reader", "ingest"]


class Skip(Exception):
    """The case needs ``../shared`` (the shared corpus), which is not here; says what.

    The only reason a case may skip: anything else that stops a case from running (the
    store, the batch ingest, a child process, the case's own code) is a failure of that
    case, reported with its traceback. Raise it through :func:`need_shared`."""


def need_shared(path: Path, what: str = "") -> Path:
    """``path`` (under ``../shared``) when it exists; else the case skips, naming it."""
    if not path.exists():
        raise Skip(f"{path} is not present" + (f" ({what})" if what else ""))
    return path


@dataclass
class RunEnv:
    """Where and how a case runs."""

    tmp: Path  # a fresh folder for this case alone
    scale: Scale = "test"
    # How folders of files are read: "ingest" writes them into a fresh store through the
    # worker pool (the real batch path); "reader" reads them in this process.
    via: Via = "ingest"

    @property
    def sizes(self) -> Sizes:
        return Sizes.full() if self.scale == "full" else Sizes.test()

    def folder(self, name: str) -> Path:
        path = self.tmp / name
        path.mkdir(parents=True, exist_ok=True)
        return path


class Outcome(BaseModel):
    """What came of one case."""

    outcome: str = ""  # what happened, e.g. "too_large" or "read: 650 items"
    items_lost: int = 0  # items the readable inputs should have given and did not
    problems: list[str] = Field(default_factory=list)  # every broken expectation
    # The control files whose text was checked (``control_report.pdf``, …): the planted-bug
    # self-test expects every row with a PDF control to fail when PDF text is cut short.
    controls: list[str] = Field(default_factory=list)
    skipped: str | None = None  # why the case did not run (only: ../shared is missing)
    via: str = ""  # reader / ingest / pool / api / ...
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.skipped is None and not self.problems and self.items_lost == 0

    @property
    def status(self) -> str:
        return "skipped" if self.skipped else ("pass" if self.passed else "FAIL")


@dataclass(frozen=True)
class FaultCase:
    group: str  # files, limits, network, api, store, llm
    id: str
    title: str  # what the input is, for the table
    expected: str  # the outcome a correct omnireader gives
    run: Callable[[RunEnv], Outcome]


CASES: list[FaultCase] = []


CaseFn = Callable[[RunEnv], Outcome]


def fault(group: str, id: str, title: str, expected: str) -> Callable[[CaseFn], CaseFn]:
    """Register a case function under ``group`` / ``id``."""

    def register(fn: CaseFn) -> CaseFn:
        if any(c.id == id for c in CASES):
            raise ValueError(f"two fault cases are called {id!r}")
        CASES.append(FaultCase(group, id, title, expected, fn))
        return fn

    return register


def run_case(case: FaultCase, env: RunEnv) -> Outcome:
    """Run one case; a case that raises is a failed row with its traceback, never a crash."""
    started = time.perf_counter()
    try:
        out = case.run(env)
    except Skip as e:
        out = Outcome(outcome="-", skipped=str(e))
    except Exception as e:  # noqa: BLE001 - the harness reports it as the row's problem
        out = Outcome(
            outcome=f"raised {type(e).__name__}",
            problems=[f"the case raised {type(e).__name__}: {e}\n{traceback.format_exc()}"],
        )
    out.seconds = time.perf_counter() - started
    return out
