"""Where an item's content was seen: every path, URL and archive member, and how a path
filter matches them.

Item ids hash content, so one item stands for identical bytes wherever they were found
(``x.md``, ``x.txt``, ``bundle.zip!x.md``). The item records each such *location* in
``metadata.seen_at``: a path or URL, with ``!member`` for a file read out of an archive.

A path filter matches a whole location, or a folder on a separator boundary: the store keeps,
per item, the list of its locations plus each of their ancestor folders ending in ``/``
(``path_keys``), so ``--path /docs/a.doc`` is one exact list lookup and never matches
``/docs/a.docx``, and ``--path /docs`` finds everything under ``/docs/``.

    >>> path_keys(["/docs/a.doc", "/docs/b.zip!x/y.md"])
    ['/', '/docs/', '/docs/a.doc', '/docs/b.zip', '/docs/b.zip!x/y.md']
    >>> match_keys("/docs/")
    ['/docs', '/docs/']
"""

from __future__ import annotations

from collections.abc import Iterable

from omnireader.file_names import shown_path
from omnireader.models import MemoryItem, Source
from omnireader.payloads import Blob

__all__ = [
    "location_of",
    "locations_of",
    "split_location",
    "outer_path",
    "path_keys",
    "match_keys",
    "is_under",
    "move_source",
    "with_locations",
]

MEMBER_SEP = "!"


def location_of(source: Source | None) -> str | None:
    """The location a source names: its path or URL, with ``!member`` for archive members."""
    if source is None:
        return None
    base = source.path or source.url
    if not base:
        return None
    return f"{base}{MEMBER_SEP}{source.member}" if source.member else base


def locations_of(item: MemoryItem) -> list[str]:
    """Every location of ``item``: those it records, else the one its first source names."""
    if item.metadata.seen_at:
        return list(dict.fromkeys(item.metadata.seen_at))
    here = location_of(item.source)
    return [here] if here else []


def split_location(location: str) -> tuple[str, str | None]:
    """(path or URL, archive member or None)."""
    base, sep, member = location.partition(MEMBER_SEP)
    # A '!' inside a URL's query or a file name is rare but legal: only split off a member
    # that the store could have written (non-empty, after the outer name).
    return (base, member) if sep and member else (location, None)


def outer_path(location: str) -> str:
    """The file (or URL) a location is in: the archive for a member."""
    return split_location(location)[0]


def _folders(path: str) -> list[str]:
    """Every ancestor folder of ``path``, each ending in ``/`` (URLs: below the host)."""
    head = ""
    rest = path
    scheme, sep, after = path.partition("://")
    if sep:
        host, slash, rest = after.partition("/")
        head = f"{scheme}://{host}"
        if not slash:
            return []
        rest = "/" + rest
    parts = rest.split("/")
    out = []
    for n in range(1, len(parts)):
        folder = "/".join(parts[:n]) + "/"
        out.append(head + folder)
    return out


def path_keys(locations: Iterable[str]) -> list[str]:
    """The locations, their outer files, and every ancestor folder (``…/``), sorted."""
    keys: set[str] = set()
    for loc in locations:
        keys.add(loc)
        base = outer_path(loc)
        keys.add(base)
        keys.update(_folders(base))
    return sorted(keys)


def match_keys(value: str) -> list[str]:
    """The ``path_keys`` entries a path filter ``value`` matches: the whole location, or the
    folder of that name (with a trailing ``/``). A path that is not UTF-8 (as a command line
    gives it) matches in its shown form, the one its items were stored under."""
    value = shown_path(value.strip())
    if value in ("/", ""):
        return ["/"]
    bare = value.rstrip("/") if not value.endswith("://") else value
    return [bare, bare + "/"]


def is_under(location: str, value: str) -> bool:
    """True when a path filter ``value`` matches ``location`` (the same rule as the store)."""
    wanted = set(match_keys(value))
    return any(key in wanted for key in path_keys([location]))


def move_source(source: Source, location: str) -> Source:
    """``source`` pointing at another location of the same content, named after it when
    its name was its location's (a file name given with the bytes stays)."""
    base, member = split_location(location)
    is_url = "://" in base
    path, url = (None, base) if is_url else (base, None)
    update: dict[str, object] = {"path": path, "url": url, "member": member}
    if source.filename and source.filename == _name(source.path, source.url):
        update["filename"] = _name(path, url)
    return source.model_copy(update=update)


def _name(path: str | None, url: str | None) -> str | None:
    """The file name a reader gives a source at ``path`` or ``url`` (the same rule)."""
    return Blob(path=path, url=url).source_name


def _key_name(source: Source) -> str:
    """The key a reader gives a file's items when it finds no title (a member's own name,
    else the file's)."""
    return Blob(
        path=source.path, url=source.url, member=source.member, filename=source.filename
    ).display_name


def with_locations(item: MemoryItem, locations: list[str]) -> MemoryItem:
    """``item`` (a copy when it changes) recording ``locations``. An item seen only where
    its first source says keeps ``seen_at`` empty: stored items read back as they were.

    When its first source's location is gone, the source moves to the first one left, and
    a key that was the old file's name becomes the new one's: the item reads as the copy
    left would have written it (its search text, heading and vector follow, .detach)."""
    first = item.metadata.sources[0] if item.metadata.sources else None
    if first is not None and locations and location_of(first) not in locations:
        first = move_source(first, locations[0])
    record = [] if locations == [location_of(first)] else list(locations)
    if record == item.metadata.seen_at and first is item.source:
        return item
    update: dict[str, object] = {"seen_at": record}
    if first is not item.source:
        update["sources"] = [first, *item.metadata.sources[1:]]
        old = item.source
        if old is not None and first is not None and item.metadata.key == _key_name(old):
            update["key"] = _key_name(first)
    return item.model_copy(update={"metadata": item.metadata.model_copy(update=update)})
