"""The rules every archive reader shares (ZIP, TAR): which member names are refused, which
are junk, when packed data is a bomb, and how deep containers may nest.

A bomb is data that unpacks to far more than it occupies. A high ratio alone is no harm:
10 MB of zeros, a sparse log or a CSV of empty cells packs a thousand times and is still
just 10 MB. It is the ratio *and* the size together that make a bomb, so
:func:`is_bomb` needs both: over :data:`MAX_RATIO` times and past a floor. Archive members
get a floor of 100 MiB (:data:`MEMBER_RATIO_FLOOR`), the size of a large text file read
from disk anyway; Office / EPUB parts get 8 MiB (:data:`PACKAGE_RATIO_FLOOR`), because the
libraries that read them build whole XML trees, tens of times the bytes.

    >>> is_bomb(10 << 20, 10_000)          # 10 MiB of zeros in 10 kB: harmless
    False
    >>> is_bomb(200 << 20, 200_000)        # 200 MiB in 200 kB: a bomb
    True
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from omnireader.errors import ReadError, TooLargeError
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = [
    "MAX_RATIO",
    "MEMBER_RATIO_FLOOR",
    "PACKAGE_RATIO_FLOOR",
    "is_bomb",
    "bomb_detail",
    "is_safe_member_name",
    "is_junk",
    "check_depth",
    "reporter",
]

# Text and Office XML pack 3-20 times; deflate tops out near 1000 times, which bombs use.
MAX_RATIO = 100
# Below this, a member costs no more than an ordinary file of that size: let it pack as
# tightly as it likes. Above it, a 100x ratio means a bomb, refused before the rest unpacks.
MEMBER_RATIO_FLOOR = 100 << 20
# Package parts are parsed whole into XML trees by libraries, so the floor is lower.
PACKAGE_RATIO_FLOOR = 8 << 20

_DRIVE = re.compile(r"^[A-Za-z]:")
# Operating-system droppings, not content.
_JUNK_DIRS = {"__MACOSX"}
_JUNK_FILES = {"thumbs.db", "desktop.ini"}


def is_bomb(unpacked: int, packed: int, floor: int = MEMBER_RATIO_FLOOR) -> bool:
    """True when ``unpacked`` bytes came from over ``MAX_RATIO`` times fewer ``packed``
    bytes and are past ``floor`` (a high ratio alone is harmless)."""
    return unpacked > floor and unpacked > MAX_RATIO * max(packed, 1)


def bomb_detail(unpacked: int, packed: int, what: str, kind: str = "ZIP") -> str:
    return (
        f"{what} {unpacked} bytes from {packed} packed, over {MAX_RATIO} times "
        f"(a {kind} bomb); not unpacked"
    )


def is_safe_member_name(name: str) -> bool:
    """False for absolute names and names that climb out of the archive (``../x``)."""
    name = name.replace("\\", "/")
    if name.startswith("/") or _DRIVE.match(name):
        return False
    normal = posixpath.normpath(name)
    return not (normal == ".." or normal.startswith("../"))


def is_junk(name: str) -> bool:
    """Folders, ``__MACOSX/``, ``Thumbs.db``, ``desktop.ini`` and dotfiles: not content."""
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    if not parts:
        return True
    if parts[0] in _JUNK_DIRS or parts[-1].lower() in _JUNK_FILES:
        return True
    return any(p.startswith(".") and p not in (".", "..") for p in parts)  # dotfiles


def check_depth(blob: Blob, options: ReadOptions) -> None:
    """Raise :class:`TooLargeError` for a container nested past ``max_archive_depth``.

    One line, at the level that was not opened, saying how to open it: the code stays
    ``too_large`` (a limit was hit, like the byte and member limits).
    """
    depth = 0 if not blob.member else blob.member.count("!") + 1
    limit = options.max_archive_depth
    if depth > limit:
        raise TooLargeError(
            blob.label,
            f"not opened: it is nested {depth} levels deep inside other archives or e-mails, "
            f"past max_archive_depth={limit}; to open it, raise the limit "
            f"(--max-archive-depth {depth}, or ReadOptions(max_archive_depth={depth}))",
        )


def reporter(on_error: Callable[[ReadError], None] | None) -> Callable[[ReadError], None]:
    """What a container does with a member it cannot read: hand it to ``on_error`` (and go
    on to the next member), or raise it when there is none."""

    def fail(error: ReadError) -> None:
        if on_error is None:
            raise error
        on_error(error)

    return fail
