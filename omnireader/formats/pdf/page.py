"""One PDF page → its sections: the text layer, or OCR when there is none, plus form values.

The page's text is PDFium's, bounded to the page box. A page with no usable text layer —
nothing but images, or text that does not decode to characters (``pdf_text_quality.py``) —
is flagged ``needs_ocr``; with OCR on it is rendered and read instead (``pdf_ocr.py``).
The values filled into its form fields are added as a ``Form fields:`` block; its comments
are handed back to the caller, which gathers them into one section for the document.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from omnireader.formats.document import (
    EMPTY,
    GARBLED,
    LAYOUT_FAILED,
    NEEDS_OCR,
    UNREADABLE,
    Section,
)
from omnireader.formats.link_text import PageLink, links_block, with_links
from omnireader.formats.pdf.annotations import NO_NOTES, PageNotes, page_notes
from omnireader.formats.pdf.clean import clean_pdf_text
from omnireader.formats.pdf.forms import FormField, form_block
from omnireader.formats.pdf.hidden_text import visible_text
from omnireader.formats.pdf.pdfium_lock import PDFIUM
from omnireader.formats.pdf.text_quality import is_garbled
from omnireader.text.visible_chars import visible_chars

if TYPE_CHECKING:
    import pypdfium2

    from omnireader.formats.layout.stream import LayoutStream

__all__ = ["clean_pdf_text", "read_page"]

# A page with fewer visible characters than this, over images covering a fair part of it,
# is a scan with a stray caption or an off-page label, not a real text layer.
_FEW_CHARS = 32
_IMAGE_COVER = 0.2


def read_page(
    doc: pypdfium2.PdfDocument,
    index: int,
    ocr: str,
    comments: list[str],
    layout: LayoutStream | None = None,
) -> Iterator[Section]:
    """The sections of page ``index`` (0-based); its comment lines are appended to
    ``comments``. ``ocr`` is ``off``, ``auto`` or ``always``. With ``layout``, a page with
    a text layer also carries its ``PageLayout`` (``section.layout``) for the stream."""
    with PDFIUM:
        section, notes = _read_layer(doc, index, layout)
    comments.extend(notes.comments)
    if ocr == "off" or (NEEDS_OCR not in section.flags and ocr != "always"):
        yield _with_fields(section, notes.fields, notes.links)
        return
    yield from _read_page_ocr(doc, index, ocr, section, notes, layout)


def _read_page_ocr(
    doc: pypdfium2.PdfDocument,
    index: int,
    ocr: str,
    section: Section,
    notes: PageNotes,
    layout: LayoutStream | None = None,
) -> Iterator[Section]:
    """The page read by OCR when it has no text layer; then, in ``always`` mode, the text
    of its pictures. With ``layout``, what OCR reads is laid out like a text page, against
    the document's headings so far."""
    import pypdfium2 as pdfium

    from omnireader.formats.ocr import OCR
    from omnireader.formats.pdf.scans import read_page_pictures, read_scanned_page

    fields, links = notes.fields, notes.links
    try:
        with PDFIUM:
            page = doc[index]
    except pdfium.PdfiumError:
        yield _with_fields(section, fields, links)
        return
    try:
        if NEEDS_OCR not in section.flags:
            yield _with_fields(section, fields, links)
            if UNREADABLE not in section.flags:
                yield from read_page_pictures(page, section.page or index + 1, layout is not None)
            return
        read = read_scanned_page(page, section.page or index + 1, section.text, layout)
        if GARBLED in section.flags and NEEDS_OCR in read.flags:
            read.flags.append(GARBLED)  # OCR did not help: still say why the text is gone
        if OCR not in read.flags:
            yield _with_fields(read, fields, links)
            return
        yield read
        # OCR items are built from what OCR read, not from the section's text: the form
        # values go in a section of their own (no duplicate id: OCR items are keyed apart).
        if block := form_block(fields, read.text):
            yield Section(text=block, page=read.page, part="form", heading="Form fields")
        if block := links_block(links, read.text):
            yield Section(text=block, page=read.page, part="links", heading="Links")
    finally:
        with PDFIUM:
            page.close()


