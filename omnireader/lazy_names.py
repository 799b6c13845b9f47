"""A package's public names loaded on first use (PEP 562), for ``omnireader``, ``.store``
and ``.llm``: importing the package (the CLI's start, a worker importing one submodule)
does not import pydantic, LanceDB or the writing paths behind names it never asks for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(
    package: str, names: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: ``names`` maps each name to the module (relative
    to the package, with or without the leading dot) that defines it; a name is imported
    once, then kept in ``namespace`` (the package's globals) like any other."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module("." + module.lstrip("."), package), name)
        namespace[name] = value
        return value

    return __getattr__
