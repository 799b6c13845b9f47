"""A package in ``sys.modules`` whose ``__init__`` has not run yet, and stand-ins for the
names an importer takes from it while it has not (``omnireader/store/lance_import.py``).

:func:`defer_package` puts the real package there, ``__init__`` not run: its submodules import
as usual through its real ``__path__``, and the first look-up of a name it does not have runs
the real ``__init__`` in it and answers with the real object. Nothing is changed on disk and
nothing is left out; a package used is a package loaded.

:func:`standing_in` goes one step further for a ``from package import A, B`` that only binds
names for later: while it is open, the thread that opened it gets a :class:`StandIn` for each
of the names it lists, without the ``__init__`` running; any other name, any other thread, or
any look-up after it closes runs the ``__init__``. A stand-in is used as the real object
(called, ``isinstance``/``issubclass``, subclassed, its attributes read); the first use runs the
``__init__`` and puts the real objects in place of every stand-in in the modules that took one
(their globals and their functions' annotations), so their code runs on the real objects from
then on.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "NotRunYet",
    "StandIn",
    "defer_package",
    "has_run",
    "import_standing_in",
    "standing_in",
]

_lock = threading.RLock()  # an __init__ may import from its own package
_ran: set[str] = set()  # the deferred packages whose __init__ has run
_windows: dict[str, _Window] = {}  # package name -> the stand-ins handed out for it


class NotRunYet(types.ModuleType):
    """A package whose ``__init__`` runs at the first look-up of a name it does not have."""

    def __getattr__(self, name: str) -> Any:  # called only for names not found
        if name.startswith("__") and name != "__all__":  # import machinery probing
            raise AttributeError(name)
        window = _windows.get(self.__name__)
        if window is not None and window.serves(name):
            return window.stand_in(self, name, sys._getframe(1).f_globals)
        if window is not None and window.open:
            window.beyond.append(name)
        run_init(self)
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}") from None

    def __dir__(self) -> list[str]:
        run_init(self)
        return list(self.__dict__)


def defer_package(name: str) -> bool:
    """Put package ``name`` in ``sys.modules`` with its ``__init__`` not run; False when it is
    there already, not installed or not a package (then it imports as it always does)."""
    if name in sys.modules:
        return False
    parent, _, child = name.rpartition(".")
    if parent and parent not in sys.modules:
        return False  # finding a submodule imports its parent: defer the parent first
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        return False
    module = NotRunYet(name)
    module.__spec__ = spec
    module.__loader__ = spec.loader
    module.__file__ = spec.origin
    module.__path__ = list(spec.submodule_search_locations)
    module.__package__ = name
    sys.modules[name] = module
    if parent:  # as the import system does when it loads a submodule
        setattr(sys.modules[parent], child, module)
    return True


def has_run(name: str) -> bool:
    """Whether package ``name``'s ``__init__`` has run (True when it was never deferred)."""
    module = sys.modules.get(name)
    return not isinstance(module, NotRunYet) or name in _ran


def run_init(module: NotRunYet) -> None:
    """Run the package's real ``__init__`` in it, once; then put the real objects in place
    of the stand-ins handed out for it."""
    with _lock:
        if module.__name__ in _ran:
            return
        _ran.add(module.__name__)
        try:
            module.__spec__.loader.exec_module(module)  # type: ignore[union-attr]
        except BaseException:
            _ran.discard(module.__name__)  # as a failed import: the next use tries again
            raise
        window = _windows.pop(module.__name__, None)
    if window is not None:
        window.put_real(module)


class StandIn:
    """A name taken from a package whose ``__init__`` has not run, used as the real object."""

    __slots__ = ("_name", "_package")

    def __init__(self, package: NotRunYet, name: str) -> None:
        self._package, self._name = package, name

    def _real(self) -> Any:
        run_init(self._package)
        return getattr(self._package, self._name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._real()(*args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._real(), attr)

    def __instancecheck__(self, obj: Any) -> bool:
        return isinstance(obj, self._real())

    def __subclasscheck__(self, cls: Any) -> bool:
        return issubclass(cls, self._real())

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[Any, ...]:
        return (self._real(),)

    def __getitem__(self, item: Any) -> Any:
        return self._real()[item]

    def __or__(self, other: Any) -> Any:
        return self._real() | other

    def __ror__(self, other: Any) -> Any:
        return other | self._real()

    def __repr__(self) -> str:
        return f"<{self._package.__name__}.{self._name}, not loaded yet>"


class _Window:
    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)
        self.thread = threading.get_ident()
        self.open = True
        self.given: dict[str, StandIn] = {}
        self.takers: list[dict[str, Any]] = []  # the globals of the modules that took one
        self.beyond: list[str] = []  # names asked for that it does not stand in for

    def serves(self, name: str) -> bool:
        return self.open and name in self.names and threading.get_ident() == self.thread

    def stand_in(self, package: NotRunYet, name: str, taker: dict[str, Any]) -> StandIn:
        if not any(t is taker for t in self.takers):
            self.takers.append(taker)
        return self.given.setdefault(name, StandIn(package, name))

    def put_real(self, package: types.ModuleType) -> None:
        real = {id(s): package.__dict__[n] for n, s in self.given.items() if n in package.__dict__}
        for taker in self.takers:
            for key, value in list(taker.items()):
                if id(value) in real:
                    taker[key] = real[id(value)]
                for function in _functions(value, taker.get("__name__")):
                    _replace(getattr(function, "__annotations__", None), real)


def _functions(value: Any, module: str | None) -> Iterator[Any]:
    """The functions defined in ``module`` (its own, its classes' methods and properties)."""
    if not isinstance(value, (types.FunctionType, type)) or value.__module__ != module:
        return
    if isinstance(value, types.FunctionType):
        yield value
    elif isinstance(value, type):
        for member in vars(value).values():
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            elif isinstance(member, property):
                yield from (f for f in (member.fget, member.fset) if f is not None)
                continue
            if isinstance(member, types.FunctionType):
                yield member


def _replace(annotations: Any, real: dict[int, Any]) -> None:
    if isinstance(annotations, dict):
        for key, value in list(annotations.items()):
            if id(value) in real:
                annotations[key] = real[id(value)]


@contextmanager
def standing_in(package: str, names: Iterable[str]) -> Iterator[_Window | None]:
    """While open, ``from package import name`` (for ``names``, by this thread) gives a
    :class:`StandIn` and leaves the package's ``__init__`` for later; yields the window
    (None when the package is loaded already or not installed: nothing is stood in for)."""
    defer_package(package)
    if not isinstance(sys.modules.get(package), NotRunYet) or has_run(package):
        yield None
        return
    with _lock:
        window = None if package in _windows else _windows.setdefault(package, _Window(names))
    if window is None:  # an earlier one, closed: the package's names load for real
        yield None
        return
    try:
        yield window
    finally:
        window.open = False


def import_standing_in(name: str, package: str, names: Iterable[str]) -> types.ModuleType:
    """``import name`` with ``names`` of ``package`` stood in for while it runs. If that import
    fails while the package has not run (something needed a real class, as ``issubclass`` or
    a pydantic field does), the package is loaded and ``name`` imported again: the modules that
    took stand-ins get the real objects, so the second import is the plain one."""
    window = None
    try:
        with standing_in(package, names) as window:
            return importlib.import_module(name)
    except Exception:
        module = sys.modules.get(package)
        if window is None or not isinstance(module, NotRunYet) or has_run(package):
            raise  # not the stand-ins' doing
        run_init(module)
        return importlib.import_module(name)
