"""PDF → document info and text per page (pypdfium2), read lazily page by page.

    with extract_pdf(Blob(path="report.pdf"), password=None) as doc:
        print(doc.info.title, doc.info.page_count)
        for section in doc.sections:          # one Section per page, 1-based page number
            if "needs_ocr" in section.flags:  # a scan: no usable text layer
                ...

Opening happens at call time, so a wrong password or a broken file raises right away
(``EncryptedError`` / ``CorruptError``); pages are only decoded as the caller iterates.
Pages without a usable text layer — a scan, or text whose font gives no way back to
characters (``pdf_text_quality.py``) — are flagged ``needs_ocr`` instead of coming back
silently empty or as garbage; blank pages are flagged ``empty``; a page PDFium cannot
decode is flagged ``unreadable`` and the rest of the document is still read. With
``ocr="auto"`` the pages without a text layer are rendered and read by OCR instead (flag
``ocr``); ``ocr="always"`` also reads the pictures on pages that have text (``pdf_ocr.py``).
Filled-in form fields
are added to their page as a ``Form fields:`` block; reviewers' comments (notes,
highlights, …) come last, as one ``comments`` section (``pdf_annotations.py``).
"""

from __future__ import annotations

import io
import logging
import mmap
import warnings
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import CorruptError, EncryptedError, ReadError
from omnireader.formats.document import DocInfo, Extraction, Section, pdf_date_to_iso
from omnireader.formats.pdf.page import clean_pdf_text, read_page
from omnireader.formats.pdf.pdfium_lock import PDFIUM
from omnireader.formats.people import people
from omnireader.formats.registry import Format, Magic
from omnireader.formats.word_lists import load_word_list
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["extract_pdf", "clean_pdf_text"]

_PASSWORD_HINT = "pass the password (--password / ReadOptions.password)"

# Values PDF writers put in when the user gave none (ReportLab, Google Docs, ...).
# The root element of an XMP packet ("xapmeta" in the first versions of XMP).
_XMP_ROOTS = (b"<x:xmpmeta", b"<x:xapmeta")


def extract_pdf(
    blob: Blob, password: str | None = None, ocr: str = "off", layout: bool = True
) -> Extraction:
    """Open a PDF and return its info and a lazy iterator of one ``Section`` per page.

    ``password`` (or ``blob.password``) unlocks encrypted files. ``ocr`` is ``off``,
    ``auto`` or ``always`` (see :data:`omnireader.formats.ocr.OCR_MODES`). Raises ``EncryptedError``
    when a password is needed or wrong, ``CorruptError`` when the file is not a readable PDF.
    ``layout`` on gives each page's structure as Markdown (``formats/layout/``); off, the
    plain text layer.
    """
    import pypdfium2 as pdfium

    label = blob.label
    password = password if password is not None else blob.password
    source = _source(blob)
    with PDFIUM:
        try:
            doc = _open(pdfium, source, password)
        except FileNotFoundError:
            raise ReadError(label, "file not found") from None
        except pdfium.PdfiumError as exc:
            raise _open_error(label, exc, password) from None
        try:
            _init_forms(doc)
            info = _doc_info(doc, blob, password)
        except BaseException:
            doc.close()
            raise
    return Extraction.lazy(info, _pages(doc, ocr, layout), lambda: _close(doc))


def _open(pdfium: Any, source: bytes | Path, password: str | None) -> pypdfium2.PdfDocument:
    """Open with ``password``; a PDF that needs none opens even when one was given.

    One password is usually set for a whole batch, and PDFium refuses a wrong password
    even for a file whose user password is empty.
    """
    import pypdfium2.raw as pdfium_c

    try:
        return pdfium.PdfDocument(source, password=password or None)
    except pdfium.PdfiumError as exc:
        if not password or getattr(exc, "err_code", None) != pdfium_c.FPDF_ERR_PASSWORD:
            raise
        try:
            return pdfium.PdfDocument(source, password=None)
        except pdfium.PdfiumError:
            raise exc from None


def _source(blob: Blob) -> bytes | Path:
    # A path lets PDFium read only what it needs instead of the whole file into memory.
    if blob.data is not None:
        return blob.data
    if blob.path is not None:
        return Path(blob.path)
    raise ReadError(blob.label, "no PDF content given (neither bytes nor a path)")


