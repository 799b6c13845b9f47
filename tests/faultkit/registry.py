"""Every fault case, in table order: importing a group's module registers its cases."""

from __future__ import annotations

from . import api, files, limits, llm, mail_office, network, ocr, store, together  # noqa: F401  (register)
from .harness import CASES, FaultCase

__all__ = ["cases", "GROUPS"]

GROUPS = ("files", "limits", "network", "api", "store", "llm")


def cases(select: list[str] | None = None) -> list[FaultCase]:
    """The cases whose id or group is in ``select`` (all without), grouped as GROUPS."""
    chosen = [c for c in CASES if not select or c.id in select or c.group in select]
    return sorted(chosen, key=lambda c: GROUPS.index(c.group) if c.group in GROUPS else 99)
