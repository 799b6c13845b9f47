"""Where a PDF page's links go: the web address, ``mailto:`` or ``tel:`` behind a link.

A link is an annotation over some of the page's text ("Contact us", "our report"); its
target is not in the text layer, so without it "see our report" points nowhere. Each
external link becomes a line of a ``Links:`` block at the end of its page,

    Links:
    - Contact us: mailto:press@example.org
    - annual report: https://example.org/ar2023.pdf

A target the page's text already shows (a printed URL that is also a link) is not
repeated, nor is a target listed twice; links within the document (go to page 4) are
navigation, not content.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = ["PageLink", "link_target", "links_block"]

_ANCHOR_CHARS = 120  # the text under a link is its name, not a paragraph
_SCHEMES = ("http://", "https://", "mailto:", "tel:", "ftp://", "www.")


class PageLink(NamedTuple):
    text: str  # the page text under the link, shortened
    target: str


def link_target(document: Any, annot: Any, textpage: Any) -> PageLink | None:
    """The external target of a link annotation and the text it covers, or None for a
    link within the document or without a target."""
    import pypdfium2.raw as pdfium_c

    link = pdfium_c.FPDFAnnot_GetLink(annot)
    action = pdfium_c.FPDFLink_GetAction(link) if link else None
    if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
        return None
    size = pdfium_c.FPDFAction_GetURIPath(document, action, None, 0)
    if size <= 1:
        return None
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFAction_GetURIPath(document, action, buffer, size)
    target = buffer.raw[: size - 1].decode("latin-1").strip()
    if not target.lower().startswith(_SCHEMES):
        return None  # a relative name or a script: not a place a reader can go
    return PageLink(_covered_text(annot, textpage), target)


def _covered_text(annot: Any, textpage: Any) -> str:
    import pypdfium2.raw as pdfium_c

    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFAnnot_GetRect(annot, rect):
        return ""
    text = " ".join(textpage.get_text_bounded(rect.left, rect.bottom, rect.right, rect.top).split())
    if len(text) > _ANCHOR_CHARS:
        return text[: _ANCHOR_CHARS - 1].rstrip() + "…"
    return text.rstrip(".,;:")  # "the annual report." names the link without its stop


def links_block(links: Iterable[PageLink], page_text: str) -> str:
    """``Links:`` and one ``- text: target`` line per link the page's text does not show
    already, or ``""`` when none is left."""
    shown = page_text.lower()
    lines: list[str] = []
    seen: set[str] = set()
    for link in links:
        bare = (
            link.target.split(":", 1)[1]
            if link.target.lower().startswith(("mailto:", "tel:"))
            else link.target
        )
        bare = bare.removeprefix("//").rstrip("/")
        if link.target in seen or bare.lower() in shown:
            continue
        seen.add(link.target)
        name = link.text if link.text and link.text.lower() not in link.target.lower() else ""
        lines.append(f"- {name}: {link.target}" if name else f"- {link.target}")
    return "Links:\n" + "\n".join(lines) if lines else ""
