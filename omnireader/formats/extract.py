"""One entry point from a sniffed file to text: document info plus sections.

PDF and DOCX have their own extractors; plain text, Markdown, JSON and XML are decoded
here; the other office and web formats go through MarkItDown. A slide deck comes back one
section per slide and a workbook one section per sheet, so provenance can say where.

    with extract(Blob(path="deck.pptx"), "pptx", ReadOptions()) as doc:
        for section in doc.sections:
            print(section.page, section.heading)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from ..errors import EmptyInputError, TooLargeError, UnsupportedFormatError
from ..options import ReadOptions
from ..payloads import Blob
from .document import DocInfo, Extraction, Section
from .markitdown import MARKITDOWN_KINDS, markitdown_convert
from .text import decode_text

__all__ = ["extract", "SUPPORTED"]

SUPPORTED = (
    "PDF, DOCX, PPTX, XLSX, XLS, HTML, CSV, JSON, IPYNB, EPUB, MSG, RSS/XML, ZIP, TXT/MD, "
    "images, audio"
)

_SLIDE = re.compile(r"^<!-- Slide number: (\d+) -->\s*$", re.M)
_SHEET = re.compile(r"^## (.+)$", re.M)
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)
_FIELD = re.compile(r"^\*\*(From|Authors|Title):\*\*\s*(.+?)\s*$", re.M)
# Formats that are ZIP packages a library unpacks whole: checked for bombs first.
_PACKAGES = ("docx", "pptx", "xlsx", "epub")
# Pretty-printing indents every level: past this depth it would blow a small file up
# quadratically, so deeper documents are written compactly.
_INDENT_DEPTH = 32


def extract(blob: Blob, kind: str, options: ReadOptions) -> Extraction:
    """Document info and sections of ``blob``, already sniffed as ``kind``.

    Raises :class:`UnsupportedFormatError` (naming the input and what is supported) for
    kinds no extractor reads, and the extractors' own typed errors (encrypted, corrupt).
    """
    if kind in _PACKAGES:
        from .archive import check_package

        check_package(blob, options)
    if kind == "pdf":
        from .pdf import extract_pdf

        return extract_pdf(blob, options.password, options.ocr)
    if kind == "docx":
        from .docx import extract_docx

        doc = extract_docx(blob)
        if options.ocr == "always":
            from itertools import chain

            from .docx_ocr import docx_picture_sections

            doc.sections = chain(doc.sections, docx_picture_sections(blob))
        return doc
    reader = _READERS.get(kind)
    if reader is not None:
        return reader(blob)
    if kind in MARKITDOWN_KINDS:
        return _markitdown(blob, kind)
    hint = {
        "zip": "a ZIP archive: route it (omnireader.route) so each member is read",
        "image": "an image: the image parser reads it",
        "audio": "audio: the audio parser reads it",
    }.get(kind, f"not a supported format (sniffed as {blob.mime or 'application/octet-stream'})")
    raise UnsupportedFormatError(blob.label, f"{hint}; supported: {SUPPORTED}")


def _one(text: str, info: DocInfo | None = None) -> Extraction:
    return Extraction(info=info or DocInfo(), sections=iter([Section(text=text)]))


def _plain(blob: Blob) -> Extraction:
    return _one(decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff"))


def _markdown(blob: Blob) -> Extraction:
    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    title = _H1.search(text)
    return _one(text, DocInfo(title=title.group(1) if title else None))


def _json(blob: Blob) -> Extraction:
    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    try:
        values = [json.loads(text)]
    except json.JSONDecodeError:
        try:  # JSON Lines: one document per line
            values = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            return _one(text)  # not valid JSON after all: its text is still worth reading
        except RecursionError:
            raise _too_deep(blob) from None
    except RecursionError:
        raise _too_deep(blob) from None
    try:
        pretty = "\n".join(
            json.dumps(v, indent=2 if _depth(v) <= _INDENT_DEPTH else None, ensure_ascii=False)
            for v in values
        )
    except (RecursionError, ValueError):
        raise _too_deep(blob) from None
    return _one(pretty)


def _too_deep(blob: Blob) -> TooLargeError:
    # Nesting that deep is an attack on parsers' stacks, not data anyone wrote.
    return TooLargeError(blob.label, "the JSON is nested too deeply to read (over ~1000 levels)")


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node)
    return deepest


def _xml(blob: Blob) -> Extraction:
    from .xml import xml_text

    return _one(xml_text(blob.read_bytes(), blob.label))


_READERS: dict[str, Callable[[Blob], Extraction]] = {
    "text": _plain,
    "markdown": _markdown,
    "json": _json,
    "xml": _xml,
}


def _markitdown(blob: Blob, kind: str) -> Extraction:
    converted = markitdown_convert(blob, kind)
    text = converted.text
    if kind == "rss" and text.lstrip().startswith("<"):
        # MarkItDown's feed reader refused it (entity declarations, odd markup) and handed
        # back the raw XML; read it as generic XML instead, which expands nothing.
        return _xml(blob)
    info = DocInfo(title=converted.title, extra={"extractor": "markitdown"})
    # E-mails and e-books print their sender / authors / title as "**Field:** value" lines.
    for field, value in _FIELD.findall(text) if kind in ("msg", "epub") else []:
        if field in ("From", "Authors"):
            info.authors.extend(a.strip() for a in value.split(",") if a.strip())
        elif not info.title:
            info.title = value
    if kind == "pptx":
        sections = _split(text, _SLIDE, page_from_match=True)
        info.page_count = len(sections)
    elif kind in ("xlsx", "xls"):
        sections = _split(text, _SHEET, page_from_match=False)
    else:
        sections = [Section(text=text)]
    if not sections:
        raise EmptyInputError(blob.label, f"the {kind.upper()} file holds no text")
    return Extraction(info=info, sections=iter(sections))


def _split(text: str, marker: re.Pattern[str], *, page_from_match: bool) -> list[Section]:
    """The parts between ``marker`` lines: slide N is page N; sheet N is page N, named."""
    marks = list(marker.finditer(text))
    if not marks:
        return [Section(text=text)] if text.strip() else []
    sections = []
    lead = text[: marks[0].start()].strip()
    if lead:
        sections.append(Section(text=lead))
    for n, m in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        body = text[m.end() : end].strip()
        if page_from_match:
            title = _H1.search(body)
            sections.append(
                Section(text=body, page=int(m.group(1)), heading=title.group(1) if title else None)
            )
        else:
            name = m.group(1)
            sections.append(Section(text=f"## {name}\n{body}", page=n + 1, heading=name))
    return [s for s in sections if s.text.strip()]
