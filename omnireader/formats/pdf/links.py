"""Where a PDF page's links go: the web address, ``mailto:`` or ``tel:`` behind a link.

A link is an annotation over some of the page's text ("Contact us", "our report"); its
target is not in the text layer, so without it "see our report" points nowhere. Each
external link becomes a Markdown link where its text stands (``formats/link_text.py``);
links within the document (go to page 4) are navigation, not content.
"""

from __future__ import annotations

import ctypes
from typing import Any

from omnireader.formats.link_text import PageLink

__all__ = ["PageLink", "covered_text", "link_target"]

_ANCHOR_CHARS = 120  # the text under a link is its name, not a paragraph
_SCHEMES = ("http://", "https://", "mailto:", "tel:", "ftp://", "www.")


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
    # "the annual report." names the link without its stop
    return PageLink(covered_text(annot, textpage, _ANCHOR_CHARS).rstrip(".,;:"), target)


def covered_text(annot: Any, textpage: Any, limit: int) -> str:
    """The page text under an annotation (a link, a highlight), on one line, shortened to
    ``limit`` characters with an ellipsis."""
    import pypdfium2.raw as pdfium_c

    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFAnnot_GetRect(annot, rect):
        return ""
    text = " ".join(textpage.get_text_bounded(rect.left, rect.bottom, rect.right, rect.top).split())
    if len(text) > limit:
        return text[: limit - 1].rstrip() + "…"
    return text
