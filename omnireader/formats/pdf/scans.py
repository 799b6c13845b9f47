"""OCR for PDF pages: a page with no text layer is rendered and read; with ``ocr="always"``
the pictures on pages that do have text are read too.

One page is rendered at a time and its bitmap dropped before the next, so a 300-page scan
holds one page in memory. The resolution is :data:`RENDER_DPI`, the smallest at which the
benchmark's pages read as well as at 300 dpi (``bench/bench_ocr.py``, resolution table),
bounded to :data:`~omnireader.formats.ocr.bitmaps.MAX_SIDE` pixels for oversized pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from omnireader.formats.document import EMPTY, LAYOUT_FAILED, NEEDS_OCR, Section
from omnireader.formats.ocr import MAX_OCR_PIXELS, OCR, OcrPage
from omnireader.formats.ocr.bitmaps import MAX_SIDE
from omnireader.formats.pdf.pdfium_lock import PDFIUM

if TYPE_CHECKING:
    import pypdfium2

    from omnireader.formats.layout.stream import LayoutStream
    from omnireader.formats.ocr.to_layout import OcrLayout

__all__ = ["read_scanned_page", "read_page_pictures", "RENDER_DPI"]

#: Pages are rendered at this resolution for OCR (measured: see the module docstring).
RENDER_DPI = 150
# Pictures smaller than this (points squared, about 1.5 × 1.5 inches) hold no more than a
# logo or an icon: not worth an OCR pass in "always" mode.
_MIN_PICTURE_AREA = 108 * 108


def read_scanned_page(
    page: pypdfium2.PdfPage, number: int, layer_text: str, layout: LayoutStream | None = None
) -> Section:
    """The page rendered and read. Its text layer (a stray caption) stays when OCR finds
    nothing; a page OCR finds no ink on is ``empty``; one it finds no text on stays
    ``needs_ocr`` (a picture: a vision model may still describe it).

    With ``layout`` (the document's layout stream), the page is laid out in page points,
    its headings judged against the document's body size; a layout that fails leaves the
    plain reading, flagged ``layout_failed``. Without, the plain reading."""
    from omnireader.formats.ocr import ocr_image

    with PDFIUM:
        width, height = page.get_size()
    scale = min(RENDER_DPI / 72, MAX_SIDE / max(width, height, 1.0))
    laid: OcrLayout | bool = False
    if layout is not None:
        from omnireader.formats.ocr.to_layout import OcrLayout

        laid = OcrLayout(
            headings=layout.headings,
            vocabulary=layout.vocabulary,
            index=number - 1,
            points_per_pixel=1 / scale,
        )
    with PDFIUM:  # the page is drawn under PDFium's lock; it is read by OCR outside it
        bitmap = page.render(scale=scale, may_draw_forms=True)
        try:
            image = bitmap.to_pil()
        finally:
            bitmap.close()
    try:
        read = ocr_image(image, layout=laid)
    except MemoryError:
        raise
    except Exception as e:  # an engine failure on one page; the rest of the file goes on
        note = f"failed: {type(e).__name__}: {e}"
        return Section(text=layer_text, page=number, flags=[NEEDS_OCR], ocr=_failed(note))
    finally:
        del image
    if read.blocks:
        flags = [OCR, LAYOUT_FAILED] if read.layout_failed else [OCR]
        return Section(text=read.text, page=number, flags=flags, ocr=read)
    if read.note == "blank" and not layer_text:
        return Section(text="", page=number, flags=[EMPTY], ocr=read)
    return Section(text=layer_text, page=number, flags=[NEEDS_OCR], ocr=read)


def read_page_pictures(
    page: pypdfium2.PdfPage, number: int, layout: bool = True
) -> Iterator[Section]:
    """Sections for the text in the pictures of a page that has a text layer (each laid
    out on its own with ``layout``: a picture's type has its own sizes)."""
    import pypdfium2.raw as pdfium_c

    from omnireader.formats.ocr import ocr_image
    from omnireader.formats.ocr.bitmaps import fit

    with PDFIUM:  # the pictures are found and drawn under PDFium's lock, read outside it
        pictures = [
            (n, picture)
            for n, picture in enumerate(
                page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3), start=1
            )
            if _worth_reading(picture)
        ]
    for n, picture in pictures:
        try:
            with PDFIUM:
                bitmap = picture.get_bitmap(render=True)
                try:
                    image = fit(bitmap.to_pil())
                finally:
                    bitmap.close()
            read = ocr_image(image, layout=layout)
        except MemoryError:
            raise
        except Exception:  # noqa: BLE001 - an undecodable picture: the page's text stands
            continue
        if read.blocks:
            read.image = n
            flags = [OCR, LAYOUT_FAILED] if read.layout_failed else [OCR]
            yield Section(text=read.text, page=number, flags=flags, ocr=read)


def _worth_reading(picture: Any) -> bool:
    """Big enough on the page to hold more than a logo, small enough in pixels to read."""
    left, bottom, right, top = picture.get_bounds()
    if (right - left) * (top - bottom) < _MIN_PICTURE_AREA:
        return False
    w, h = picture.get_px_size()
    return w * h <= MAX_OCR_PIXELS


def _failed(note: str) -> OcrPage:
    from omnireader.formats.ocr import get_engine

    try:
        name = get_engine().name
    except Exception:  # noqa: BLE001 - the engine itself failed to load
        name = "rapidocr"
    return OcrPage(engine=name, note=note)
