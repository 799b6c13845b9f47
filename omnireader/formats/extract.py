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
from .icalendar import extract_icalendar
from .markitdown import MARKITDOWN_KINDS, markitdown_convert
from .text import decode_text
from .vcard import extract_vcard

__all__ = ["extract", "SUPPORTED"]

SUPPORTED = (
    "PDF, DOCX, PPTX, XLSX, XLS, DOC, PPT, ODT, ODS, ODP, RTF, HTML, CSV/TSV, JSON, IPYNB, "
    "EPUB, EML, MBOX, MSG, RSS/XML, VCF, ICS, ZIP, TAR (also .tar.gz / .bz2 / .xz), TXT/MD, "
    "images, audio"
)

_SLIDE = re.compile(r"^<!-- Slide number: (\d+) -->\s*$", re.M)
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)
_FIELD = re.compile(r"^\*\*(From|Authors|Title):\*\*\s*(.+?)\s*$", re.M)
# Formats that are ZIP packages a library unpacks whole: checked for bombs first.
_PACKAGES = ("docx", "pptx", "xlsx", "epub", "odt", "ods", "odp")
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

        return extract_pdf(blob, options.password, options.ocr, options.layout)
    if kind == "docx":
        from .docx import extract_docx

        doc = extract_docx(blob)
        if options.ocr == "always":
            from itertools import chain

            from .docx_ocr import docx_picture_sections

            doc.sections = chain(doc.sections, docx_picture_sections(blob))
        return doc
    if kind in ("doc", "ppt", "office-encrypted"):
        return _converted(blob, kind, options)
    reader = _READERS.get(kind)
    if reader is not None:
        return reader(blob)
    reader_with_options = _READERS_WITH_OPTIONS.get(kind)
    if reader_with_options is not None:
        return reader_with_options(blob, options)
    if kind in MARKITDOWN_KINDS:
        return _markitdown(blob, kind)
    hint = {
        "zip": "a ZIP archive: route it (omnireader.route) so each member is read",
        "tar": "a TAR archive: route it (omnireader.route) so each member is read",
        "mbox": "a mailbox: route it (omnireader.route) so each message is read",
        "ole": "an OLE compound file that is none of Word, PowerPoint, Excel, Outlook or "
               "password-protected Office (no WordDocument, PowerPoint Document, Workbook, "
               "__substg1.0_ or EncryptedPackage stream)",
        "image": "an image: the image parser reads it",
        "audio": "audio: the audio parser reads it",
    }.get(kind, f"not a supported format (sniffed as {blob.mime or 'application/octet-stream'})")
    raise UnsupportedFormatError(blob.label, f"{hint}; supported: {SUPPORTED}")


def _one(text: str, info: DocInfo | None = None) -> Extraction:
    return Extraction(info=info or DocInfo(), sections=iter([Section(text=text)]))


def _plain(blob: Blob) -> Extraction:
    return _one(decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff"))


def _markdown(blob: Blob) -> Extraction:
    from .front_matter import front_matter
    from .markdown import markdown_text

    info, text = front_matter(decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff"))
    text = markdown_text(text)
    if info.title is None and (title := _H1.search(text)):
        info.title = title.group(1)
    return _one(text, info)


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


def _csv(blob: Blob) -> Extraction:
    from .delimited import delimited_markdown

    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    tabs = (blob.mime or "").endswith("tab-separated-values")
    table = delimited_markdown(text, blob.display_name, hint="\t" if tabs else None)
    if not table.strip():
        raise EmptyInputError(blob.label, "the table holds no text")
    return _one(table, DocInfo(extra={"extractor": "delimited"}))


def _xml(blob: Blob) -> Extraction:
    from .xml import xml_text

    return _one(xml_text(blob.read_bytes(), blob.label))


def _xlsx(blob: Blob) -> Extraction:
    from .xlsx import extract_xlsx

    return extract_xlsx(blob)


def _xls(blob: Blob) -> Extraction:
    from .xls import extract_xls

    return extract_xls(blob)


_READERS: dict[str, Callable[[Blob], Extraction]] = {
    "text": _plain,
    "markdown": _markdown,
    "json": _json,
    "xml": _xml,
    "csv": _csv,
    "vcard": extract_vcard,
    "icalendar": extract_icalendar,
    # openpyxl / xlrd directly: MarkItDown's pandas path prints NaN and "Unnamed: 1"
    "xlsx": _xlsx,
    "xls": _xls,
}


def _converted(blob: Blob, kind: str, options: ReadOptions) -> Extraction:
    """Legacy Word / PowerPoint converted to DOCX / PPTX, or a protected Office package
    decrypted, then read like the modern file it now is."""
    password = options.password or blob.password
    if kind == "office-encrypted":
        from .ooxml_crypto import decrypt_office
        from .sniff import sniff

        data = decrypt_office(blob, password)
        inner = sniff(data, blob.display_name).kind
        if inner not in ("docx", "xlsx", "pptx"):
            raise UnsupportedFormatError(
                blob.label, f"decrypted, but the package inside is not DOCX, XLSX or PPTX "
                f"(sniffed as {inner})")
    else:
        from .legacy_office import legacy_to_ooxml

        data = legacy_to_ooxml(blob, kind, password)
        inner = "docx" if kind == "doc" else "pptx"
    out = extract(blob.model_copy(update={"data": data}), inner, options)
    out.info.extra.setdefault("converted_from", kind)
    return out


def _email(blob: Blob, options: ReadOptions) -> Extraction:
    from .email import extract_email

    return extract_email(blob, options)


def _outlook(blob: Blob, options: ReadOptions) -> Extraction:
    from .email import extract_email
    from .msg import msg_to_mime

    mime = Blob(data=msg_to_mime(blob.read_bytes(), blob.label), path=blob.path,
                member=blob.member, filename=blob.filename, url=blob.url)
    return extract_email(mime, options)


def _rtf(blob: Blob, options: ReadOptions) -> Extraction:
    from .rtf import extract_rtf

    return extract_rtf(blob)


def _opendocument(kind: str) -> Callable[[Blob, ReadOptions], Extraction]:
    def read(blob: Blob, options: ReadOptions) -> Extraction:
        from .opendocument import extract_odf

        return extract_odf(blob, kind)

    return read


_READERS_WITH_OPTIONS: dict[str, Callable[[Blob, ReadOptions], Extraction]] = {
    "eml": _email,
    "msg": _outlook,
    "rtf": _rtf,
    "odt": _opendocument("odt"),
    "ods": _opendocument("ods"),
    "odp": _opendocument("odp"),
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
        sections = _slides(text)
        info.page_count = len(sections)
    else:
        sections = [Section(text=text)]
    if not sections:
        raise EmptyInputError(blob.label, f"the {kind.upper()} file holds no text")
    return Extraction(info=info, sections=iter(sections))


def _slides(text: str) -> list[Section]:
    """MarkItDown's PPTX text cut at its slide markers: slide N is page N."""
    marks = list(_SLIDE.finditer(text))
    if not marks:
        return [Section(text=text)] if text.strip() else []
    sections = []
    lead = text[: marks[0].start()].strip()
    if lead:
        sections.append(Section(text=lead))
    for n, m in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        body = text[m.end() : end].strip()
        title = _H1.search(body)
        sections.append(
            Section(text=body, page=int(m.group(1)), heading=title.group(1) if title else None)
        )
    return [s for s in sections if s.text.strip()]
