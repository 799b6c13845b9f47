"""The format registry: one record per format, declared by the module that reads it.

A record says how a format is recognised (its extensions, MIME types and magic tests), how
it is read (an extractor, or the members of a container), and what it needs (a package and
the hint to install it). Sniffing (:mod:`omnireader.formats.sniff`), extraction
(:mod:`omnireader.formats.extract`), containers, the ``supported:`` text of the
``unsupported`` error and the README's format table all come from here.

Adding a format is one module that declares ``FORMATS = (Format(...),)``: every module in
the format families under ``omnireader/formats/`` is read for its records the first time
the registry is asked. A format from outside the package is added with :func:`register`::

    register(Format(name="toy", display="TOY", extensions=(".toy",), mimes=("text/x-toy",),
                    magic=(Magic(10, lambda probe: probe.head.startswith(b"TOY")),),
                    extract=read_toy))

Magic tests run in ``order`` (lowest first) within a layer. ``bytes`` tests see the raw
head; a record whose tests match and that names a ``refines`` layer (ZIP, OLE, text) hands
the probe to that layer's tests, and is the answer itself when none of them match.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from omnireader.errors import ConfigError, UnsupportedFormatError

if TYPE_CHECKING:
    from omnireader.errors import ReadError
    from omnireader.formats.document import Extraction
    from omnireader.formats.probe import Probe
    from omnireader.options import ReadOptions
    from omnireader.payloads import Blob

__all__ = [
    "Format",
    "Magic",
    "Layer",
    "OnError",
    "register",
    "unregister",
    "formats",
    "get",
    "by_kind",
    "chain",
    "supported_text",
    "missing_package",
    "by_extension",
    "readme_rows",
    "readme_table",
]

Layer = Literal["bytes", "zip", "ole", "text"]
OnError = Callable[["ReadError"], None] | None
#: A magic test: False / None when the probe is not this format; True, or the MIME type
#: the bytes show (a TAR's compression, a HEIF sequence), when it is.
MagicTest = Callable[["Probe"], "bool | str | None"]
Extractor = Callable[["Blob", "ReadOptions"], "Extraction"]
Members = Callable[["Blob", "ReadOptions", OnError], Iterator["Blob"]]
MemberFinder = Callable[["Blob", str, "ReadOptions", str], tuple[str, bytes]]

# Stages under formats/ that are not formats: they hold no records.
_NOT_FAMILIES = ("omnireader.formats.ocr", "omnireader.formats.layout")


@dataclass(frozen=True, slots=True)
class Magic:
    """One test in the sniff chain: ``order`` within ``layer``, lowest first."""

    order: int
    test: MagicTest
    layer: Layer = "bytes"


@dataclass(frozen=True)
class Format:
    """Everything the package knows about one format."""

    name: str  # the kind sniffing gives: "pdf", "docx", "eml", ...
    display: str  # how people write it: "PDF", "Word (DOCX)"
    extensions: tuple[str, ...] = ()
    mimes: tuple[str, ...] = ()  # the first is what sniffing reports
    magic: tuple[Magic, ...] = ()
    extract: Extractor | None = None
    # A container: its members, each a Blob named ``container!member``.
    members: Members | None = None
    has_body: bool = False  # a container that is also a document (an e-mail's own text)
    find_member: MemberFinder | None = None  # random access to one member (ZIP, TAR)
    zip_package: bool = False  # a ZIP a library unpacks whole: bomb-checked before reading
    refines: Layer | None = None  # after this record's magic matches, try that layer's
    family: Literal["file", "image", "audio"] = "file"
    kind: str | None = None  # what Sniffed.kind says when it is not ``name`` ("image")
    subtype: str | None = None  # Sniffed.format: jpeg, png, mp3, ...
    resniff_whole: bool = False  # told from the head, may change once the whole file is seen
    package: str | None = None  # the distribution it needs beyond the core install
    install_hint: str | None = None
    hint: str | None = None  # why ``extract`` does not read it (a container, an image, ...)
    listed: bool = True  # named in the ``supported:`` text
    rank: int = 100  # where it comes in that text and the README table (most used first)
    readme: str | None = None  # the README format table: what fast mode makes of it
    readme_group: str | None = None  # records sharing a README row ("images")
    module: str = field(default="", compare=False)

    @property
    def sniffed_kind(self) -> str:
        return self.kind or self.name


class _Registry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._formats: dict[str, Format] = {}
        self._loaded = False
        self._chains: dict[str, list[tuple[Magic, Format]]] | None = None

    def _load(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            import omnireader.formats as package

            found: dict[str, Format] = {}
            for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                if info.name.startswith(_NOT_FAMILIES) or info.name == __name__:
                    continue
                module = importlib.import_module(info.name)
                for fmt in getattr(module, "FORMATS", ()):
                    _add(found, fmt, info.name)
            for name, fmt in self._formats.items():  # registered before the first load
                found[name] = fmt
            self._formats = found
            self._chains = None
            self._loaded = True

    def named(self, name: str) -> Format | None:
        self._load()
        return self._formats.get(name)

    def all(self) -> list[Format]:
        self._load()
        return list(self._formats.values())

    def add(self, fmt: Format) -> None:
        self._load()
        with self._lock:
            _add(self._formats, fmt, fmt.module or "<registered>")
            self._chains = None

    def remove(self, name: str) -> None:
        with self._lock:
            self._formats.pop(name, None)
            self._chains = None

    def chain(self, layer: Layer) -> list[tuple[Magic, Format]]:
        self._load()
        chains = self._chains
        if chains is None:
            chains = {}
            for fmt in self._formats.values():
                for m in fmt.magic:
                    chains.setdefault(m.layer, []).append((m, fmt))
            for tests in chains.values():
                tests.sort(key=lambda pair: pair[0].order)
            self._chains = chains
        return chains.get(layer, [])


def _add(into: dict[str, Format], fmt: Format, module: str) -> None:
    if fmt.name in into and into[fmt.name].module != module:
        raise ConfigError(
            f"format {fmt.name!r} is declared twice: in {into[fmt.name].module} and {module}"
        )
    object.__setattr__(fmt, "module", module)
    into[fmt.name] = fmt


_REGISTRY = _Registry()


def register(fmt: Format) -> Format:
    """Add ``fmt`` to the registry (replacing a record of the same name from the same
    module); returns it, so a module can write ``TOY = register(Format(...))``."""
    _REGISTRY.add(fmt)
    return fmt


def unregister(name: str) -> None:
    """Remove the record ``name`` (a test's toy format)."""
    _REGISTRY.remove(name)


def formats() -> list[Format]:
    """Every record, in the order they were declared."""
    return _REGISTRY.all()


def get(name: str) -> Format | None:
    """The record named ``name``, or None."""
    return _REGISTRY.named(name)


def by_kind(kind: str) -> Format | None:
    """The first record whose sniffed kind is ``kind`` (``image`` has several)."""
    return get(kind) or next((f for f in _REGISTRY.all() if f.sniffed_kind == kind), None)


def chain(layer: Layer) -> list[tuple[Magic, Format]]:
    """The magic tests of ``layer`` in the order they run."""
    return _REGISTRY.chain(layer)


def supported_text() -> str:
    """What the ``unsupported`` error lists: every listed record once, groups once."""
    names: list[str] = []
    for fmt in sorted(_REGISTRY.all(), key=lambda f: f.rank):
        if not fmt.listed:
            continue
        label = {"image": "images", "audio": "audio"}.get(fmt.family, fmt.display)
        if label not in names:
            names.append(label)
    return ", ".join(names)


def readme_rows() -> list[tuple[str, str]]:
    """The README's format table: one row per group of records (or per record), most used
    first, each with what fast mode makes of it."""
    rows: dict[str, str] = {}
    for fmt in sorted(_REGISTRY.all(), key=lambda f: f.rank):
        label = fmt.readme_group or fmt.display
        if fmt.readme and not rows.get(label):
            rows[label] = fmt.readme
        elif fmt.readme or fmt.readme_group:
            rows.setdefault(label, "")
    return [(label, text) for label, text in rows.items() if text]


def readme_table() -> str:
    """:func:`readme_rows` as a Markdown table."""
    lines = ["| file | fast items |", "| --- | --- |"]
    lines += [f"| {label} | {text} |" for label, text in readme_rows()]
    return "\n".join(lines)


def missing_package(fmt: Format, label: str, error: ImportError) -> UnsupportedFormatError:
    """The error for a format whose package is not installed: one line naming it."""
    hint = fmt.install_hint or (f"pip install {fmt.package}" if fmt.package else "")
    return UnsupportedFormatError(
        label,
        f"reading {fmt.display} needs the package {fmt.package or error.name!r}"
        + (f" ({hint})" if hint else ""),
    )


def by_extension(*extensions: str, mime: str | None = None) -> MagicTest:
    """A test that holds when the file's name ends in one of ``extensions`` (a tie-break
    between text formats; the bytes decide everything else)."""

    def test(probe: Probe) -> bool | str:
        return (mime or True) if probe.ext in extensions else False

    return test
