"""A package left un-run until used, and the stand-ins an importer takes from it meanwhile
(``omnireader/store/deferred_packages.py``), on a real package written for each test: its
``__init__`` counts its runs in a file, so "not run" and "run once" are seen from outside."""

from __future__ import annotations

import importlib
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omnireader.store.deferred_packages import (
    StandIn,
    defer_package,
    has_run,
    import_standing_in,
    standing_in,
)

INIT = """
from pathlib import Path
_runs = Path(__file__).with_name("runs")
_runs.write_text(str(int(_runs.read_text() or 0) + 1) if _runs.exists() else "1")
from {name}.parts import Shelf


class Heron:
    def __init__(self, name):
        self.name = name


def connect(where):
    return Heron(where)


EXTRA = "only after the real __init__"
__all__ = ["Heron", "Shelf", "connect", "EXTRA"]
"""

# A module of the importing library: binds names at import, uses them in functions.
TAKER = """
from {name} import Heron, connect


def make(where) -> Heron:
    return connect(where)


def is_heron(x) -> bool:
    return isinstance(x, Heron)


class Keeper:
    def hold(self, bird: Heron) -> Heron:
        return bird
"""


class Package:
    def __init__(self, root: Path) -> None:
        self.name = f"pkg_{uuid.uuid4().hex[:8]}"
        self.dir = root / self.name
        self.dir.mkdir()
        (self.dir / "__init__.py").write_text(INIT.format(name=self.name))
        (self.dir / "parts.py").write_text("class Shelf:\n    pass\n")
        (root / f"{self.name}_taker.py").write_text(TAKER.format(name=self.name))

    @property
    def runs(self) -> int:
        runs = self.dir / "runs"
        return int(runs.read_text()) if runs.exists() else 0

    def import_taker(self) -> Any:
        return importlib.import_module(f"{self.name}_taker")


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Package]:
    sys.path.insert(0, str(tmp_path))
    pkg = Package(tmp_path)
    try:
        yield pkg
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith(pkg.name)]:
            del sys.modules[name]


def test_a_deferred_package_runs_its_init_at_the_first_name_asked_for_and_only_once(
    package: Package,
) -> None:
    assert defer_package(package.name)
    from importlib import import_module

    parts = import_module(f"{package.name}.parts")  # submodules import as usual
    assert package.runs == 0 and not has_run(package.name)
    module = sys.modules[package.name]
    assert module.Shelf is parts.Shelf
    assert module.EXTRA == "only after the real __init__"
    assert package.runs == 1 and has_run(package.name)
    with pytest.raises(AttributeError, match="no attribute 'Egret'"):
        module.Egret  # noqa: B018


def test_a_package_imported_already_is_left_as_it_is(package: Package) -> None:
    importlib.import_module(package.name)
    assert not defer_package(package.name)
    assert package.runs == 1 and has_run(package.name)


def test_names_taken_while_standing_in_are_stand_ins_until_first_used(package: Package) -> None:
    with standing_in(package.name, {"Heron", "connect"}) as window:
        taker = package.import_taker()
    assert window is not None and window.beyond == []
    assert isinstance(taker.Heron, StandIn) and isinstance(taker.connect, StandIn)
    assert package.runs == 0

    bird = taker.make("lagoon")  # the first use: the real __init__ runs, once

    real = sys.modules[package.name]
    assert bird.name == "lagoon" and type(bird) is real.Heron
    assert package.runs == 1
    assert taker.Heron is real.Heron and taker.connect is real.connect
    assert taker.is_heron(bird)
    assert taker.make.__annotations__["return"] is real.Heron
    assert taker.Keeper.hold.__annotations__ == {"bird": real.Heron, "return": real.Heron}


def test_a_stand_in_answers_as_the_real_object_before_it_is_replaced(package: Package) -> None:
    with standing_in(package.name, {"Heron", "connect"}):
        taker = package.import_taker()
    heron = taker.Heron  # held by the caller: not replaced, still answers

    class Egret(heron):  # subclassed: the real class is the base
        pass

    real = sys.modules[package.name].Heron
    assert Egret.__mro__[1] is real
    assert isinstance(Egret("x"), heron) and issubclass(Egret, heron)
    assert heron.__name__ == "Heron"
    assert (heron | None) == (real | None)
    assert package.runs == 1


def test_a_name_it_does_not_stand_in_for_gets_the_real_package_at_once(
    package: Package,
) -> None:
    # As when a library's upgrade imports one more name: the plain import, never an error.
    with standing_in(package.name, {"Heron"}) as window:
        taker = package.import_taker()  # also asks for connect
    assert window is not None and window.beyond == ["connect"]
    assert package.runs == 1
    real = sys.modules[package.name]
    assert taker.connect is real.connect
    assert taker.make("pond").name == "pond"  # Heron, taken before, works as well
    assert taker.Heron is real.Heron


def test_after_the_window_and_in_other_threads_the_package_is_the_real_one(
    package: Package,
) -> None:
    seen: dict[str, Any] = {}
    with standing_in(package.name, {"Heron", "connect"}):
        thread = threading.Thread(target=lambda: seen.update(heron=sys.modules[package.name].Heron))
        thread.start()
        thread.join()
    assert not isinstance(seen["heron"], StandIn)
    assert package.runs == 1
    module = importlib.import_module(package.name)
    assert {"EXTRA", "Heron", "Shelf", "connect"} <= set(dir(module))
    assert module.__all__ == ["Heron", "Shelf", "connect", "EXTRA"]


def test_nothing_is_stood_in_for_a_package_already_loaded(package: Package) -> None:
    importlib.import_module(package.name)
    with standing_in(package.name, {"Heron", "connect"}) as window:
        taker = package.import_taker()
    assert window is None
    assert taker.Heron is sys.modules[package.name].Heron


def test_star_importing_a_deferred_package_runs_it_first(package: Package) -> None:
    assert defer_package(package.name)
    namespace: dict[str, Any] = {}
    exec(f"from {package.name} import *", namespace)  # noqa: S102 - the import statement itself
    assert {"EXTRA", "Heron", "Shelf", "connect"} <= set(namespace)
    assert package.runs == 1


def test_an_importer_that_needs_a_real_class_at_import_gets_the_plain_import(
    package: Package, tmp_path: Path
) -> None:
    # As a library upgrade might: issubclass() (or a pydantic field) needs the class itself.
    strict = f"{package.name}_strict"
    (tmp_path / f"{strict}.py").write_text(
        f"from {package.name} import Heron\nIS_CLASS = issubclass(Heron, object)\n"
    )
    try:
        module = import_standing_in(strict, package.name, {"Heron"})
        assert module.IS_CLASS is True
        assert module.Heron is sys.modules[package.name].Heron
        assert package.runs == 1
    finally:
        sys.modules.pop(strict, None)


def test_an_import_that_fails_for_its_own_reasons_still_fails(
    package: Package, tmp_path: Path
) -> None:
    broken = f"{package.name}_broken"
    (tmp_path / f"{broken}.py").write_text(
        f"from {package.name} import Heron\nraise RuntimeError('broken on its own')\n"
    )
    with pytest.raises(RuntimeError, match="broken on its own"):
        import_standing_in(broken, package.name, {"Heron"})
    assert package.runs == 1  # loaded to try again; the second try failed as the first
