"""Footnote and citation marks of a web page, kept as "[n]" where their note is.

A page marks a note with a superscript link to the note further down: Wikipedia's
``<sup class="reference"><a href="#cite_note-12">[12]</a></sup>``, a blog's
``<sup><a href="#fn1">1</a></sup>``, Pandoc's ``<a class="footnote-ref"><sup>1</sup></a>``,
an EPUB's ``epub:type="noteref"``. Flattened as text, the second and third glue their
number to the word before ("in 20231"), and dropped, no mark says that a note explains the
sentence. A mark becomes "[label]", its brackets written once, when the note it points to
is in the page's content, so the mark and the numbered note can be found together; a
mark whose note is not there (a page saved without its reference list, a note in chrome
that was removed) points nowhere and is dropped.

A mark is a link to an anchor of the same page (``href="#…"``) that is superscript (inside
or around a ``<sup>``) or says it is a note reference (``role="doc-noteref"``,
``epub:type="noteref"``), with a label of at most :data:`_MAX_LABEL` characters; a
superscript link of longer text is a link, and stays as it is.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from omnireader.formats.web.html_walk import gone, parent_named, tags

__all__ = ["keep_note_marks"]

_MAX_LABEL = 10  # "12", "a", "note 3", "*": a label; anything longer is linked text
_NOTEREF = "noteref"


def _anchors(root: Any) -> set[str]:
    found: set[str] = set()
    for el in tags(root):
        for attr in ("id", "name"):
            value = el.attrs.get(attr)
            if isinstance(value, str) and value:
                found.add(value)
    return found


def _says_noteref(link: Any) -> bool:
    kinds = f"{link.get('role', '')} {link.get('epub:type', '')}".lower()
    return _NOTEREF in kinds


def _mark_element(link: Any) -> Any | None:
    """The element the mark is (the ``<sup>`` around a link that is all of it, else the
    link), or None when ``link`` is no note mark."""
    text = link.get_text(strip=True)
    sup = parent_named(link, ("sup",))
    if sup is not None and sup.get_text(strip=True) == text:
        return sup
    if sup is not None or link.find("sup") is not None or _says_noteref(link):
        return link
    return None


def keep_note_marks(root: Any) -> int:
    """Write every note mark under ``root`` as "[label]" when its note is in ``root``, and
    drop it when not (see the module); returns how many were kept."""
    anchors = _anchors(root)
    kept = 0
    for link in [a for a in tags(root, ("a",)) if a.get("href") is not None]:
        href = str(link["href"])
        if gone(link) or not href.startswith("#") or len(href) < 2:
            continue
        element = _mark_element(link)
        label = link.get_text(strip=True).strip("[]").strip()
        if element is None or not label or len(label) > _MAX_LABEL:
            continue
        if unquote(href[1:]) in anchors:
            element.replace_with(f"[{label}]")
            kept += 1
        else:
            element.decompose()
    return kept
