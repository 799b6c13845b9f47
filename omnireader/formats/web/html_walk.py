"""Find elements of a parsed page in one plain walk, as BeautifulSoup's searches find them.

A page's reading looks at its tree many times: landmarks, hidden and chrome elements,
dates, note marks, tables. BeautifulSoup's ``find_all`` / ``find_parent`` build a filter
object per call and run every element through it: on Node.js's ``fs.html`` (16k elements)
the searches cost more than parsing the page. These helpers give the same elements, in
the same (document) order, from a plain walk of ``descendants`` or ``parents`` with the
test written out; one walk can collect what several steps need (page_meta's metas,
JSON-LD and microdata; main_content's four landmark candidates).

A name matches as BeautifulSoup matches it: the tag's name, or ``prefix:name`` when the
tag has a namespace prefix (never, for pages parsed as HTML).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

__all__ = ["named", "tags", "parent_named", "own_rows", "gone"]


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


def parent_named(el: Any, names: Collection[str]) -> Any | None:
    """The nearest ancestor of ``el`` named one of ``names``, or None:
    ``el.find_parent(names)``."""
    parent = el.parent
    while parent is not None:
        if named(parent, names):
            return parent
        parent = parent.parent
    return None


def own_rows(table: Any) -> list[Any]:
    """The ``<tr>`` rows of ``table`` itself, not those of a table nested in it."""
    return [tr for tr in tags(table, ("tr",)) if parent_named(tr, ("table",)) is table]


def gone(el: Any) -> bool:
    """Whether ``el`` was decomposed. bs4's ``decomposed`` property looks for the flag
    with ``getattr``, which on a live tag falls through (``Tag.__getattr__``) to a search
    of its whole subtree for a tag named "_decomposed". The flag is looked up without that
    fallback (and without ``__dict__``, which would build a dict per element)."""
    try:
        return bool(_own_attribute(el, "_decomposed"))
    except AttributeError:
        return False


_own_attribute = object.__getattribute__
