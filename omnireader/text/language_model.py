"""py3langid's model, loaded fast: unpacked once into a local cache, then memory-mapped.

The model ships in its wheel as one xz-compressed ``.npz`` (4.5 MB, 68 MB unpacked).
Unpacking it takes 1.5-3 s, in every process that meets a text its script does not name.
The first process unpacks it into ``$OMNIREADER_CACHE_DIR`` (default
``$XDG_CACHE_HOME/omnireader``, else ``~/.cache/omnireader``) as plain ``.npy`` arrays; later
processes map them (a few tens of milliseconds). Nothing is downloaded: the cache is made
from the wheel's own file, keyed by its version, size and time, and written atomically
(a temporary folder renamed into place), so parallel workers never read half a cache. A
cache that cannot be written (a read-only home) is skipped: the model is then unpacked in
memory, as py3langid does itself.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["load_identifier", "cache_root"]

try:  # the compiled walk (optional: built by setup.py where a C compiler is)
    from omnireader.text import _scan as scan
except ImportError:  # pragma: no cover - exercised where no compiler built it
    scan = None

_ARRAYS = ("ptc", "pc", "nextmove", "nextmove_row", "out_feat")


def cache_root() -> Path:
    """Where omnireader keeps what it derives from installed packages."""
    configured = os.environ.get("OMNIREADER_CACHE_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "omnireader" if xdg else Path.home() / ".cache" / "omnireader"


def _model_file() -> Path:
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    return Path(MODEL_DIR) / MODEL_FILE


def _cache_dir(model: Path) -> Path:
    from importlib.metadata import version

    stat = model.stat()
    return cache_root() / f"py3langid-{version('py3langid')}-{stat.st_size}-{stat.st_mtime_ns}"


def _unpack(model: Path, target: Path) -> None:
    import lzma

    import numpy as np

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".py3langid-", dir=target.parent))
    try:
        with tempfile.TemporaryFile(suffix=".npz") as tmp:
            with lzma.open(model) as src:
                shutil.copyfileobj(src, tmp, length=1 << 20)
            tmp.seek(0)
            with np.load(tmp, allow_pickle=False) as data:
                for name in _ARRAYS:
                    np.save(staging / f"{name}.npy", data[name], allow_pickle=False)
                classes = data["classes"].tolist()
        (staging / "classes.json").write_text(json.dumps(classes), encoding="utf-8")
        try:
            os.rename(staging, target)  # atomic; fails if another process won the race
        except OSError:
            if not (target / "classes.json").is_file():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _from_cache(folder: Path) -> Any:
    import numpy as np

    arrays = {
        name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in _ARRAYS
    }
    classes = json.loads((folder / "classes.json").read_text(encoding="utf-8"))
    identifier = _identifier_class()(
        np.asarray(arrays["ptc"]),
        np.asarray(arrays["pc"]),
        classes,
        _ints(arrays["nextmove"]),
        np.asarray(arrays["out_feat"]).tolist(),
        norm_probs=True,
        tk_row=_ints(arrays["nextmove_row"]),
    )
    identifier.outputs = _ints(arrays["out_feat"])
    return identifier


def _identifier_class() -> type:
    """py3langid's identifier, its automaton walked by the compiled ``feature_counts``
    (``_scan.c``) where it is built: the same counts in the same order, so the same scores."""
    from py3langid.langid import LanguageIdentifier

    class Identifier(LanguageIdentifier):  # type: ignore[misc]
        __slots__ = ("outputs",)

        def _raw_score(self, text: bytes) -> Any:
            if scan is None or not isinstance(text, bytes):
                return super()._raw_score(text)
            visits = scan.feature_counts(self.tk_nextmove, self.tk_row, self.outputs, text)
            if visits is None:
                return super()._raw_score(b"")  # no feature: py3langid's own answer
            return self._sparse_score(visits, self.nb_ptc)

    return Identifier


def _ints(mapped: Any) -> Any:
    """The mapped integer array as the DFA walk reads it, item by item (``py3langid``
    copies it into an ``array.array``): a memoryview over the mapping gives the same ints,
    as fast, without the copy (~40 MB and ~0.4 s a process for the transition table), and
    the pages stay shared between processes."""
    import numpy as np

    data = np.ascontiguousarray(mapped)  # already contiguous: the mapping itself
    return memoryview(data).cast("B").cast(data.dtype.char)


def load_identifier() -> Any:
    """py3langid's identifier (probabilities normalised), from the cache when it can."""
    model = _model_file()
    try:
        folder = _cache_dir(model)
        if not (folder / "classes.json").is_file():
            _unpack(model, folder)
        return _from_cache(folder)
    except (OSError, ValueError):  # no writable cache, or a damaged one: unpack in memory
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
