"""Find elements of a parsed page in one plain walk, as BeautifulSoup's searches find them.

A page's reading looks at its tree many times: landmarks, hidden and chrome elements,
dates, note marks, tables. BeautifulSoup's ``find_all`` / ``find_parent`` build a filter
object per call and run every element through it: on Node.js's ``fs.html`` (16k elements)
the searches cost more than parsing the page. These helpers give the same elements, in
the same (document) order, from a plain walk of ``descendants`` or ``parents`` with the
test written out; one walk can collect what several steps need.

A name matches as BeautifulSoup matches it: the tag's name, or ``prefix:name`` when the
tag has a namespace prefix (never, for pages parsed as HTML).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

__all__ = ["named", "tags", "tags_by_name", "parent_named", "gone"]


def named(el: Any, names: Collection[str]) -> bool:
    """Whether the tag ``el`` has one of ``names`` (as ``find_all(names)`` matches it)."""
    if el.name in names:
        return True
    prefix = el.prefix
    return bool(prefix) and f"{prefix}:{el.name}" in names


def _all_tags(root: Any) -> Iterator[Any]:
    from bs4 import Tag

    for el in root.descendants:
        if isinstance(el, Tag):
            yield el


def tags(root: Any, names: Collection[str] | None = None) -> list[Any]:
    """The tags under ``root`` (not ``root`` itself) named one of ``names`` (every tag
    when None), in document order: ``root.find_all(names or True)``."""
    if names is None:
        return list(_all_tags(root))
    return [el for el in _all_tags(root) if named(el, names)]


def tags_by_name(root: Any, names: Collection[str]) -> dict[str, list[Any]]:
    """The tags under ``root`` named one of ``names``, grouped by that name (each list in
    document order): several ``find_all(name)`` in one walk."""
    found: dict[str, list[Any]] = {name: [] for name in names}
    for el in _all_tags(root):
        if el.name in found:
            found[el.name].append(el)
        elif el.prefix and (full := f"{el.prefix}:{el.name}") in found:
            found[full].append(el)
    return found


def parent_named(el: Any, names: Collection[str]) -> Any | None:
    """The nearest ancestor of ``el`` named one of ``names``, or None:
    ``el.find_parent(names)``."""
    parent = el.parent
    while parent is not None:
        if named(parent, names):
            return parent
        parent = parent.parent
    return None


def gone(el: Any) -> bool:
    """Whether ``el`` was decomposed. bs4's ``decomposed`` property looks for the flag
    with ``getattr``, which on a live tag falls through to a search of its whole subtree
    for a tag named "_decomposed"; the flag is in the element's own dict."""
    return bool(el.__dict__.get("_decomposed", False))
