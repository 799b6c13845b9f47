"""pydantic's search for plugins, answered ahead when the answer is plainly "none" (CLI only).

The first pydantic model a process builds asks ``importlib.metadata.entry_points(group=
"pydantic")`` for plugins: every installed distribution's metadata is opened and parsed
(~8 ms of CPU in this project's environment, ~70 distributions with entry points; more in a
big one), and LanceDB builds models as it loads, so a cold ``stats`` or ``search`` pays it.
Nearly always nothing declares such a plugin. :func:`declares_pydantic_plugins` looks
for the word ``pydantic`` in the same files, unparsed, which is a superset of what the
real scan finds (~3 ms); only when it finds nothing is pydantic told "no plugins", the
answer its own scan would have given. A plugin that is installed (logfire's, for one) is
never skipped: the word is in its entry points, and pydantic then scans as always.

It is not ``PYDANTIC_DISABLE_PLUGINS``: that would leave the user's plugins out, and be
inherited by every process the command starts. It is only done by the command line
(:mod:`omnireader.cli.main`), a process omnireader runs from start to end; ``import
omnireader`` in a user's program never does it. If pydantic's loader changes (its private
``_plugins`` cache is gone), nothing is done and pydantic scans as usual.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

__all__ = ["declares_pydantic_plugins", "skip_empty_plugin_scan"]


def declares_pydantic_plugins(paths: Iterable[str]) -> bool | None:
    """Whether a distribution on ``paths`` may declare a pydantic plugin: True if one's
    entry points name ``pydantic`` at all, False if none does, None when this quick look
    cannot tell (a zip or ``.egg`` on the path: importlib.metadata reads those too)."""
    for entry in paths:
        folder = entry or "."
        if folder.lower().endswith(".egg") or os.path.isfile(folder):
            return None
        try:
            names = os.listdir(folder)
        except OSError:
            continue  # a missing path entry: importlib.metadata skips it too
        for name in names:
            if not name.lower().endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                    if b"pydantic" in f.read():
                        return True
            except OSError:
                continue  # no entry points (or an .egg-info file): nothing declared there
    return False


def skip_empty_plugin_scan() -> bool:
    """Tell pydantic it has no plugins, before its first model, if plainly none is
    installed; whether it was told."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") is not None:
        return False  # the user's own setting: pydantic reads it
    from importlib.machinery import PathFinder

    # Distributions are found by sys.meta_path's finders: only the standard one is read here.
    if any(
        hasattr(finder, "find_distributions") and finder is not PathFinder
        for finder in sys.meta_path
    ):
        return False
    if declares_pydantic_plugins(sys.path) is not False:
        return False
    try:
        from pydantic.plugin import _loader
    except ImportError:
        return False
    if getattr(_loader, "_plugins", False) is not None:
        return False  # scanned already, or a pydantic whose loader works otherwise
    _loader._plugins = {}
    return True
