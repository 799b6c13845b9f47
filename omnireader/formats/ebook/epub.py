"""EPUB → document info from its OPF package, and its chapters as Markdown.

    with extract_epub(Blob(path="novel.epub")) as doc:
        doc.info.title, doc.info.authors, doc.info.created   # dc:title, dc:creator, dc:date
        doc.info.extra["language"]                           # dc:language

The OPF ``<metadata>`` is metadata, not text: MarkItDown prints it as a block of
``**Title:** ...`` / ``**Identifier:** ...`` lines above the chapters, which is dropped
here. What a reader sees on a book's title page stays as text: the byline (the authors who
are people) and the description, the book's blurb. Identifiers, language codes, the cover
file name and dates are metadata only. The book's date becomes the item's time: the
publication ``dc:date``, else the package's last modification.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from typing import Any

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.archives.zip import zip_member
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.office.properties import iso_date
from omnireader.formats.people import people
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["drop_metadata_block", "extract_epub", "opf_info"]

_DC = "{http://purl.org/dc/elements/1.1/}"
_OPF = "{http://www.idpf.org/2007/opf}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_MAX_OPF = 4 << 20  # a package document is kilobytes; past this it is not worth inflating
# MarkItDown's metadata lines: "**Title:** ...", one per field, before the first blank line.
_FIELD_LINE = re.compile(r"^\*\*[A-Za-z ]+:\*\*")


def _xml(data: bytes) -> Any | None:
    from lxml import etree

    try:  # untrusted XML: no entity expansion, no network
        return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return None


def _opf_bytes(package: zipfile.ZipFile) -> bytes:
    names = set(package.namelist())
    path = ""
    if "META-INF/container.xml" in names:
        root = _xml(package.read("META-INF/container.xml"))
        rootfile = root.find(f".//{_CONTAINER}rootfile") if root is not None else None
        path = (rootfile.get("full-path") or "") if rootfile is not None else ""
    if path not in names:  # no container (a damaged book): the first package document
        path = next((n for n in sorted(names) if n.lower().endswith(".opf")), "")
    if not path or package.getinfo(path).file_size > _MAX_OPF:
        return b""
    return package.read(path)


def opf_info(data: bytes) -> DocInfo:
    """The EPUB's OPF metadata as DocInfo (empty when the book has none or is damaged)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            opf = _opf_bytes(package)
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, KeyError, RuntimeError, EOFError):
        return DocInfo()
    root = _xml(opf) if opf else None
    meta = root.find(f"{_OPF}metadata") if root is not None else None
    if meta is None:
        return DocInfo()

    def texts(name: str) -> list[str]:
        return [" ".join("".join(el.itertext()).split()) for el in meta.iter(f"{_DC}{name}")]

    created = modified = None
    for el in meta.iter(f"{_DC}date"):
        event = (el.get(f"{_OPF}event") or "publication").lower()
        value = iso_date("".join(el.itertext()).strip())
        if event in ("publication", "creation", "original-publication") and created is None:
            created = value
        elif event == "modification":
            modified = modified or value
    for el in meta.iter(f"{_OPF}meta", "meta"):
        if el.get("property") == "dcterms:modified":
            modified = modified or iso_date("".join(el.itertext()).strip())
    extra: dict[str, Any] = {"extractor": "markitdown"}
    for key in ("language", "publisher", "description", "subject", "identifier"):
        values = [v for v in texts(key) if v]
        if values:
            extra[key] = values[0] if key != "subject" else values
    title = next((t for t in texts("title") if t), None)
    return DocInfo(
        title=title,
        authors=people(texts("creator")),
        created=created,
        modified=modified,
        extra=extra,
    )


def drop_metadata_block(markdown: str) -> str:
    """MarkItDown's EPUB Markdown without its leading ``**Field:** value`` block."""
    head, sep, rest = markdown.lstrip().partition("\n\n")
    lines = head.splitlines()
    if lines and _FIELD_LINE.match(lines[0]):
        return rest.lstrip() if sep else ""
    return markdown.strip()


def _title_page(info: DocInfo) -> str:
    """The byline and blurb a reader sees on the title page, as text."""
    lines = []
    if info.authors:
        lines.append("By " + ", ".join(info.authors))
    if description := info.extra.get("description"):
        lines.append(str(description))
    return "\n\n".join(lines)


def extract_epub(blob: Blob) -> Extraction:
    """An EPUB's info (from its OPF) and its text as one section, without the OPF block.

    Raises :class:`CorruptError` for a book MarkItDown cannot read and
    :class:`EmptyInputError` for one with no text.
    """
    from omnireader.formats.web.markitdown import markitdown_convert

    data = blob.read_bytes()
    info = opf_info(data)
    converted = markitdown_convert(blob, "epub", data)
    info.title = info.title or converted.title
    body = drop_metadata_block(converted.text)
    text = "\n\n".join(p for p in (_title_page(info), body) if p.strip())
    if not text.strip():
        raise EmptyInputError(blob.label, "the EPUB file holds no text")
    if not body.strip() and not info.title:
        raise CorruptError(blob.label, "no chapter of the EPUB could be read")
    return Extraction(info=info, sections=iter([Section(text=text)]))


def _read_epub(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_epub(blob)


FORMATS = (
    Format(
        name="epub",
        rank=16,
        display="EPUB",
        extensions=(".epub",),
        mimes=("application/epub+zip",),
        magic=(Magic(10, lambda p: p.zip_mimetype == "application/epub+zip", "zip"),),
        extract=_read_epub,
        zip_package=True,
        find_member=zip_member,
        readme="its chapters' text (MarkItDown); title, authors, dates and language from the "
        "OPF package as the item's metadata",
    ),
)
