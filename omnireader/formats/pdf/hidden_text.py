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
from typing import TYPE_CHECKING, Any, NamedTuple

from omnireader.formats.pdf.clean import clean_pdf_text
from omnireader.formats.pdf.text_quality import is_bad_ocr_layer

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["PageObjects", "Visible", "scan_text_objects", "visible_page_text", "visible_text"]

_INVISIBLE_MODES = {3, 7}  # FPDF_TEXTRENDERMODE_INVISIBLE, FPDF_TEXTRENDERMODE_CLIP
_MAX_DEPTH = 4  # form XObjects inside form XObjects: deeper is no page anyone draws
# A clip path with more segments than this is a shape (a logo, a circle), not the box that
# hides text: it is not worth its segments' calls and never hides a text object here.
_MAX_CLIP_SEGMENTS = 16
_SLACK = 1.0  # points: glyph bounds overshoot their clip box by rounding
# Characters whose objects' render mode is asked, and of those objects how many have their
# clip path checked (each clip costs ~10 calls): spread evenly over the page.
_MODE_SAMPLES = 16
_CLIP_SAMPLES = 4
# A page with at most this many objects is judged object by object (~3-12 µs each); past
# it, from a sample of its characters.
_EXACT_OBJECTS = 48
# Images covering this share of the page make it a scan: invisible text on it is OCR text.
_SCAN_COVER = 0.5


# The PDFium calls of the compiled text-object loops (``_loops.text_objects`` and
# ``probe_objects``), in the order they take them.
_OBJECT_CALLS = (
    "FPDFPage_CountObjects",
    "FPDFPage_GetObject",
    "FPDFFormObj_CountObjects",
    "FPDFFormObj_GetObject",
    "FPDFPageObj_GetType",
    "FPDFTextObj_GetTextRenderMode",
    "FPDFPageObj_GetBounds",
    "FPDFPageObj_GetClipPath",
    "FPDFClipPath_CountPaths",
    "FPDFClipPath_CountPathSegments",
    "FPDFClipPath_GetPathSegment",
    "FPDFPathSegment_GetPoint",
    "FPDFText_GetTextObject",
    "FPDFText_CountChars",
)


def _compiled(name: str, page: pypdfium2.PdfPage, compiled: bool) -> tuple[Any, tuple[Any, ...]]:
    """The compiled loop ``name`` and the arguments every call of it starts with (its
    PDFium functions, object kinds, the page box and this module's limits), or None."""
    from omnireader.formats.layout import pdfium_calls

    fast = pdfium_calls.compiled(name, compiled)
    if fast is None:
        return None, ()
    c = pdfium_calls.calls()
    return fast, (
        c.addresses(_OBJECT_CALLS),
        (c.TEXT, c.FORM),
        tuple(page.get_bbox()),
        (_MAX_DEPTH, _MAX_CLIP_SEGMENTS, _SLACK),
    )


class PageObjects(NamedTuple):
    """What the page's text objects are: the hidden ones (handle addresses) and how many
    are shown."""

    hidden: frozenset[int]
    shown: int
    invisible: tuple[bool, ...] = ()  # one True per hidden object drawn invisible


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
        invisible, clipped = _probe(page, textpage)
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


