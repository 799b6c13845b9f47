"""RTF → text with striprtf (BSD-3): paragraphs as lines, table cells split by ``|``.

    doc = extract_rtf(Blob(path="menu.rtf"))
    doc.info.title, next(doc.sections).text

``\\'xx`` escapes are decoded in the document's code page (``\\ansicpg1250``, ``932``, ...),
``\\uN`` escapes as Unicode; control words, font tables and embedded pictures are dropped.
The title and author come from the ``{\\info ...}`` group when the document has one.
"""

from __future__ import annotations

import codecs
import re

from ..errors import CorruptError, EmptyInputError
from ..payloads import Blob
from .document import DocInfo, Extraction, Section

__all__ = ["extract_rtf", "rtf_text"]

_CODEPAGE = re.compile(rb"\\ansicpg(\d{3,5})")
# Embedded pictures and objects are long runs of hex digits: cut them before the tokenizer
# walks them one character at a time (they hold no text).
_HEX_RUN = re.compile(r"[0-9a-fA-F\r\n]{512,}")
_INFO = re.compile(r"{\\(title|author)\s+([^{}\\]*)}")
_BLANK_LINES = re.compile(r"\n\s*\n\s*\n+")
_TRAILING = re.compile(r"[ \t]+\n")


def _codec(data: bytes) -> str:
    match = _CODEPAGE.search(data[:4096])
    if match:
        name = f"cp{int(match.group(1))}"
        try:
            codecs.lookup(name)
            return name
        except LookupError:
            pass
    return "cp1252"


def rtf_text(data: bytes) -> tuple[str, DocInfo]:
    """The text of an RTF document and what its ``\\info`` group says."""
    from striprtf.striprtf import rtf_to_text

    # Raw 8-bit bytes (not \'xx escapes) are in the document's code page as well.
    source = _HEX_RUN.sub("", data.decode(_codec(data), errors="replace"))
    info = DocInfo(extra={"extractor": "striprtf"})
    for field, value in _INFO.findall(source[:65536]):
        value = " ".join(value.split())
        if field == "title" and value:
            info.title = value
        elif field == "author" and value:
            info.authors.append(value)
    text = rtf_to_text(source, errors="replace")
    text = _BLANK_LINES.sub("\n\n", _TRAILING.sub("\n", text.replace("\r", "")))
    return text.strip(), info


def extract_rtf(blob: Blob) -> Extraction:
    """One section with the document's text; raises :class:`EmptyInputError` when it has
    none and :class:`CorruptError` when it is not RTF."""
    data = blob.read_bytes()
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        raise CorruptError(blob.label, "not an RTF document (it does not start with {\\rtf)")
    try:
        text, info = rtf_text(data)
    except (ValueError, IndexError, KeyError, LookupError) as e:
        raise CorruptError(blob.label, f"cannot be read as RTF ({type(e).__name__}: {e})") from None
    if not text:
        raise EmptyInputError(blob.label, "the RTF document holds no text")
    return Extraction(info=info, sections=iter([Section(text=text)]))
