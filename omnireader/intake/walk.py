"""Split what a user passed into independent inputs, and walk folders safely."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from omnireader.intake.openai_shapes import is_message, is_part
from omnireader.intake.string_refs import local_path
from omnireader.options import ReadOptions

__all__ = ["expand", "Unreadable", "not_a_file", "link_problem"]


class Unreadable(BaseModel):
    """A folder entry that is not a readable regular file: a link that loops or points
    nowhere, a named pipe, a socket, a device. Reported under ``code``, never opened (a
    pipe with no writer would block whoever opens it)."""

    path: str
    code: str  # an error code: unreadable, unsupported
    reason: str

    @property
    def label(self) -> str:
        return self.path


def expand(inputs: Any, options: ReadOptions | None = None) -> Iterator[Any]:
    """Split what a user passed into independent inputs.

    A list of messages stays one conversation and a list of parts stays one group; any
    other list is a list of inputs. Folders become their files (recursively, sorted,
    symlinked folders not followed, so a link loop cannot trap the walk). An entry that is
    not a regular file (a broken link, a pipe) comes out as :class:`Unreadable`. With
    ``options``, a string naming an existing path (or a ``file://`` URL) becomes that path.
    """
    if isinstance(inputs, (list, tuple)) and not (
        inputs and (all(is_message(x) for x in inputs) or all(is_part(x) for x in inputs))
    ):
        for x in inputs:
            yield from expand(x, options)
        return
    if isinstance(inputs, str) and options is not None:
        path = local_path(inputs, options)
        if path is not None:
            yield from expand(path)
            return
    if isinstance(inputs, os.PathLike) and Path(inputs).is_dir():
        yield from _walk(Path(inputs))
        return
    yield inputs


def _walk(folder: Path) -> Iterator[Path | Unreadable]:
    for root, dirs, files in os.walk(folder, followlinks=False):
        # Hidden folders, caches and omnireader stores (*.lance) hold nothing to read.
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d != "__pycache__" and not d.endswith(".lance")
        )
        for name in sorted(files):
            if not name.startswith("."):
                path = Path(root) / name
                problem = not_a_file(path)
                if problem:
                    yield Unreadable(path=str(path), code=problem[0], reason=problem[1])
                else:
                    yield path


def not_a_file(path: Path) -> tuple[str, str] | None:
    """(code, why) when ``path`` is not a regular file that can be opened, else None."""
    link = link_problem(path)
    if link:
        return "unreadable", link
    try:
        mode = path.stat().st_mode
    except OSError as e:
        return "unreadable", f"cannot read: {e.strerror or e}"
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _SPECIAL if test(mode)), "special file")
    return "unsupported", f"a {kind}, not a regular file; not read"


_SPECIAL = (
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
)


def link_problem(path: Path) -> str | None:
    """Why the symbolic link ``path`` cannot be read (a loop, a missing target), or None."""
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "a symbolic link that loops back on itself; not followed"
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"a symbolic link to {target}, which does not exist"
    return None
