"""The HTTP service (``omnireader serve``) and the MCP server (``omnireader mcp``).

Thin layers over :class:`~omnireader.Reader` and :class:`~omnireader.Store`. They need the
optional extra ``omnireader[server]`` (FastAPI, uvicorn, python-multipart, mcp); nothing
here imports them until a server is really started.
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = ["missing_extra", "INSTALL_HINT"]

INSTALL_HINT = "pip install 'omnireader[server]'"
_NEEDED = {"fastapi": "fastapi", "uvicorn": "uvicorn", "multipart": "python-multipart"}


def missing_extra(extra_modules: dict[str, str] | None = None) -> str | None:
    """One line saying what to install, or None when the server's packages are there."""
    needed = {**_NEEDED, **(extra_modules or {})}
    missing = [pkg for mod, pkg in needed.items() if not _importable(mod)]
    if not missing:
        return None
    return f"the server needs {', '.join(missing)}, which are not installed: run {INSTALL_HINT}"


def _importable(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):  # a blocked or half-installed package
        return False