def _with_fields(
    section: Section, fields: list[FormField], links: Sequence[PageLink] = ()
) -> Section:
    """``section`` with its page's link targets where their text stands and its form values
    appended (a blank page with a filled form is not blank)."""
    if section.layout_source is not None:
        # The layout stream rewrites the text: it places the links in what it writes.
        linked, section = section.text, section.model_copy(update={"links": list(links)})
    else:
        linked = with_links(section.text, links) if links else section.text
    block = form_block(fields, section.text) if fields else ""
    if not block and linked == section.text:
        return section
    text = f"{linked}\n\n{block}" if linked and block else (linked or block)
    return section.model_copy(
        update={"text": text, "flags": [f for f in section.flags if f != EMPTY]}
    )


def _read_layer(
    doc: pypdfium2.PdfDocument, index: int, layout: LayoutStream | None = None
) -> tuple[Section, PageNotes]:
    import pypdfium2 as pdfium

    number = index + 1
    try:
        page = doc[index]
    except pdfium.PdfiumError:
        return Section(text="", page=number, flags=[UNREADABLE]), NO_NOTES
    try:
        textpage = page.get_textpage()
        try:
            # Bounded to the page box: full Unicode (get_text_range is UCS-2 only), and
            # text placed off the visible page is left out.
            text = clean_pdf_text(textpage.get_text_bounded())
            # Invisible or clipped-away text is not the page's; a garbage OCR layer is none.
            text, bad_ocr_layer, hidden = visible_text(page, textpage, text)
            garbled = bool(text) and (bad_ocr_layer or is_garbled(textpage, text))
            notes = page_notes(page, textpage, number, _formenv(doc))
            # Text that is not text is no text layer: the page is treated as a scan.
            flags = [NEEDS_OCR, GARBLED] if garbled else _page_flags(page, text)
            laid = _layout(layout, page, textpage, index, text, flags, hidden)
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return Section(text="", page=number, flags=[UNREADABLE]), NO_NOTES
    finally:
        page.close()
    if laid is False:
        flags.append(LAYOUT_FAILED)
        laid = None
    section = Section(text="" if garbled else text, page=number, flags=flags, layout=laid)
    if laid is not None:
        section.layout_source = section.text
    return section, notes


def _layout(
    stream: LayoutStream | None,
    page: Any,
    textpage: Any,
    index: int,
    text: str,
    flags: list[str],
    hidden: frozenset[int],
) -> Any:
    """The page's layout (without the ``hidden`` text objects); None when it is not laid
    out, False when that failed."""
    if stream is None or not text or NEEDS_OCR in flags:
        return None
    laid = stream.layout(page, textpage, index, text, hidden)
    return False if laid is None else laid


def _formenv(doc: pypdfium2.PdfDocument) -> Any | None:
    formenv = getattr(doc, "formenv", None)
    return formenv.raw if formenv is not None else None


def _page_flags(page: pypdfium2.PdfPage, text: str) -> list[str]:
    visible = visible_chars(text)  # non-space characters
    if visible >= _FEW_CHARS:
        return []
    if visible == 0:
        import pypdfium2.raw as pdfium_c

        # Nothing drawn at all is a blank page; anything drawn (a scan, vector glyphs)
        # may hold text that only OCR or a vision model can read.
        return [NEEDS_OCR] if pdfium_c.FPDFPage_CountObjects(page) > 0 else [EMPTY]
    # A little text over a big image: a scan with a caption, keep the text but flag it.
    return [NEEDS_OCR] if _image_cover(page) >= _IMAGE_COVER else []


def _image_cover(page: pypdfium2.PdfPage) -> float:
    """Share of the page area covered by images (overlaps counted twice, capped at 1)."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    if width <= 0 or height <= 0:
        return 0.0
    covered = 0.0
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3):
        left, bottom, right, top = obj.get_bounds()
        covered += max(0.0, right - left) * max(0.0, top - bottom)
    return min(1.0, covered / (width * height))
