"""Page chrome a page does not mark with HTML5 tags or ARIA roles: told by its names and
by its links.

Pages written before ``<nav>`` and ``<footer>`` (and many after) name their furniture in
``id`` and ``class``: ``<div id="area-nav">``, ``<div id="footer">``, ``<p class="skip">``
("Jump to main content."), ``<ul class="breadcrumbs">``. Such an element is chrome when
one whole token of its id or class (split on ``-``, ``_`` and spaces) names it:
``area-nav`` does, ``navigable`` and ``anchorWithStickyNavbar`` do not. Breadcrumbs,
sidebars, footers and skip links (:data:`PAGE_CHROME_TOKENS`) are chrome anywhere;
navigation and menus (:data:`NAV_TOKENS`) and a site header around no heading
(:data:`SITE_HEADER_TOKENS`) only on a page without a content landmark, since inside
``<main>`` such names may be the content's own (a search result's tabs).

A block of links with short labels and little else ("Publications | Organization |
Technical Information", a list of seven section links) is navigation too, but only on a
page without a content landmark: inside ``<main>`` or an article, a list of links is the
article's (an infobox's founders, "See also"), and a value beside a ``<th>`` label is data.

Conservative both ways: no element holding half the page's text, an ``<h1>`` or a content
landmark is removed, and when everything found would leave almost nothing of the page, the
page is kept as it is.
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.web.html_walk import parent_named, tags

__all__ = ["PAGE_CHROME_TOKENS", "NAV_TOKENS", "SITE_HEADER_TOKENS", "drop_named_and_link_chrome"]

#: id/class tokens that name page furniture, chrome wherever it is: breadcrumbs, sidebars,
#: footers and "skip to content" links.
PAGE_CHROME_TOKENS: tuple[str, ...] = (
    "breadcrumb",
    "breadcrumbs",
    "sidebar",
    "footer",
    "skip",
    "skiplink",
    "skiplinks",
    "skipnav",
)
#: id/class tokens that name navigation: chrome outside the page's marked content; inside
#: it they may name the content's own (a search result's tabs, a hatnote's "Main article").
NAV_TOKENS: tuple[str, ...] = ("nav", "navbar", "navigation", "menu", "menubar")
#: id/class tokens that name the site's header (logo, site name, search, breadcrumbs).
SITE_HEADER_TOKENS: tuple[str, ...] = ("header", "masthead", "banner")

_CELLS = ("td", "th")
_TOKEN_SPLIT = re.compile(r"[-_\s]+")
_HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"]
_LANDMARKS = ["main", "article"]
# Blocks the link-density test looks at (not cells or items: those are parts of a block).
_LINK_BLOCKS = ["ul", "ol", "dl", "menu", "p", "div", "section", "center"]
# Mostly link text: this share of the block's text, in at least two links ...
_LINK_SHARE = 0.8
_MIN_LINKS = 2
# ... whose labels are short, as menu entries are (a citation's link is a title).
_MAX_LABEL_WORDS = 5
# No single element holding this share of the page's text is chrome.
_MAX_ELEMENT_SHARE = 0.5
# Removals that would leave less than this share of the page's text are all undone.
_MIN_KEPT_SHARE = 0.2


def _words(el: Any) -> list[str]:
    return el.get_text(" ").split()


def _text_len(el: Any) -> int:
    return len(" ".join(_words(el)))


def _tokens(el: Any) -> set[str]:
    attrs = el.attrs or {}
    if not attrs.get("id") and not attrs.get("class"):
        return set()  # most elements: nothing to split
    names = [str(attrs.get("id") or ""), *(attrs.get("class") or [])]
    return {t for name in names for t in _TOKEN_SPLIT.split(name.lower()) if t}


def _named_chrome(el: Any, landmarked: bool) -> bool:
    tokens = _tokens(el)
    if tokens.intersection(PAGE_CHROME_TOKENS):
        return True
    if landmarked:
        return False
    if tokens.intersection(NAV_TOKENS):
        return True
    # The site's header, not the article's: around no heading.
    return bool(tokens.intersection(SITE_HEADER_TOKENS)) and el.find(_HEADINGS) is None


def _labelled_value(el: Any) -> bool:
    """Whether ``el`` is the value of a labelled table row (``<th>Founders</th><td>…``)."""
    cell = parent_named(el, _CELLS)
    return cell is not None and cell.find_previous_sibling("th") is not None


def _link_block(el: Any) -> bool:
    if el.name not in _LINK_BLOCKS or _labelled_value(el):
        return False
    labels = [" ".join(_words(a)) for a in el.find_all("a")]
    labels = [label for label in labels if label]
    if len(labels) < _MIN_LINKS:
        return False
    if sum(len(label.split()) for label in labels) / len(labels) > _MAX_LABEL_WORDS:
        return False
    total = _text_len(el)
    return total > 0 and sum(len(label) for label in labels) >= _LINK_SHARE * total


def _protected(el: Any, page_len: int) -> bool:
    if el.name in (*_LANDMARKS, "body", "html") or el.find(["h1", *_LANDMARKS]) is not None:
        return True
    return _text_len(el) > _MAX_ELEMENT_SHARE * page_len


def drop_named_and_link_chrome(root: Any, *, landmarked: bool) -> int:
    """Remove the chrome under ``root`` that its names or its links give away (see the
    module); ``landmarked`` says ``root`` is the page's marked content, where link lists
    are kept. Returns how many elements were removed (0 when the page was kept whole)."""
    page_len = _text_len(root)
    if not page_len:
        return 0
    found: list[Any] = []
    for el in tags(root):  # document order: an outer block before its parts
        if found and any(p is found[-1] for p in el.parents):
            continue  # inside the block found last (those found before it are behind)
        if not (_named_chrome(el, landmarked) or (not landmarked and _link_block(el))):
            continue
        if not _protected(el, page_len):
            found.append(el)
    removed = sum(_text_len(el) for el in found)
    if page_len - removed < _MIN_KEPT_SHARE * page_len:
        return 0  # all of it looks like chrome: keep the page rather than nothing
    for el in found:
        el.decompose()
    return len(found)
