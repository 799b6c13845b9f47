"""Import LanceDB without paying for the REST client it brings and a local store never uses.

``import lancedb`` imports ``lance_namespace``, which imports the models of the generated
``lance_namespace_urllib3_client`` package; that package's ``__init__`` also imports its
nine API modules, whose hundreds of ``pydantic.validate_call`` methods are built on import.
That is about half of ``import lancedb`` (``python -X importtime``), paid by every store
command, worker and test process, for a client that only talks to a LanceDB REST
namespace server.

So the package is put in ``sys.modules`` as a module whose ``__init__`` has not run yet:
its submodules (``.models``, ``.api.table_api`` …) import as usual through its real
``__path__``, and the first time one of its own names is asked for, the real ``__init__``
runs in it and the name is there. Nothing is changed on disk and nothing is left out: a
REST namespace still works, it just loads the client when it first uses it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import types
from typing import Any

__all__ = ["import_lancedb"]

_PACKAGE = "lance_namespace_urllib3_client"


class _PackageNotRunYet(types.ModuleType):
    """A package whose ``__init__`` runs at the first look-up of a name it does not have."""

    _lock = threading.RLock()  # its __init__ imports from itself

    def __getattr__(self, name: str) -> Any:  # called only for names not found
        if name.startswith("__"):  # import machinery probing (__path__, __file__ …)
            raise AttributeError(name)
        with self._lock:
            if not self.__dict__.get("_omnireader_ran"):
                self.__dict__["_omnireader_ran"] = True
                self.__spec__.loader.exec_module(self)  # type: ignore[union-attr]
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}") from None


def _defer_rest_client() -> None:
    if _PACKAGE in sys.modules:
        return
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        return  # not installed, or not a package: LanceDB imports what it imports
    module = _PackageNotRunYet(_PACKAGE)
    module.__spec__ = spec
    module.__loader__ = spec.loader
    module.__file__ = spec.origin
    module.__path__ = list(spec.submodule_search_locations)
    module.__package__ = _PACKAGE
    sys.modules[_PACKAGE] = module


def import_lancedb() -> types.ModuleType:
    """``lancedb``, imported without running the REST client's package ``__init__``."""
    if "lancedb" not in sys.modules:
        _defer_rest_client()
    # LanceDB logs index-building chatter ("partition index is 3 but ...") at WARN to
    # stderr, read once when it loads; keep errors only unless the user asked for more.
    os.environ.setdefault("LANCEDB_LOG", "error")
    import lancedb

    return lancedb
