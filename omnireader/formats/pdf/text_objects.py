"""Which of a page's text objects are hidden: drawn invisible (render mode 3 or 7) or
outside the clip path they are drawn in. :mod:`.hidden_text` decides from this what of a
page's text is shown.

Two ways to ask: every text object (inside form XObjects too), or an even sample of the
page's characters mapped to their objects, for a large page where the full walk would cost
as much as the extraction. Both run as compiled loops (``_loops.text_objects``,
``probe_objects``) where they are built, with these Python loops as the same rule without
a compiler.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["INVISIBLE_MODES", "PageObjects", "probe", "scan_text_objects"]

INVISIBLE_MODES = {3, 7}  # FPDF_TEXTRENDERMODE_INVISIBLE, FPDF_TEXTRENDERMODE_CLIP
_MAX_DEPTH = 4  # form XObjects inside form XObjects: deeper is no page anyone draws
# A clip path with more segments than this is a shape (a logo, a circle), not the box that
# hides text: it is not worth its segments' calls and never hides a text object here.
_MAX_CLIP_SEGMENTS = 16
_SLACK = 1.0  # points: glyph bounds overshoot their clip box by rounding
# Characters whose objects' render mode is asked, and of those objects how many have their
# clip path checked (each clip costs ~10 calls): spread evenly over the page.
_MODE_SAMPLES = 16
_CLIP_SAMPLES = 4

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


def probe(
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
        if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) in INVISIBLE_MODES:
            invisible = True
        elif (
            not clipped
            and k % clip_every == 0
            and pdfium_c.FPDFPageObj_GetBounds(obj, *(ctypes.byref(b) for b in bounds))
        ):
            area = _intersect(page_box, _clip_box(obj))
            clipped = area is None or not _overlaps(tuple(b.value for b in bounds), area)
    return invisible, clipped


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
            if pdfium_c.FPDFTextObj_GetTextRenderMode(obj) in INVISIBLE_MODES:
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
