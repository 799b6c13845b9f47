"""Markup a page writes for the browser, not the reader, that would otherwise read as text.

- **Permalink marks.** Documentation generators put beside each heading and definition a
  link to its own anchor, shown on hover: Sphinx and MkDocs write "¶", Node.js "#", others
  "§" or "🔗". Read as text, the mark ends every heading and every chunk's heading path
  ("## Menus¶"). A link whose whole text is such a mark (``../data/permalink_marks.txt``)
  and whose address holds a "#" goes; a heading that is itself a link to its anchor stays.
- **Word-break hints.** ``<wbr>`` (where a long name may wrap) splits the name's text in
  the tree, and Markdown's escape then sees "is_" alone and writes "is\\_" (Rustdoc writes
  one after every "_" of an item's name). The hints go and the text is joined again.
- **The markup's newline after** ``<br>``. The source's own line break after a ``<br>`` is
  whitespace, which would start the next line with a space (" exposed by…").
"""

from __future__ import annotations

from typing import Any

from omnireader.formats.web.html_walk import gone, parent_named, tags
from omnireader.formats.word_lists import load_word_list

__all__ = ["PERMALINK_MARKS", "drop_browser_marks"]

#: The word list (``formats/data/permalink_marks.txt``) of permalink marks.
PERMALINK_MARKS = "permalink_marks"
_MARKUP = ["a", "wbr", "br"]


def drop_browser_marks(root: Any) -> None:
    """Remove under ``root`` permalink marks and word-break hints, and the whitespace that
    starts a line after ``<br>`` outside preformatted text (see the module)."""
    from bs4 import NavigableString

    marks = load_word_list(PERMALINK_MARKS)
    hinted = False
    for el in tags(root, _MARKUP):  # one walk of the tree for the three
        if gone(el):
            continue
        if el.name == "a":
            text = el.get_text().strip()
            if text and "#" in str(el.get("href") or "") and marks.match(text):
                el.decompose()
        elif el.name == "wbr":
            el.unwrap()  # libxml2 does not know <wbr> is empty: the text after it is inside
            hinted = True
        else:
            after = el.next_sibling
            if isinstance(after, NavigableString) and parent_named(el, ("pre",)) is None:
                trimmed = after.lstrip()
                if trimmed != after:
                    after.replace_with(trimmed)
    if hinted:
        root.smooth()  # "is_" "mips64_" "feature" back into one string
