"""Text a PDF page holds but never shows: invisible render modes and clipped-away text.

A page's text layer can carry text no reader of the page sees: text drawn in render mode
3 (invisible) or 7 (clip only), and text placed outside the clip path it is drawn in (a
keyword list, an old revision hidden under a clip, a watermark's source). PDFium extracts
it all. When the page also has text it shows, the hidden text is not the page's and is
left out. A page whose only text is invisible is another thing: an OCR layer over a page
image, which *is* the page's text, unless it is garbage (:func:`.text_quality.is_bad_ocr_layer`),
when the page is treated like a scan and OCR'd afresh.

    text, bad_ocr_layer = visible_page_text(page, textpage, text)

Cost: a page of few objects is judged object by object. On a larger page an even sample
of its characters is mapped to their text objects, whose render mode (and, for a few, clip
path) is asked; only a page where the sample finds hidden text gets the full pass. Hidden
text too small to be sampled on a large page (a few words among thousands of characters
in hundreds of objects) can therefore stay.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, NamedTuple

from omnireader.formats.pdf.clean import clean_pdf_text
from omnireader.formats.pdf.text_objects import PageObjects, probe, scan_text_objects
from omnireader.formats.pdf.text_quality import is_bad_ocr_layer

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["PageObjects", "Visible", "scan_text_objects", "visible_page_text", "visible_text"]

# A page with at most this many objects is judged object by object (~3-12 µs each); past
# it, from a sample of its characters.
_EXACT_OBJECTS = 48
# Images covering this share of the page make it a scan: invisible text on it is OCR text.
_SCAN_COVER = 0.5
# The PDFium calls of the compiled loop of _text_without, in the order it takes them.
_SHOWN_CALLS = ("FPDFText_GetTextObject", "FPDFText_GetUnicode", "FPDFText_GetCharBox")


class Visible(NamedTuple):
    """A page's text without what it hides, whether that text is a garbage OCR layer, and
    the text objects left out (for the layout stage, which reads the characters itself)."""

    text: str
    bad_ocr_layer: bool
    hidden: frozenset[int]


def visible_page_text(
    page: pypdfium2.PdfPage, textpage: pypdfium2.PdfTextPage, text: str
) -> tuple[str, bool]:
    """The page's ``text`` without its hidden text when it shows some text too, and
    whether its text is an invisible OCR layer that is garbage (then OCR the page)."""
    seen = visible_text(page, textpage, text)
    return seen.text, seen.bad_ocr_layer


def visible_text(page: pypdfium2.PdfPage, textpage: pypdfium2.PdfTextPage, text: str) -> Visible:
    """:func:`visible_page_text`, with the hidden text objects that were left out."""
    none: frozenset[int] = frozenset()
    if not text:
        return Visible(text, False, none)
    import pypdfium2.raw as pdfium_c

    objects: PageObjects | None = None
    if pdfium_c.FPDFPage_CountObjects(page.raw) <= _EXACT_OBJECTS:
        # Few objects: every one is judged, so a hidden line among them is never missed.
        objects = scan_text_objects(page)
        if not objects.hidden:
            return Visible(text, False, none)
        invisible = any(objects.invisible)
    else:
        invisible, clipped = probe(page, textpage)
        if not invisible and not clipped:
            return Visible(text, False, none)  # decided from a sample of the characters
    if invisible and _is_scan(page):
        # Invisible text over a page image is the scan's OCR layer: the page's text,
        # even beside a visible stamp or page number, unless it is garbage.
        return Visible(text, is_bad_ocr_layer(text), none)
    objects = objects or scan_text_objects(page)
    if not objects.hidden or objects.shown == 0:
        return Visible(text, False, none)  # nothing shown to prefer over it: keep it all
    return Visible(_text_without(page, textpage, objects.hidden), False, objects.hidden)


def _is_scan(page: pypdfium2.PdfPage) -> bool:
    """Whether images cover most of the page. Raw calls, stopping as soon as they do: a
    scan's page image is usually its first object, before hundreds of OCR words."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    if width <= 0 or height <= 0:
        return False
    handle, covered = page.raw, 0.0
    bounds = [ctypes.c_float() for _ in range(4)]
    refs = [ctypes.byref(b) for b in bounds]
    for i in range(max(pdfium_c.FPDFPage_CountObjects(handle), 0)):
        obj = pdfium_c.FPDFPage_GetObject(handle, i)
        if (
            obj
            and pdfium_c.FPDFPageObj_GetType(obj) == pdfium_c.FPDF_PAGEOBJ_IMAGE
            and pdfium_c.FPDFPageObj_GetBounds(obj, *refs)
        ):
            left, bottom, right, top = (b.value for b in bounds)
            covered += max(0.0, right - left) * max(0.0, top - bottom)
            if covered >= _SCAN_COVER * width * height:
                return True
    return False


def _text_without(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    hidden: frozenset[int],
    compiled: bool = True,
) -> str:
    """The page's text, in PDFium's order, without the characters of ``hidden`` objects
    (and, as ``get_text_bounded`` does, without characters off the page box). By the
    compiled loop where it is built and ``compiled`` is true: in Python, three ctypes calls
    a character cost ~90 ms on a page of 10,000 (tests compare the two)."""
    import pypdfium2.raw as pdfium_c

    from omnireader.formats.layout import pdfium_calls

    handle = textpage.raw
    left, bottom, right, top = page.get_bbox()
    count = max(pdfium_c.FPDFText_CountChars(handle), 0)
    fast = pdfium_calls.compiled("shown_units", compiled)
    if fast is not None:
        units = fast(
            pdfium_calls.handle(handle),
            pdfium_calls.calls().addresses(_SHOWN_CALLS),
            count,
            hidden,
            (left, bottom, right, top),
        )
        return clean_pdf_text(units.decode("utf-16-le", "replace"))
    box = [ctypes.c_double() for _ in range(4)]
    codes: list[int] = []
    after_hidden = False
    for i in range(count):
        obj = pdfium_c.FPDFText_GetTextObject(handle, i)
        address = ctypes.cast(obj, ctypes.c_void_p).value if obj else None
        if address in hidden:
            after_hidden = True
            continue
        if address is None and after_hidden:
            continue  # the space or line break PDFium put after the hidden text
        after_hidden = False
        code = pdfium_c.FPDFText_GetUnicode(handle, i)
        if address is not None and pdfium_c.FPDFText_GetCharBox(
            handle, i, *(ctypes.byref(b) for b in box)
        ):
            c_left, c_right, c_bottom, c_top = (b.value for b in box)
            if c_right < left or c_left > right or c_top < bottom or c_bottom > top:
                continue
        if 0 < code <= 0xFFFF:
            codes.append(code)
    # FPDFText_GetUnicode gives UTF-16 code units: a character past U+FFFF is two halves.
    units = "".join(map(chr, codes)).encode("utf-16-le", "surrogatepass")
    return clean_pdf_text(units.decode("utf-16-le", "replace"))
