"""Generic XML to readable text, without ever expanding entities.

Entity declarations are how "billion laughs" files turn a kilobyte into gigabytes, so
they are refused by defusedxml; such a file is still read, as its text with the markup
stripped and the entity references left as written.

>>> xml_text(b"<order><id>42</id><item>tea</item></order>", "order.xml")
'id: 42\\nitem: tea'
"""

from __future__ import annotations

import html
import re
from typing import Any

from omnireader.errors import EmptyInputError
from omnireader.formats.document import Extraction
from omnireader.formats.plain.text import decode_text
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["xml_text", "is_stylesheet"]

_DOCTYPE = re.compile(r"<!DOCTYPE(?:[^\[>]*\[.*?\])?[^>]*>", re.S | re.I)
_MARKUP = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[|\]\]>|<[^>]*>", re.S)
_BLANK_LINES = re.compile(r"\n\s*\n+")
# The five predefined entities and character references are safe to expand (one character
# each); declared entities are what bombs are made of and stay as written.
_SAFE_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});")
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
_DECLARED = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']""")


def _decode(data: bytes, label: str) -> str:
    """XML text in its declared encoding when that fits its bytes, else the detected one."""
    declared = _DECLARED.match(data.lstrip(b"\xef\xbb\xbf \t\r\n"))
    if declared:
        try:
            text = data.decode(declared.group(1).decode("ascii"))
        except (LookupError, UnicodeDecodeError):
            pass
        else:
            # UTF-8 bytes under a copied 'encoding="UTF-16"' decode, as nonsense: an XML
            # document read right starts with its markup.
            if text.lstrip("\ufeff \t\r\n").startswith("<"):
                return text
    return decode_text(data, label)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _lines(el: Any, out: list[str]) -> None:
    text = (el.text or "").strip()
    children = list(el)
    if text:
        # A leaf's tag names its value ("price: 5"); mixed content reads as prose.
        out.append(f"{_local(el.tag)}: {text}" if not children else text)
    for child in children:
        _lines(child, out)
        tail = (child.tail or "").strip()
        if tail:
            out.append(tail)


def xml_text(data: bytes, label: str) -> str:
    """The text of an XML document, one line per element that holds text."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    def parse(source: bytes | str) -> Any:
        return fromstring(source, forbid_dtd=False, forbid_entities=True, forbid_external=True)

    try:
        try:
            root = parse(data)
        except ParseError:
            # The bytes are not in the encoding the declaration names (a UTF-16 file saved
            # as UTF-8 keeps 'encoding="UTF-16"', a BOM-less UTF-16 file): parsed as the
            # text they decode to, its field names are kept.
            root = parse(_XML_DECL.sub("", _decode(data, label).lstrip("\ufeff"), count=1))
    except (DefusedXmlException, ParseError, ValueError):
        # Entity declarations or malformed markup: strip tags, expand nothing.
        text = _DOCTYPE.sub("", _decode(data, label))
        text = _BLANK_LINES.sub("\n", _MARKUP.sub("\n", text)).strip()
        text = _SAFE_ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    else:
        lines: list[str] = []
        _lines(root, lines)
        text = "\n".join(lines)
    if not text.strip():
        raise EmptyInputError(label, "the XML document holds no text")
    return text


_XSLT = b"http://www.w3.org/1999/xsl/transform"


def is_stylesheet(lowered_head: bytes) -> bool:
    """Whether a (lower-cased) XML head is an XSLT stylesheet: it declares the XSLT
    namespace before its first template (the root's own attributes)."""
    return _XSLT in lowered_head[:4096]


def read_xml(blob: Blob, options: ReadOptions | None = None) -> Extraction:
    """The text of an XML file, as one section. An XSLT stylesheet is code: its source is
    kept as a code block, never its template markup read as the document's text."""
    from omnireader.formats.plain.text_file import one_section

    data = blob.read_bytes()
    if is_stylesheet(data[:4096].lower()):
        source = _decode(data, blob.label).lstrip("\ufeff").strip()
        if not source:
            raise EmptyInputError(blob.label, "the stylesheet is empty")
        return one_section(f"```xml\n{source}\n```")
    return one_section(xml_text(data, blob.label))


def _is_xml(p: Probe) -> bool:
    low = p.lowered
    return low.startswith((b"<?xml", b"<rss", b"<feed")) or (
        low.startswith(b"<") and is_stylesheet(low)
    )


FORMATS = (
    Format(
        name="xml",
        rank=20,
        display="RSS/XML",
        extensions=(".xml", ".xsl", ".xslt"),
        mimes=("application/xml",),
        magic=(
            Magic(71, _is_xml, "text"),
            Magic(80, by_extension(".xml", ".xsl", ".xslt"), "text"),
        ),
        extract=read_xml,
        readme_group="text, Markdown, JSON, XML",
    ),
)
