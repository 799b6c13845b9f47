"""Generic XML to readable text, without ever expanding entities.

Entity declarations are how "billion laughs" files turn a kilobyte into gigabytes, so
they are refused by defusedxml; such a file is still read, as its text with the markup
stripped and the entity references left as written.

>>> xml_text(b"<order><id>42</id><item>tea</item></order>", "order.xml")
'id: 42\\nitem: tea'
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import EmptyInputError
from .text import decode_text

__all__ = ["xml_text"]

_DOCTYPE = re.compile(r"<!DOCTYPE(?:[^\[>]*\[.*?\])?[^>]*>", re.S | re.I)
_MARKUP = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[|\]\]>|<[^>]*>", re.S)
_BLANK_LINES = re.compile(r"\n\s*\n+")


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

    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except (DefusedXmlException, ParseError, ValueError):
        # Entity declarations or malformed markup: strip tags, expand nothing.
        text = _DOCTYPE.sub("", decode_text(data, label))
        text = _BLANK_LINES.sub("\n", _MARKUP.sub("\n", text)).strip()
    else:
        lines: list[str] = []
        _lines(root, lines)
        text = "\n".join(lines)
    if not text.strip():
        raise EmptyInputError(label, "the XML document holds no text")
    return text
