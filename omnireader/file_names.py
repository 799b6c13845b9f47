"""File names that are not UTF-8 text: how they are shown, and whether they can be stored.

On Linux a file name is bytes; Python gives the bytes that are not UTF-8 as lone surrogates
(``b'caf\\xe9.txt'`` is ``'caf\\udce9.txt'``). Such a string cannot be written as UTF-8: not
to the store (LanceDB, Arrow), not as JSON, not to a UTF-8 terminal. Reports name the file
in its *shown* form, those bytes written as ``\\xNN``, so the user can find and rename it.
"""

from __future__ import annotations

__all__ = ["shown_path", "is_utf8"]


def is_utf8(text: str) -> bool:
    """True when ``text`` can be written as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(path: str) -> str:
    """``path`` as UTF-8 text: the bytes of its name that are not UTF-8 as ``\\xNN`` (any
    other lone surrogate as ``\\udNNN``); a UTF-8 path is returned as it is."""
    if is_utf8(path):
        return path
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no file name gave (e.g. from JSON)
        return path.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")
