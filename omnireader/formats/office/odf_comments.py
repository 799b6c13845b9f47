"""An OpenDocument file's comments, each with its author and the words it is on.

A comment (``office:annotation``) sits inside the paragraph it annotates, with its author
(``dc:creator``) and date; a comment on a span closes at an ``office:annotation-end`` of
the same name. As the DOCX reader writes them (:mod:`.docx_comments`):

    - Bart Hanssens on "Apache Tika Test Document": Tika is part of the Lucene project.

The comments stay a section of their own, never glued into the text they annotate.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from omnireader.formats.document import Section
from omnireader.formats.office.docx_comments import comment_line

__all__ = ["comment_sections"]


_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_START, _END = "\ue003", "\ue004"  # private use: where this comment's span starts, ends


def _replace(element: Any, text: str) -> None:
    """Take an lxml ``element`` out of its parent, ``text`` (and its tail) in its place."""
    parent, previous = element.getparent(), element.getprevious()
    added = text + (element.tail or "")
    if previous is not None:
        previous.tail = (previous.tail or "") + added
    else:
        parent.text = (parent.text or "") + added
    parent.remove(element)


def _anchor(annotation: Any) -> str:
    """The words a comment is on: its span, when it closes in the same paragraph, else the
    paragraph's words; the text of the comments themselves left out."""
    # odfdo wraps an XML element anew at each look-up: work on the lxml elements.
    target = annotation._Element__element
    parent = target.getparent()
    if parent is None:
        return ""
    name = target.get(_OFFICE + "name")
    copy = deepcopy(parent)
    originals = list(parent.iter(_OFFICE + "annotation"))
    for original, inner in zip(originals, list(copy.iter(_OFFICE + "annotation"))):
        _replace(inner, _START if original is target else "")
    for end in list(copy.iter(_OFFICE + "annotation-end")):
        _replace(end, _END if name and end.get(_OFFICE + "name") == name else "")
    text = "".join(copy.itertext())
    if _START in text and _END in text.split(_START, 1)[1]:
        text = text.split(_START, 1)[1].split(_END, 1)[0]
    return " ".join(text.replace(_START, " ").replace(_END, " ").split())


def comment_sections(doc: Any, plain: Any) -> list[Section]:
    """The ``comments`` section of an odfdo ``Document`` (``plain(element)``: an element's
    text, one line a paragraph)."""
    notes = []
    for annotation in doc.body.get_elements("//office:annotation"):
        paragraphs = [plain(p) for p in annotation.get_elements("descendant::text:p")]
        text = " ".join(p for p in paragraphs if p)
        if not text:
            continue
        author = " ".join((getattr(annotation, "dc_creator", None) or "").split())
        notes.append(f"- {comment_line(author, _anchor(annotation), text)}")
    return [Section(text="\n".join(notes), part="comments", heading="Comments")] if notes else []