def _open_error(label: str, exc: Exception, password: str | None) -> ReadError:
    import pypdfium2.raw as pdfium_c

    code = getattr(exc, "err_code", None)
    if code == pdfium_c.FPDF_ERR_PASSWORD:
        if password:
            return EncryptedError(label, "the PDF password is wrong")
        return EncryptedError(label, f"the PDF is encrypted; {_PASSWORD_HINT}")
    if code == pdfium_c.FPDF_ERR_SECURITY:
        return EncryptedError(label, "the PDF uses an encryption scheme that cannot be opened")
    if code == pdfium_c.FPDF_ERR_FILE:
        return ReadError(label, "the file cannot be opened")
    return CorruptError(label, "not a readable PDF (truncated or damaged)")


def _pages(doc: pypdfium2.PdfDocument, ocr: str = "off", layout: bool = True) -> Iterator[Section]:
    """One section per page (``pdf_page.py``), then the document's comments, if any, as
    one ``comments`` section like a DOCX's. With ``layout``, pages pass through the layout
    stream, which also yields the running headers and footers it finds."""
    comments: list[str] = []
    stream = None
    with PDFIUM:
        pages = len(doc)
        if layout:
            from omnireader.formats.layout.stream import LayoutStream, read_outline

            stream = LayoutStream(read_outline(doc), pages=pages)
    try:
        for index in range(pages):
            # read_page holds PDFium's lock while it reads; OCR and what the caller does with
            # the sections (chunks, items) run outside it.
            for section in read_page(doc, index, ocr, comments, stream):
                yield from stream.feed(section) if stream is not None else (section,)
        if stream is not None:
            yield from stream.flush()
    finally:
        _close(doc)
    if comments:
        yield Section(text="\n".join(comments), part="comments", heading="Comments")


def _close(doc: pypdfium2.PdfDocument) -> None:
    with PDFIUM:
        doc.close()


