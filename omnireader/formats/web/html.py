"""Cut a web page down to its main content before it becomes Markdown.

Menus, sidebars, cookie banners and "move to sidebar" buttons are page chrome: kept, they
turn into memories nobody wants and drown the article in search. The page's own landmarks
(``<main>``, ``role="main"``, MediaWiki's content div) say where the content is; without
them the whole body is kept minus navigation, asides, footers, forms and buttons. Chrome
named only by its id or class, and blocks of navigation links on a page without landmarks,
go too (:mod:`omnireader.formats.web.html_chrome_hints`).

Content a browser does not show is dropped too: ``display:none`` / ``visibility:hidden``
(and Outlook's ``mso-hide:all``), the ``hidden`` attribute, ``<template>``, short
``aria-hidden`` decorations (icons, duplicated labels) and inline XBRL's ``ix:header``,
whose hidden facts would otherwise open a 10-K with 14,000 characters nobody sees. Text
for screen readers only goes where it notes a link's shown words or labels a player
(:mod:`omnireader.formats.web.html_screen_reader`). Footnote marks stay "[n]" where their
note is on the page (:mod:`omnireader.formats.web.html_note_marks`).
"""

from __future__ import annotations

import html
import re
from typing import Any

from omnireader.formats.alt_text import picture
from omnireader.formats.web.html_chrome_hints import drop_named_and_link_chrome
from omnireader.formats.web.html_note_marks import keep_note_marks
from omnireader.formats.web.html_screen_reader import drop_screen_reader_notes
from omnireader.formats.web.html_walk import gone, parent_named, tags

__all__ = ["main_content_html", "main_content", "is_hidden"]

# Elements that are interface, never content.
_CHROME_TAGS = [
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "aside",
    "footer",
    "form",
    "button",
    "iframe",
    "svg",
    "select",
    "input",
    "dialog",
    "link",
    "meta",
]
_REMOVED_TAGS = frozenset(["head", "title", *_CHROME_TAGS])
_LANDMARKS = ("main", "article")
_CHROME_ROLES = {"navigation", "search", "menu", "menubar", "toolbar", "complementary", "dialog"}
# MediaWiki furniture inside the article: "[edit]" links, jump links, navboxes, categories.
_CHROME_CLASSES = {
    "mw-editsection",
    "mw-jump-link",
    "navbox",
    "vector-dropdown",
    "noprint",
    "catlinks",
    "mw-cite-backlink",
}
# A landmark holding less than this share of the page's text is probably mislabelled.
_MIN_MAIN_SHARE = 0.25
# Inline XBRL's header: hidden facts, schema references and contexts, never shown.
_HIDDEN_TAGS = ["ix:header", "ix:hidden", "ix:references", "ix:resources"]
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all)\b", re.I
)
# aria-hidden only hides from screen readers: what it marks is still on screen. Short
# marked text is decoration (an icon font's glyph, a label said twice); a long block is
# content the page shows, and stays.
_ARIA_DECORATION = 80


def is_hidden(el: Any) -> bool:
    """Whether a browser hides ``el`` (or, for ``aria-hidden``, it is mere decoration)."""
    attrs = el.attrs or {}
    if "hidden" in attrs or el.name in _HIDDEN_TAGS:
        return True
    style = attrs.get("style")
    if style and _HIDDEN_STYLE.search(style if isinstance(style, str) else " ".join(style)):
        return True
    if str(attrs.get("aria-hidden", "")).lower() == "true":
        return _text_len(el) <= _ARIA_DECORATION
    return False


def _is_chrome(el: Any) -> bool:
    attrs = el.attrs or {}
    if el.name in ("header",) and parent_named(el, _LANDMARKS) is None:
        return True  # the site header; a header inside the article holds its title
    if attrs.get("role") in _CHROME_ROLES:
        return True
    if is_hidden(el):
        return True
    classes = attrs.get("class") or []
    if el.name == "sup" and "reference" in classes and el.find("a") is None:
        return True  # a citation's page locator (": 228"); marks are html_note_marks'
    return any(c in _CHROME_CLASSES for c in classes)


def _flatten_links_and_images(root: Any) -> None:
    # Link targets (often kilobyte-long tracking URLs) and image URLs are navigation, not
    # content: keep what a reader sees, the link text and the image's alt text, marked and
    # cleaned as every other reader marks a picture (alt_text.picture).
    for a in tags(root, ("a",)):
        a.unwrap()
    for img in tags(root, ("img",)):
        if mark := picture(img.get("alt")):
            img.replace_with(mark)
        else:
            img.decompose()


def _text_len(el: Any) -> int:
    return len(" ".join(el.get_text(" ").split())) if el is not None else 0


def _main_element(soup: Any) -> Any:
    body = soup.body or soup
    total = _text_len(body) or 1
    # One plain walk for the four candidates, not CSS selectors (soupsieve compiles its
    # grammar on first use, ~0.3 s in a fresh process) nor four find_all walks.
    mains: list[Any] = []
    roles: list[Any] = []
    wikis: list[Any] = []
    articles: list[Any] = []
    for el in tags(soup):
        if el.name == "main":
            mains.append(el)
        elif el.name == "article":
            articles.append(el)
        if el.attrs.get("role") == "main":
            roles.append(el)
        if el.attrs.get("id") == "mw-content-text":
            wikis.append(el)
    for found in (mains, roles, wikis, articles):
        if len(found) == 1 and _text_len(found[0]) >= _MIN_MAIN_SHARE * total:
            return found[0]
    return body


def main_content(soup: Any) -> tuple[str, Any]:
    """The page's title and its main content element, with chrome and hidden content
    removed and links and images flattened (``soup`` is changed in place)."""
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    for el in tags(soup, _HIDDEN_TAGS):  # before measuring: hidden facts are not text
        el.decompose()
    root = _main_element(soup)
    # Screen-reader notes on links and labels of players: before players and links go.
    drop_screen_reader_notes(root)
    # A page without <body> is all root: its <head> and <title> are not body text (the
    # title is returned on its own).
    for el in tags(root, _REMOVED_TAGS):
        el.decompose()
    # Collect first, then remove: decomposing while iterating skips siblings.
    for el in [e for e in tags(root) if _is_chrome(e)]:
        if not gone(el):
            el.decompose()
    # Then the chrome only its id/class names or its links give away; before links are
    # flattened, which the link-density test needs.
    drop_named_and_link_chrome(root, landmarked=root.name not in ("body", "[document]"))
    # Note marks before links go: a mark is a link to its note ("[12]", never "word12").
    keep_note_marks(root)
    _flatten_links_and_images(root)
    return title, root


def main_content_html(data: bytes | str) -> str:
    """A small HTML document with the page's title and only its main content.

    >>> main_content_html(b"<html><body><nav>Home</nav><main><p>Hi</p></main></body></html>")
    '<html><head><title></title></head><body><main><p>Hi</p></main></body></html>'
    """
    from bs4 import BeautifulSoup  # lazy: only HTML needs it

    soup = BeautifulSoup(data, "html.parser")  # bs4 honours <meta charset> when given bytes
    title, root = main_content(soup)
    inner = root.decode_contents() if root.name in ("body", "[document]") else str(root)
    return f"<html><head><title>{html.escape(title)}</title></head><body>{inner}</body></html>"
