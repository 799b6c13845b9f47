"""Import LanceDB without paying for the REST client it brings and a local store never uses.

``import lancedb`` imports ``lance_namespace``, which imports the models of the generated
``lance_namespace_urllib3_client`` package; that package's ``__init__`` also imports its
nine API modules, whose hundreds of ``pydantic.validate_call`` methods are built on import.
That is about half of ``import lancedb`` (``python -X importtime``), paid by every store
command, worker and test process, for a client that only talks to a LanceDB REST
namespace server.

So the package is put in ``sys.modules`` as a module whose ``__init__`` has not run yet
(``deferred_packages.py``): its submodules (``.api.table_api`` …) import as usual through
its real ``__path__``, and the first time one of its own names is asked for, the real
``__init__`` runs in it and the name is there. Its ``models`` package is deferred the same
way, so the nine models ``lancedb/namespace.py`` imports by module load alone (16 modules
of 146). Nothing is changed on disk and nothing is left out: a REST namespace still works,
it just loads the client when it first uses it.

``lance_namespace`` itself re-exports all those models from its ``__init__`` (~0.08 s of
CPU), and LanceDB only binds nine of its names at import (:data:`NAMESPACE_NAMES`: the
``LanceNamespace`` class, ``connect``, seven request/response models) for the methods that
talk to a namespace. While LanceDB imports, each is a stand-in
(:func:`~omnireader.store.deferred_packages.standing_in`); the first use of one (a
``connect_namespace``, ``list_namespaces`` …) loads the real package and puts the real
objects in LanceDB's modules, and ``import lance_namespace`` is always the real package. A
LanceDB that asks for any other name gets the real package there and then (the plain
import: slower, never broken); ``tests/store/test_lance_import.py`` says when that happens.

pandas is the other big share (a few tenths of a second): ``lancedb`` imports
``pyarrow.dataset``, whose module init builds a scalar, and pyarrow's pandas shim imports
pandas to ask whether that scalar is a pandas object (the first ``pa.array`` of a list does
the same: a parser worker building rows paid it too). No store command uses pandas. So the
shim is asked while pandas cannot be found (:func:`defer_pandas`): it notes "no pandas"
and pandas stays unloaded. When anything imports pandas later, the shim is told again
(:class:`_TellPyarrow`), so ``pa.array(series)`` and ``to_pandas()`` work as always.

Two more shares go while ``lancedb`` imports (:func:`_lighter_classes`), undone right after:

- the REST client's ~150 generated pydantic models, and the ~28 of ``lancedb.functions``
  (remote functions' wire state), are built with ``defer_build``: their validators are made
  the first time one is used, which a local store never does;
- on Python < 3.12 LanceDB decorates its methods with the ``overrides`` package's
  ``@override``, which disassembles the whole module body for every method to find its
  base classes; it gets what Python 3.12's ``typing.override`` (which LanceDB uses there)
  does: the ``__override__`` mark, nothing else.

Measured (CPU seconds of ``import_lancedb()`` in a fresh process, two cores at load ~20,
min of 3): 0.99 without these two, 0.67-0.74 with them; at load ~2, with them, 0.35 without
the ``lance_namespace`` stand-ins and 0.28 with them.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from omnireader.store.deferred_packages import defer_package, import_standing_in

__all__ = ["NAMESPACE_NAMES", "defer_pandas", "import_lancedb"]

_PACKAGE = "lance_namespace_urllib3_client"
# What LanceDB takes from ``lance_namespace`` when it loads (lancedb/db.py, remote/db.py,
# namespace.py; 0.40): only bound for functions that talk to a namespace.
# tests/store/test_lance_import.py says when an upgrade changes it.
NAMESPACE_NAMES = frozenset(
    {
        "LanceNamespace",
        "connect",
        "CreateNamespaceResponse",
        "DescribeNamespaceResponse",
        "DropNamespaceResponse",
        "ListNamespacesResponse",
        "ListTablesResponse",
        "NamespaceExistsRequest",
        "TableExistsRequest",
    }
)


def _defer_rest_client() -> None:
    # The package, then its models package: lancedb/namespace.py imports nine of its models
    # by module, which then load without the other ~140.
    if defer_package(_PACKAGE):
        defer_package(_PACKAGE + ".models")


class _NoPandas(importlib.abc.MetaPathFinder):
    """pandas cannot be found while this is on ``sys.meta_path``, by the thread that put it
    there (another thread importing pandas meanwhile gets it as usual)."""

    def __init__(self) -> None:
        self._thread = threading.get_ident()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if threading.get_ident() != self._thread:
            return None
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


def defer_pandas(*modules: str) -> None:
    """Have pyarrow's pandas shim look for pandas now, while it cannot be found: it notes
    "no pandas" and never imports it (~0.3 s) to ask whether a list given to ``pa.array`` is
    a pandas object, as the first ``pa.array`` of a process does. ``modules`` are imported
    meanwhile (``pyarrow.dataset``, whose init looks for pandas itself). Once anything
    imports pandas, the shim is told (:class:`_TellPyarrow`)."""
    if "pandas" in sys.modules:
        return
    todo = [m for m in modules if m not in sys.modules]
    told = any(isinstance(f, _TellPyarrow) for f in sys.meta_path)
    if told and not todo:
        return
    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        import pyarrow.lib

        pyarrow.lib._pandas_api.have_pandas  # noqa: B018 - the shim looks, and remembers
        for name in todo:
            importlib.import_module(name)
    finally:
        sys.meta_path.remove(blocker)
    if not told:
        sys.meta_path.insert(0, _TellPyarrow())


def _mark_override(method: Any = None, **_: Any) -> Any:
    """``typing.override`` (Python 3.12): mark the method, check nothing."""
    if method is None:
        return _mark_override
    try:
        method.__override__ = True
    except (AttributeError, TypeError):
        pass
    return method


# Whose pydantic models are built when first used: the REST client's, and LanceDB's wire
# models for remote functions (``lancedb.functions``, ~28 classes, ~10 ms), which a local
# store never validates.
_LAZY_MODELS = (_PACKAGE, "lancedb.functions")


def _deferring(config_dict: Callable[..., Any]) -> Callable[..., Any]:
    def config(**values: Any) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if any(caller == m or caller.startswith(m + ".") for m in _LAZY_MODELS):
            values.setdefault("defer_build", True)
        return config_dict(**values)

    return config


@contextmanager
def _lighter_classes() -> Iterator[None]:
    """While LanceDB imports: the REST client's models built lazily, ``@override`` light."""
    undo: list[tuple[Any, str, Any]] = []
    try:
        import pydantic

        undo.append((pydantic, "ConfigDict", pydantic.ConfigDict))
        pydantic.ConfigDict = _deferring(pydantic.ConfigDict)  # type: ignore[assignment]
    except ImportError:
        pass
    if sys.version_info < (3, 12):
        try:
            import overrides

            undo.append((overrides, "override", overrides.override))
            overrides.override = _mark_override
        except ImportError:
            pass
    try:
        yield
    finally:
        for module, name, value in undo:
            setattr(module, name, value)


def import_lancedb() -> types.ModuleType:
    """``lancedb``, imported without running the REST client's package ``__init__`` and
    without pandas."""
    if "lancedb" not in sys.modules:
        _defer_rest_client()
        defer_pandas("pyarrow.dataset")
    # LanceDB logs index-building chatter ("partition index is 3 but ...") at WARN to
    # stderr, read once when it loads; keep errors only unless the user asked for more.
    os.environ.setdefault("LANCEDB_LOG", "error")
    if "lancedb" in sys.modules:
        return sys.modules["lancedb"]
    with _lighter_classes():
        return import_standing_in("lancedb", "lance_namespace", NAMESPACE_NAMES)
