"""Objects embedded in an OpenDocument file: a spreadsheet, chart or formula inserted into
a text document (Insert > Object) lives in its own sub-document, ``Object 1/content.xml``,
and the body only points at it (``<draw:object xlink:href="./Object 1"/>``). Read as the
body alone, its numbers and words are lost.

Each object is read where it stands: its tables as Markdown tables (a chart's data table
too), a formula as the text its author typed (the StarMath annotation, else the MathML
tokens), any other sub-document as its paragraphs. The body gets a marker in the object's
place (:func:`mark_objects`), which :func:`fill_objects` replaces by that text once the
body is Markdown.

    texts = mark_objects(doc, package)       # doc.body changed: markers for the objects
    text = fill_objects(doc.to_markdown(), texts)
"""

from __future__ import annotations

import re
import zipfile
from typing import Any

__all__ = ["mark_objects", "fill_objects", "object_text", "MAX_OBJECTS"]

#: Objects read from one document; past that (a generated file), the rest stay unread.
MAX_OBJECTS = 200
_MARK = "\ue001"
_MARKS = re.compile(_MARK + r"(\d+)" + _MARK)
_SPACES = re.compile(r"[ \t]+")


def _object_text(package: zipfile.ZipFile, name: str) -> str:
    from lxml import etree
    from odfdo import Element

    try:
        data = package.read(f"{name}/content.xml")
    except KeyError:
        return ""  # an OLE object (a Word or Excel file inside): not an ODF sub-document
    root = Element.from_tag(etree.fromstring(data, etree.XMLParser(resolve_entities=False)))
    if root.tag == "math:math":
        return _formula(root)
    tables = [t.to_markdown().strip() for t in root.get_elements("//table:table")]
    if tables:
        return "\n\n".join(t for t in tables if t)
    paragraphs = (p.text_recursive or "" for p in root.get_elements("//text:p|//text:h"))
    return "\n".join(line for p in paragraphs if (line := _SPACES.sub(" ", p).strip()))


def _formula(root: Any) -> str:
    for note in root.get_elements("//math:annotation"):
        text = " ".join((note.text_recursive or "").split())
        if text:
            return text
    tokens = root.get_elements("//math:mi|//math:mn|//math:mo|//math:mtext")
    return " ".join(t for token in tokens if (t := (token.text_recursive or "").strip()))


def object_text(package: zipfile.ZipFile, href: str) -> str:
    """The text of the object at ``href`` (``./Object 1``) in ``package``; empty for an
    object linked from outside, not an ODF sub-document, or damaged."""
    from lxml.etree import XMLSyntaxError

    name = href.removeprefix("./").strip("/")
    if not name or "://" in name:
        return ""  # linked from outside the package: nothing here to read
    try:
        return _object_text(package, name)
    except (XMLSyntaxError, ValueError):
        return ""  # a damaged sub-document is no reason to lose the document


def mark_objects(doc: Any, package: zipfile.ZipFile) -> dict[int, str]:
    """Put a marker where each embedded object is in ``doc``'s body and return the text
    of each (by marker number). Objects with no text, or not readable, leave no marker."""
    from odfdo import Span

    texts: dict[int, str] = {}
    for n, obj in enumerate(doc.body.get_elements("//draw:object")[:MAX_OBJECTS]):
        text = object_text(package, obj.get_attribute("xlink:href") or "")
        frame = obj.parent if obj.parent is not None and obj.parent.tag == "draw:frame" else obj
        if not text or frame.parent is None:
            continue
        texts[n] = text
        mark = Span(f"{_MARK}{n}{_MARK}")
        mark.tail = frame.tail  # the paragraph's text after the object
        frame.parent.replace_element(frame, mark)
    return texts


def fill_objects(markdown: str, texts: dict[int, str]) -> str:
    """``markdown`` with each object marker replaced by the object's text, as a block of
    its own (a table cannot continue a line)."""
    if not texts:
        return markdown
    return _MARKS.sub(lambda m: f"\n\n{texts.get(int(m.group(1)), '')}\n\n", markdown)