def _init_forms(doc: pypdfium2.PdfDocument) -> None:
    """Set up PDFium's form environment, so form fields can be read (and are drawn when a
    page is rendered for OCR). Only for AcroForms: XFA needs a PDFium built with it, and a
    document without a form needs nothing. A broken form leaves the page text readable."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    if doc.get_formtype() != pdfium_c.FORMTYPE_ACRO_FORM:
        return
    try:
        doc.init_forms()  # before any page is loaded, as PDFium requires
    except pdfium.PdfiumError:
        pass


def _doc_info(doc: pypdfium2.PdfDocument, blob: Blob, password: str | None) -> DocInfo:
    import pypdfium2.raw as pdfium_c

    # PDFium's Info dict costs nothing; pypdf parses the whole cross-reference table (a few
    # ms a file: more than reading a short PDF's pages) and is asked only for the XMP
    # packet, when the Info dict lacks something and the file holds a packet at all.
    fields = {
        key: text for key, value in doc.get_metadata_dict().items() if (text := _clean(value))
    }
    xmp: dict[str, Any] = {}
    if not _complete(fields) and _has_xmp(blob):
        more, xmp = _pypdf_metadata(blob, password)
        fields = more or fields
    title = _meaningful(fields.get("Title")) or _meaningful(xmp.get("title"))
    # Only people: "Microsoft Office User" or a tool's name in /Author is no author.
    authors = people(_split_authors(fields.get("Author"))) or people(
        _meaningful(a) for a in xmp.get("creators", [])
    )
    created = pdf_date_to_iso(fields.get("CreationDate")) or xmp.get("created")
    modified = pdf_date_to_iso(fields.get("ModDate")) or xmp.get("modified")
    extra: dict[str, Any] = {
        key.lower(): value
        for key in ("Subject", "Keywords", "Creator", "Producer")
        if (value := _meaningful(fields.get(key)))
    }
    extra["encrypted"] = pdfium_c.FPDF_GetSecurityHandlerRevision(doc) != -1
    extra["extractor"] = "pypdfium2"
    return DocInfo(
        title=title,
        authors=authors,
        created=created,
        modified=modified,
        page_count=len(doc),
        extra=extra,
    )


def _complete(fields: dict[str, str]) -> bool:
    """The Info dict has everything XMP could add: a title, people, both dates."""
    return bool(
        _meaningful(fields.get("Title"))
        and people(_split_authors(fields.get("Author")))
        and pdf_date_to_iso(fields.get("CreationDate"))
        and pdf_date_to_iso(fields.get("ModDate"))
    )


def _has_xmp(blob: Blob) -> bool:
    """An XMP packet's root element is in the file. The PDF reference advises leaving
    metadata streams unfiltered, so that tools which do not read PDF find them; a search
    of the bytes (mapped, not read) is far cheaper than parsing the file."""
    if blob.data is not None:
        return any(blob.data.find(root) >= 0 for root in _XMP_ROOTS)
    try:
        with (
            open(blob.path or "", "rb") as stream,
            mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data,
        ):
            return any(data.find(root) >= 0 for root in _XMP_ROOTS)
    except (OSError, ValueError):
        return True  # cannot tell (an empty or special file): let pypdf look


def _pypdf_metadata(blob: Blob, password: str | None) -> tuple[dict[str, str], dict[str, Any]]:
    """The Info dict and a few XMP values via pypdf; ``({}, {})`` when pypdf cannot read it.

    pypdf reads only the trailer, the Info dict and the catalog's /Metadata here. It gets a
    file handle, not a path: given a path it would read the whole file into memory.
    """
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    # Malformed files make pypdf log and warn; the outcome is reported by our flags / errors.
    pypdf_log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), _open_stream(blob) as stream:
            warnings.simplefilter("ignore")
            reader = PdfReader(stream, strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                return {}, {}
            fields: dict[str, str] = {}
            for key, value in (reader.metadata or {}).items():
                if isinstance(value, IndirectObject):
                    value = value.get_object()
                if isinstance(value, str) and (text := _clean(value)):
                    fields[str(key).lstrip("/")] = text
            return fields, _xmp(reader)
    except Exception:  # noqa: BLE001 - any pypdf failure just means "use PDFium's info"
        return {}, {}
    finally:
        pypdf_log.setLevel(level)


def _open_stream(blob: Blob) -> io.BufferedIOBase:
    if blob.data is not None:
        return io.BytesIO(blob.data)  # shares the bytes' buffer until written, no copy
    return open(blob.path or "", "rb")  # noqa: SIM115 - closed by the caller's with-block


def _xmp(reader: Any) -> dict[str, Any]:
    try:
        xmp = reader.xmp_metadata
        if xmp is None:
            return {}
        titles = xmp.dc_title or {}
        out: dict[str, Any] = {
            "title": titles.get("x-default") or next(iter(titles.values()), None),
            "creators": [str(name) for name in xmp.dc_creator or []],
        }
        for key, attr in (("created", "xmp_create_date"), ("modified", "xmp_modify_date")):
            moment = getattr(xmp, attr)
            if moment is not None and moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)  # pypdf gives naive UTC times
            out[key] = moment.isoformat() if moment is not None else None
        return out
    except Exception:  # noqa: BLE001 - malformed XMP is common and never fatal
        return {}


def _clean(value: str) -> str:
    return value.replace("\x00", "").strip()


def _meaningful(value: str | None) -> str | None:
    """``value`` unless it is empty or names nothing ("unknown", "(Anonymous)": the bundled
    ``placeholder_names`` list). A placeholder title ("Untitled") is the parser's to drop:
    it then titles the document by its first heading."""
    if not value:
        return None
    value = _clean(value)
    return (
        value
        if value and not load_word_list("placeholder_names").match(value.strip("()"))
        else None
    )


def _split_authors(value: str | None) -> list[str]:
    # Only ";" separates people reliably; "Doe, John" is one person.
    names = [_meaningful(part) for part in (value or "").split(";")]
    return list(dict.fromkeys(name for name in names if name))


def _read_pdf(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_pdf(blob, options.password, options.ocr, options.layout)


FORMATS = (
    Format(
        name="pdf",
        rank=1,
        display="PDF",
        extensions=(".pdf",),
        mimes=("application/pdf",),
        magic=(
            Magic(10, lambda p: p.head.startswith(b"%PDF-")),
            # A PDF after some junk, which readers accept; after ZIP and TAR, which may
            # store a PDF uncompressed in their first kilobyte.
            Magic(50, lambda p: b"%PDF-" in p.head[:1024]),
        ),
        extract=_read_pdf,
        readme="Markdown per page from the text layer's layout (pypdfium2: headings, columns "
        "in reading order, ruled and borderless tables, running headers and footers apart; "
        "`--layout off` for the plain text layer), document info (the Info dict; XMP by pypdf when that lacks a field); pages without a "
        "text layer read by OCR (flag `ocr`), and so are pages whose text layer does not "
        "decode (flag `garbled_text`); form field values as `Form fields:` lines; link "
        "targets (URL, `mailto:`, `tel:`) as Markdown links where their text stands; "
        "comments (sticky notes, highlights with the text they cover) as a `comments` section",
    ),
)
