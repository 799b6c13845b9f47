"""EPUB → document info from its OPF package, and its chapters as Markdown.

    with extract_epub(Blob(path="novel.epub")) as doc:
        doc.info.title, doc.info.authors, doc.info.created   # dc:title, dc:creator, dc:date
        doc.info.extra["language"]                           # dc:language

The OPF ``<metadata>`` is metadata, not text (MarkItDown prints it as a block of
``**Title:** ...`` lines above the chapters; the chapters are read without it, see
:mod:`.epub_chapters`). What a reader sees on a book's title page stays as text: the byline (the authors who
are people) and the description, the book's blurb. Identifiers, language codes, the cover
file name and dates are metadata only. The book's date becomes the item's time: the
publication ``dc:date``, else the package's last modification.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.archives.zip import PACKAGE_ERRORS, zip_member
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.ebook.epub_chapters import chapters_markdown, opf_document, xml
from omnireader.formats.office.properties import iso_date
from omnireader.formats.people import people
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_epub", "opf_info"]

_DC = "{http://purl.org/dc/elements/1.1/}"
_OPF = "{http://www.idpf.org/2007/opf}"


def opf_info(data: bytes) -> DocInfo:
    """The EPUB's OPF metadata as DocInfo (empty when the book has none or is damaged)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            _, opf = opf_document(package)
    except PACKAGE_ERRORS:
        return DocInfo()
    root = xml(opf) if opf else None
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
    extra: dict[str, Any] = {"extractor": "epub"}
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


def _title_page(info: DocInfo) -> str:
    """The byline and blurb a reader sees on the title page, as text."""
    lines = []
    if info.authors:
        lines.append("By " + ", ".join(info.authors))
    if description := info.extra.get("description"):
        lines.append(str(description))
    return "\n\n".join(lines)


def extract_epub(blob: Blob) -> Extraction:
    """An EPUB's info (from its OPF) and its chapters' text as one section.

    Raises :class:`CorruptError` for a book that cannot be opened or has no readable
    chapter and :class:`EmptyInputError` for one with no text.
    """
    data = blob.read_bytes()
    info = opf_info(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            body = chapters_markdown(package, blob.label)
    except PACKAGE_ERRORS as e:
        detail = f"cannot be read as EPUB ({type(e).__name__}: {e})"[:300]
        raise CorruptError(blob.label, detail) from None
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
        readme="its chapters in spine order, each read by the HTML path (no MarkItDown); "
        "title, authors, dates and language from the OPF package as the item's metadata",
    ),
)
