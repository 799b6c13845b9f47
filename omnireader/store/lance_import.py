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

pandas is the other big share (a few tenths of a second): ``lancedb`` imports
``pyarrow.dataset``, whose module init builds a scalar, and pyarrow's pandas shim imports
pandas to ask whether that scalar is a pandas object. No store command uses pandas. So
``pyarrow.dataset`` is imported while pandas cannot be found: the shim notes "no pandas"
and pandas stays unloaded. When anything imports pandas later, the shim is told again
(:class:`_TellPyarrow`), so ``pa.array(series)`` and ``to_pandas()`` work as always.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
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


class _NoPandas(importlib.abc.MetaPathFinder):
    """pandas cannot be found while this is on ``sys.meta_path``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"pandas is deferred ({__name__})", name=name)
        return None


class _TellPyarrow(importlib.abc.MetaPathFinder):
    """Finds pandas as usual, and once it has run, has pyarrow's pandas shim (which was
    told there is no pandas) import it again: its ``compat`` property retries the import."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "pandas":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _ThenTell(spec.loader, self)
                return spec
        return None


class _ThenTell(importlib.abc.Loader):
    def __init__(self, loader: Any, finder: _TellPyarrow) -> None:
        self._loader, self._finder = loader, finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        self._loader.exec_module(module)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        try:
            import pyarrow.lib

            pyarrow.lib._pandas_api.compat  # noqa: B018 - the shim imports pandas again
        except Exception:  # noqa: BLE001 - pyarrow's own integration, as without the deferral
            pass

    def __getattr__(self, name: str) -> Any:  # get_code, is_package, resource readers …
        return getattr(self._loader, name)


def _defer_pandas() -> None:
    if "pyarrow.dataset" in sys.modules or "pandas" in sys.modules:
        return
    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        import pyarrow.dataset  # noqa: F401
    finally:
        sys.meta_path.remove(blocker)
    sys.meta_path.insert(0, _TellPyarrow())


def import_lancedb() -> types.ModuleType:
    """``lancedb``, imported without running the REST client's package ``__init__`` and
    without pandas."""
    if "lancedb" not in sys.modules:
        _defer_rest_client()
        _defer_pandas()
    # LanceDB logs index-building chatter ("partition index is 3 but ...") at WARN to
    # stderr, read once when it loads; keep errors only unless the user asked for more.
    os.environ.setdefault("LANCEDB_LOG", "error")
    import lancedb

    return lancedb
