"""Cut a web page down to its main content before it becomes Markdown.

Menus, sidebars, cookie banners and "move to sidebar" buttons are page chrome: kept, they
turn into memories nobody wants and drown the article in search. The page's own landmarks
(``<main>``, ``role="main"``, MediaWiki's content div) say where the content is; without
them the whole body is kept minus navigation, asides, footers, forms and buttons.
"""

from __future__ import annotations

import html
from typing import Any

__all__ = ["main_content_html"]

# Elements that are interface, never content.
_CHROME_TAGS = [
    "script", "style", "noscript", "template", "nav", "aside", "footer", "form", "button",
    "iframe", "svg", "select", "input", "dialog", "link", "meta",
]
_CHROME_ROLES = {"navigation", "search", "menu", "menubar", "toolbar", "complementary", "dialog"}
# MediaWiki furniture inside the article: "[edit]" links, jump links, navboxes, categories.
_CHROME_CLASSES = {
    "mw-editsection", "mw-jump-link", "navbox", "vector-dropdown", "noprint", "catlinks",
    "mw-cite-backlink",
}
# A landmark holding less than this share of the page's text is probably mislabelled.
_MIN_MAIN_SHARE = 0.25


def _is_chrome(el: Any) -> bool:
    attrs = el.attrs or {}
    if el.name in ("header",) and el.find_parent(["main", "article"]) is None:
        return True  # the site header; a header inside the article holds its title
    if attrs.get("role") in _CHROME_ROLES:
        return True
    if attrs.get("aria-hidden") == "true" or "hidden" in attrs:
        return True
    classes = attrs.get("class") or []
    if el.name == "sup" and "reference" in classes:
        return True  # citation marks: "[12]" in the middle of sentences
    return any(c in _CHROME_CLASSES for c in classes)


def _flatten_links_and_images(root: Any) -> None:
    # Link targets (often kilobyte-long tracking URLs) and image URLs are navigation, not
    # content: keep what a reader sees, the link text and the image's alt text.
    for a in root.find_all("a"):
        a.unwrap()
    for img in root.find_all("img"):
        alt = " ".join((img.get("alt") or "").split())
        if alt:
            img.replace_with(f"[image: {alt}]")
        else:
            img.decompose()


def _text_len(el: Any) -> int:
    return len(" ".join(el.get_text(" ").split())) if el is not None else 0


def _main_element(soup: Any) -> Any:
    body = soup.body or soup
    total = _text_len(body) or 1
    for selector in ("main", "[role=main]", "#mw-content-text", "article"):
        found = soup.select(selector)
        if len(found) == 1 and _text_len(found[0]) >= _MIN_MAIN_SHARE * total:
            return found[0]
    return body


def main_content_html(data: bytes | str) -> str:
    """A small HTML document with the page's title and only its main content.

    >>> main_content_html(b"<html><body><nav>Home</nav><main><p>Hi</p></main></body></html>")
    '<html><head><title></title></head><body><main><p>Hi</p></main></body></html>'
    """
    from bs4 import BeautifulSoup  # lazy: only HTML needs it

    soup = BeautifulSoup(data, "html.parser")  # bs4 honours <meta charset> when given bytes
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    root = _main_element(soup)
    for el in root.find_all(_CHROME_TAGS):
        el.decompose()
    # Collect first, then remove: decomposing while iterating skips siblings.
    for el in [e for e in root.find_all(True) if _is_chrome(e)]:
        if not el.decomposed:
            el.decompose()
    _flatten_links_and_images(root)
    inner = root.decode_contents() if root.name in ("body", "[document]") else str(root)
    return f"<html><head><title>{html.escape(title)}</title></head><body>{inner}</body></html>"
