"""An OpenDocument text's title and heading paragraphs, read as the headings they are.

Writer marks chapter headings as ``text:h`` with an outline level, and odfdo's Markdown
writes those as ``#`` lines. Its "Title" style and its bare "Heading" style (the parent of
Heading 1-10, offered as "Heading" in the style list) are applied to plain ``text:p``
paragraphs, which odfdo writes as body text: a document's own title read as its first
sentence. The DOCX reader reads the same two styles as level-1 headings; this does the
same for ODT by turning such paragraphs into level-1 ``text:h`` before the Markdown is
written:

    mark_headings(doc)   # before doc.to_markdown()

A paragraph counts when its style is one of them, or an automatic style (the wrapper
Writer makes for direct formatting, "P1") whose parent is; a style derived from them
under its own name ("Subtitle", whose parent is "Heading") does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["mark_headings"]

_HEADING_STYLES = frozenset({"Title", "Heading"})


def mark_headings(doc: Any) -> int:
    """Turn ``doc``'s body paragraphs styled Title or Heading into level-1 headings (in
    place); how many were turned."""
    automatic: dict[str, str] = {}  # automatic style name -> its parent's name
    for style in doc.content.get_elements("//office:automatic-styles/style:style"):
        name = style.get_attribute("style:name")
        parent = style.get_attribute("style:parent-style-name")
        if name and parent:
            automatic[str(name)] = str(parent)
    turned = 0
    for paragraph in doc.body.get_elements("//text:p"):
        name = str(paragraph.get_attribute("text:style-name") or "")
        if name in _HEADING_STYLES or automatic.get(name) in _HEADING_STYLES:
            if paragraph.text_recursive.strip():
                paragraph.tag = "text:h"
                paragraph.set_attribute("text:outline-level", "1")
                turned += 1
    return turned
