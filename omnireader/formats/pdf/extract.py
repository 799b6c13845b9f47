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

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import CorruptError, EncryptedError, ReadError
from omnireader.formats.document import Extraction, Section
from omnireader.formats.pdf.doc_info import doc_info
from omnireader.formats.pdf.page import clean_pdf_text, read_page
from omnireader.formats.pdf.pdfium_lock import PDFIUM
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["extract_pdf", "clean_pdf_text"]

_PASSWORD_HINT = "pass the password (--password / ReadOptions.password)"


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
            info = doc_info(doc, blob, password)
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