def _probe(
    page: pypdfium2.PdfPage, textpage: pypdfium2.PdfTextPage, compiled: bool = True
) -> tuple[bool, bool]:
    """(any invisible, any clipped) among an even sample of the page's characters.

    A full pass over the text objects costs 3-12 µs an object in ctypes calls (a scanned
    page's OCR layer has one object a word: ~800), as much as the extraction itself; the
    sample costs a few percent of it, and the full pass only runs where it finds something.
    The sample is read by the compiled loop where it is built (the same objects asked).
    """
    import pypdfium2.raw as pdfium_c

    from omnireader.formats.layout.pdfium_calls import handle as address_of

    handle = textpage.raw
    count = pdfium_c.FPDFText_CountChars(handle)
    if count <= 0:
        return False, False
    samples = min(count, _MODE_SAMPLES)
    clip_every = max(1, samples // _CLIP_SAMPLES)  # clip checks spread over the page too
    fast, fixed = _compiled("probe_objects", page, compiled)
    if fast is not None:
        return fast(address_of(handle), *fixed, (samples, clip_every))  # type: ignore[no-any-return]
    seen: set[int] = set()
    invisible = clipped = False
    page_box = page.get_bbox()
    bounds = [ctypes.c_float() for _ in range(4)]
    for k in range(samples):
        obj = pdfium_c.FPDFText_GetTextObject(handle, (2 * k + 1) * count // (2 * samples))
        address = ctypes.cast(obj, ctypes.c_void_p).value if obj else None
        if address is None or address in seen:
            continue
        seen.add(address)
        if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) in _INVISIBLE_MODES:
            invisible = True
        elif (
            not clipped
            and k % clip_every == 0
            and pdfium_c.FPDFPageObj_GetBounds(obj, *(ctypes.byref(b) for b in bounds))
        ):
            area = _intersect(page_box, _clip_box(obj))
            clipped = area is None or not _overlaps(tuple(b.value for b in bounds), area)
    return invisible, clipped


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


def scan_text_objects(page: pypdfium2.PdfPage, compiled: bool = True) -> PageObjects:
    """Sort the page's text objects (inside form XObjects too) into hidden and shown; by
    the compiled loop where it is built and ``compiled`` is true (the same sorting)."""
    import pypdfium2.raw as pdfium_c

    from omnireader.formats.layout.pdfium_calls import handle

    fast, fixed = _compiled("text_objects", page, compiled)
    if fast is not None:
        hidden_at, shown_n, invisible_n = fast(handle(page.raw), *fixed)
        return PageObjects(frozenset(hidden_at), shown_n, (True,) * invisible_n)

    hidden: set[int] = set()
    invisible: list[bool] = []
    shown = 0
    left, bottom, right, top = page.get_bbox()
    stack = [(page.raw, None, 0)]  # (page or form handle, form object, depth)
    bounds = [ctypes.c_float() for _ in range(4)]
    refs = [ctypes.byref(b) for b in bounds]
    while stack:
        owner, form, depth = stack.pop()
        count = (
            pdfium_c.FPDFPage_CountObjects(owner)
            if form is None
            else pdfium_c.FPDFFormObj_CountObjects(form)
        )
        for i in range(max(count, 0)):
            obj = (
                pdfium_c.FPDFPage_GetObject(owner, i)
                if form is None
                else pdfium_c.FPDFFormObj_GetObject(form, i)
            )
            if not obj:
                continue
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
                stack.append((owner, obj, depth + 1))
                continue
            if kind != pdfium_c.FPDF_PAGEOBJ_TEXT:
                continue
            address = ctypes.cast(obj, ctypes.c_void_p).value or 0
            if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) in _INVISIBLE_MODES:
                hidden.add(address)
                invisible.append(True)
                continue
            if form is not None or not pdfium_c.FPDFPageObj_GetBounds(obj, *refs):
                # Inside a form XObject bounds and clips are in the form's space: only
                # the render mode is judged there.
                shown += 1
                continue
            box = tuple(b.value for b in bounds)
            clip = _clip_box(obj)
            area = _intersect((left, bottom, right, top), clip)
            if area is None or not _overlaps(box, area):
                hidden.add(address)
            else:
                shown += 1
    return PageObjects(frozenset(hidden), shown, tuple(invisible))


def _clip_box(obj: object) -> tuple[float, float, float, float] | None:
    """The bounding box of a page object's clip path (the intersection of its paths'
    boxes), or None when it has none or it is not a simple shape."""
    import pypdfium2.raw as pdfium_c

    clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None
    area: tuple[float, float, float, float] | None = None
    x, y = ctypes.c_float(), ctypes.c_float()
    for p in range(max(pdfium_c.FPDFClipPath_CountPaths(clip), 0)):
        segments = pdfium_c.FPDFClipPath_CountPathSegments(clip, p)
        if segments <= 0 or segments > _MAX_CLIP_SEGMENTS:
            return None
        xs, ys = [], []
        for s in range(segments):
            segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, p, s)
            if segment and pdfium_c.FPDFPathSegment_GetPoint(
                segment, ctypes.byref(x), ctypes.byref(y)
            ):
                xs.append(x.value)
                ys.append(y.value)
        if not xs:
            return None
        box = (min(xs), min(ys), max(xs), max(ys))
        area = box if area is None else _intersect(area, box)
        if area is None:
            return (0.0, 0.0, 0.0, 0.0)  # paths that do not meet: nothing shows
    return area


def _intersect(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float] | None
) -> tuple[float, float, float, float] | None:
    if b is None:
        return a
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None


def _overlaps(box: tuple[float, ...], area: tuple[float, ...]) -> bool:
    return (
        box[0] < area[2] + _SLACK
        and box[2] > area[0] - _SLACK
        and box[1] < area[3] + _SLACK
        and box[3] > area[1] - _SLACK
    )


def _text_without(
    page: pypdfium2.PdfPage, textpage: pypdfium2.PdfTextPage, hidden: frozenset[int]
) -> str:
    """The page's text, in PDFium's order, without the characters of ``hidden`` objects
    (and, as ``get_text_bounded`` does, without characters off the page box)."""
    import pypdfium2.raw as pdfium_c

    handle = textpage.raw
    left, bottom, right, top = page.get_bbox()
    box = [ctypes.c_double() for _ in range(4)]
    codes: list[int] = []
    after_hidden = False
    for i in range(max(pdfium_c.FPDFText_CountChars(handle), 0)):
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
