"""The parts of a DOCX around its body: page headers and footers, endnotes and comments.

Each comes back as its own section, marked with ``part`` (``header``, ``footer``,
``endnotes``, ``comments``) so search can filter or weight it; the body and the notes it
cites are :mod:`.docx_markdown`'s (an endnote no reference cites is an ``endnotes`` part). A header repeated by every section of the document
is read once.

    for section in docx_part_sections(docx.Document("report.docx")):
        print(section.part, section.text)
"""

from __future__ import annotations

from typing import Any

from omnireader.formats.document import Section
from omnireader.formats.office.docx_comments import comment_lines

__all__ = ["docx_part_sections"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_SKIP = {_W + t for t in ("delText", "instrText", "pPr", "rPr")}
# Separator "notes" (ids -1 and 0, or typed) hold only the rule above the notes.
_SEPARATORS = {"separator", "continuationSeparator", "continuationNotice"}


def _paragraph(p: Any) -> str:
    out: list[str] = []
    stack = [p]
    while stack:
        el = stack.pop()
        if el.tag in _SKIP:
            continue
        if el.tag == _W + "t" and el.text:
            out.append(el.text)
        elif el.tag == _W + "tab":
            out.append("\t")
        elif el.tag in (_W + "br", _W + "cr"):
            out.append("\n")
        stack.extend(reversed(list(el)))
    return "".join(out).strip()


def _text(element: Any) -> str:
    lines = (_paragraph(p) for p in element.iter(_W + "p"))
    return "\n".join(line for line in lines if line)


def _headers_footers(document: Any) -> list[Section]:
    seen: dict[tuple[str, str], None] = {}
    for section in document.sections:
        for part, attrs in (
            ("header", ("header", "first_page_header", "even_page_header")),
            ("footer", ("footer", "first_page_footer", "even_page_footer")),
        ):
            for attr in attrs:
                try:
                    block = getattr(section, attr)
                    if block.is_linked_to_previous:
                        continue
                    text = _text(block._element)
                except (AttributeError, KeyError, ValueError):
                    continue  # a missing or broken part: the rest is still read
                if text:
                    seen[(part, text)] = None
    return [Section(text=text, part=part, heading=part.capitalize()) for part, text in seen]


def _related_xml(document: Any, suffix: str) -> Any | None:
    from lxml import etree

    for rel in document.part.rels.values():
        if rel.reltype.endswith(suffix) and not rel.is_external:
            # Untrusted XML: no entity expansion, no network.
            parser = etree.XMLParser(resolve_entities=False, no_network=True)
            try:
                return etree.fromstring(rel.target_part.blob, parser)
            except etree.XMLSyntaxError:
                return None
    return None


def _endnotes(document: Any) -> list[Section]:
    """The endnotes the body does not cite: a cited one follows the block citing it."""
    root = _related_xml(document, "/endnotes")
    if root is None:
        return []
    cited = {ref.get(_W + "id") for ref in document.element.body.iter(_W + "endnoteReference")}
    notes = []
    for note in root.iter(_W + "endnote"):
        if note.get(_W + "type") in _SEPARATORS or note.get(_W + "id") in ("-1", "0", *cited):
            continue
        text = " ".join(_text(note).split("\n"))
        if text:
            notes.append(f"[^e{note.get(_W + 'id')}]: {text}")
    return [Section(text="\n".join(notes), part="endnotes", heading="Endnotes")] if notes else []


def _comments(document: Any) -> list[Section]:
    root = _related_xml(document, "/comments")
    if root is None:
        return []
    extended = _related_xml(document, "/commentsExtended")
    lines = comment_lines(
        root, document.element.body, extended, lambda c: " ".join(_text(c).split("\n"))
    )
    return [Section(text="\n".join(lines), part="comments", heading="Comments")] if lines else []


def docx_part_sections(document: Any) -> list[Section]:
    """Headers, footers, endnotes and comments of a python-docx ``Document``."""
    return _headers_footers(document) + _endnotes(document) + _comments(document)
