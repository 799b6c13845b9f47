"""File names that are not UTF-8 text: the form they are stored and shown in, and the way back.

On Linux a file name is bytes; Python gives the bytes that are not UTF-8 as lone surrogates
(``b'caf\\xe9.txt'`` is ``'caf\\udce9.txt'``). Such a string cannot be written as UTF-8: not
to the store (LanceDB, Arrow), not as JSON, not to a UTF-8 terminal. So such a file is
stored, reported and searched under its *shown* form, those bytes written as ``\\xNN``
(``caf\\xe9.txt``); a UTF-8 name is its own shown form, unchanged. Items get it from
:func:`omnireader.text.unicode_repair.repair_surrogates`, which writes such a byte the same
way, and the store turns every path it is given into it (:func:`shown_path`).

The way back (:func:`disk_path`) compares the names a folder lists, in their shown form,
with the stored one: no guessing which ``\\x`` in a name was a byte. A real UTF-8 file
literally named ``caf\\xe9.txt`` beside ``caf<e9>.txt`` is the (rare) clash: the shown name
leads back to the literal file, and the other cannot be stored (the batch reports it).
"""

from __future__ import annotations

import os
import re

__all__ = ["shown_path", "is_utf8", "escape_bytes", "disk_path", "DiskNames"]

# A surrogate standing for one undecodable byte (surrogateescape), not the low half of a pair.
_ESCAPED_BYTE = re.compile("(?<![\ud800-\udbff])[\udc80-\udcff]")


def is_utf8(text: str) -> bool:
    """True when ``text`` can be written as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escape_bytes(text: str) -> str:
    """``text`` with each surrogate that stands for an undecodable byte written ``\\xNN``
    (the rest of it, any other surrogate included, as it is)."""
    return _ESCAPED_BYTE.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", text)


def shown_path(path: str) -> str:
    """``path`` as UTF-8 text: the bytes of its name that are not UTF-8 as ``\\xNN`` (any
    other lone surrogate as ``\\udNNN``); a UTF-8 path is returned as it is."""
    if is_utf8(path):
        return path
    return escape_bytes(path).encode("utf-8", "backslashreplace").decode("utf-8")


def disk_path(shown: str, names: DiskNames | None = None) -> str | None:
    """The path on disk whose shown form is ``shown`` (itself when it exists), or None."""
    return (names or DiskNames()).find(shown)


class DiskNames:
    """:func:`disk_path` with each folder listed once (a sync or a batch asks many times)."""

    def __init__(self) -> None:
        self._folders: dict[str, dict[str, str]] = {}

    def find(self, shown: str) -> str | None:
        if os.path.lexists(shown):
            return shown
        if "\\x" not in shown or os.sep != "/" or not shown.startswith("/"):
            return None  # nothing escaped (or not a POSIX path): it is gone
        here = "/"
        for part in shown.split("/")[1:]:
            if not part:
                continue
            step = os.path.join(here, part)
            if not os.path.lexists(step):
                name = self._listed(here).get(part) if "\\x" in part else None
                if name is None:
                    return None
                step = os.path.join(here, name)
            here = step
        return here

    def _listed(self, folder: str) -> dict[str, str]:
        """shown form -> name, for the names in ``folder`` that are not UTF-8; two names
        shown alike (a literal ``\\x`` in one): the first in byte order."""
        if folder not in self._folders:
            try:
                entries = sorted(os.listdir(os.fsencode(folder)))
            except OSError:
                entries = []
            found: dict[str, str] = {}
            for raw in entries:
                name = os.fsdecode(raw)
                if not is_utf8(name):
                    found.setdefault(shown_path(name), name)
            self._folders[folder] = found
        return self._folders[folder]
