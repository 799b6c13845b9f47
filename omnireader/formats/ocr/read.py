"""One bitmap in, positioned text out: detect, find which way up, read, lay out.

    page = ocr_image(Image.open("receipt.png"))
    page.text, page.confidence, page.rotation, page.blocks[0].lines[0].bbox

The detection pass is the cheap first step (no line is read yet): a page it finds no text
on costs only that. The page's rotation comes from the detected boxes and the engine's
line classifier (``orientation.py``); a turned page is turned back and detected again, so
its lines are found upright and read in order. The boxes read then go through the page
layout of text PDFs (``to_layout.py``: columns, tables, headings, Markdown); with the
layout off, or when it fails, they are read plainly, row by row (``boxes.plain_blocks``).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from omnireader.formats.ocr.base import LOW_CONFIDENCE, OcrBlock, OcrEngine, OcrPage, Spans
from omnireader.formats.ocr.bitmaps import MAX_SIDE, fit, ink, to_bgr
from omnireader.formats.ocr.boxes import Box, plain_blocks
from omnireader.formats.ocr.engines import get_engine, set_threads
from omnireader.formats.ocr.orientation import box_sides, page_rotation
from omnireader.formats.ocr.scripts import unread_line

if TYPE_CHECKING:
    import numpy as np

    from omnireader.formats.ocr.to_layout import OcrLayout

__all__ = [
    "ocr_image",
    "get_engine",
    "set_threads",
    "can_hold_text",
    "BLANK_INK",
    "DROP_BELOW",
    "MIN_GLYPH_PIXELS",
    "MIN_LINE_PIXELS",
]

#: Less ink than this share of the page (after speckle is averaged away) is a blank page:
#: about 25 dots of a 512-pixel copy, less than one short word.
BLANK_INK = 0.0001
#: Lines read with less confidence than this are dropped (and counted on the page): RapidOCR's
#: own cut-off. The benchmark's pages gave no line under it; pictures' edges do (a lone box
#: read as "■" at 0.56), so it stays.
DROP_BELOW = 0.5
# Lines thinner than this (pixels) or far wider than tall get paper added above and below:
# the detector misses text that touches the image's edges (RapidOCR pads the same way).
_MIN_HEIGHT = 30
_WIDE = 8

_VOTERS = 16

log = logging.getLogger(__name__)

#: The shortest text line OCR reads, in source pixels. The detector scales every image up
#: until its short side is 736 pixels (RapidOCR's ``limit_side_len``, ``limit_type: min``)
#: and the recogniser scales each line to its 48-pixel input (padding anything under
#: ``_MIN_HEIGHT``), but scaling adds no strokes: a glyph needs about ten pixels of height
#: for its strokes to be told apart (a 32-pixel icon is read as a lone "6" at low
#: confidence), so text shorter than this is a blur.
MIN_GLYPH_PIXELS = 10
#: The shortest line of text: a word of four such glyphs (each about as wide as it is
#: tall, with its spacing). An image whose long side is under this (a 27×27 or 32×32
#: icon) holds no line, in either direction.
MIN_LINE_PIXELS = 4 * MIN_GLYPH_PIXELS


def can_hold_text(width: int, height: int) -> bool:
    """Whether a ``width`` × ``height`` image is large enough to hold a line of text (see
    :data:`MIN_GLYPH_PIXELS`); when not, OCR is skipped before the engine is loaded."""
    return min(width, height) >= MIN_GLYPH_PIXELS and max(width, height) >= MIN_LINE_PIXELS


def ocr_image(
    image: Any,
    *,
    engine: OcrEngine | None = None,
    find_rotation: bool = True,
    max_side: int = MAX_SIDE,
    layout: bool | OcrLayout = True,
) -> OcrPage:
    """Read the text of one bitmap (a PIL image, or a uint8 BGR array).

    With ``layout`` (an :class:`OcrLayout` carries a document's heading sizes and the
    page's scale), the blocks are the page layout's, in Markdown; without, the plain
    reading. A layout that fails leaves the plain reading, with ``layout_failed`` set.
    Returns an :class:`OcrPage` with no blocks and a ``note`` ("blank", "no_text",
    "too_small": see :func:`can_hold_text`) when there is nothing to read. The bitmap is scaled down to ``max_side`` pixels first.
    """
    width, height = (
        image.size
        if hasattr(image, "size") and not hasattr(image, "shape")
        else (image.shape[1], image.shape[0])
    )
    if not can_hold_text(width, height):  # before the engine: loading it takes seconds
        return OcrPage(
            engine=engine.name if engine else "rapidocr",
            width=width,
            height=height,
            note="too_small",
        )
    engine = engine or get_engine()
    bgr = _prepare(image, max_side)
    if not isinstance(layout, bool) and layout.points_per_pixel and bgr.shape[1] != width:
        # The bitmap was scaled to fit: each of its pixels covers more of the page.
        layout = replace(layout, points_per_pixel=layout.points_per_pixel * width / bgr.shape[1])
    if ink(bgr) < BLANK_INK:
        return OcrPage(engine=engine.name, width=bgr.shape[1], height=bgr.shape[0], note="blank")
    quads = engine.detect(bgr)
    if not quads:
        return OcrPage(engine=engine.name, width=bgr.shape[1], height=bgr.shape[0], note="no_text")
    crops = [engine.crop(bgr, q) for q in quads]
    rotation = _rotation(engine, quads, crops) if find_rotation else 0
    if rotation:
        import numpy as np

        bgr = np.ascontiguousarray(np.rot90(bgr, k=rotation // 90))
        quads = engine.detect(bgr)
        crops = [engine.crop(bgr, q) for q in quads]
    read = engine.recognize_words(_upright(quads, crops, engine, trust_page=find_rotation))
    # A line in a script the models do not read comes back empty or as a few marks: it is
    # counted, not stored (scripts.py).
    sides = [sorted(box_sides(q)) for q in quads]
    unread = [unread_line(f[0], f[1], long, short) for (short, long), f in zip(sides, read)]
    boxes = [_box(q, *f) for q, f, u in zip(quads, read, unread) if f[0].strip() and not u]
    kept = [b for b in boxes if not _noise(b)]
    height, width = bgr.shape[:2]
    blocks, failed = _blocks(kept, width, height, layout, bgr, engine)
    return OcrPage(
        engine=engine.name,
        blocks=blocks,
        rotation=rotation,
        width=width,
        height=height,
        dropped=len(boxes) - len(kept),
        unread=sum(unread),
        note=None if blocks else ("unread_script" if any(unread) else "no_text"),
        layout_failed=failed,
    )


def _blocks(
    boxes: list[Box],
    width: int,
    height: int,
    layout: bool | OcrLayout,
    bgr: np.ndarray,
    engine: OcrEngine,
) -> tuple[list[OcrBlock], bool]:
    """The page's blocks, and whether its layout failed (the plain reading stands then)."""
    if layout is False or not boxes:
        return plain_blocks(boxes, width, height), False
    # Imported here: the layout modules load with the first page, not with the package.
    from omnireader.formats.layout.page import LayoutFailed
    from omnireader.formats.ocr.cells import cell_reader
    from omnireader.formats.ocr.to_layout import OcrLayout, lay_out

    ctx = layout if isinstance(layout, OcrLayout) else OcrLayout()
    try:
        return lay_out(boxes, width, height, ctx, cell_reader(bgr, engine)), False
    except LayoutFailed as exc:
        log.info("OCR page layout: %s", exc)
    except Exception:  # noqa: BLE001 - a layout bug on one page: its plain reading stands
        log.warning("OCR page layout failed", exc_info=True)
    return plain_blocks(boxes, width, height), True


def _noise(box: Box) -> bool:
    """What the recognizer makes of a picture's edges: marks with no letter or digit that it
    is unsure of, or anything it is less than :data:`DROP_BELOW` sure of. Counted, not kept."""
    if box.confidence < DROP_BELOW:
        return True
    return box.confidence < LOW_CONFIDENCE and not any(ch.isalnum() for ch in box.text)


def _prepare(image: Any, max_side: int) -> np.ndarray:
    import numpy as np

    if not isinstance(image, np.ndarray):
        image = to_bgr(fit(image, max_side))
    h, w = image.shape[:2]
    if h < _MIN_HEIGHT or w > _WIDE * h:
        pad = max(_MIN_HEIGHT, w // _WIDE) - h // 2
        image = np.pad(image, ((pad, pad), (0, 0), (0, 0)), constant_values=255)
    return image


def _rotation(engine: OcrEngine, quads: list[np.ndarray], crops: list[np.ndarray]) -> int:
    """The page's rotation, judged on its :data:`_VOTERS` longest boxes (enough to be sure,
    and the classifier's cost stays that of a short page however long the page is)."""
    longest = sorted(range(len(quads)), key=lambda n: -max(box_sides(quads[n])))[:_VOTERS]
    return page_rotation([quads[n] for n in longest], _flipped(engine, [crops[n] for n in longest]))


def _flipped(engine: OcrEngine, crops: list[np.ndarray]) -> list[float]:
    """For each crop, the probability that it is upside down.

    The classifier sees 192 × 48 pixels: a whole line squeezed into that is a smear, so a
    line is judged by up to four windows of that shape along it, and their verdicts averaged.
    """
    windows: list[np.ndarray] = []
    owners: list[int] = []
    for n, crop in enumerate(crops):
        h, w = crop.shape[:2]
        span = max(1, 4 * h)
        count = max(1, min(4, w // span))
        for k in range(count):
            x = 0 if count == 1 else round(k * (w - span) / (count - 1))
            windows.append(crop[:, x : x + span])
            owners.append(n)
    sums = [0.0] * len(crops)
    counts = [0] * len(crops)
    for n, (flipped, score) in zip(owners, engine.classify(windows)):
        sums[n] += score if flipped else 1 - score
        counts[n] += 1
    return [s / c if c else 0.0 for s, c in zip(sums, counts)]


def _upright(
    quads: list[np.ndarray], crops: list[np.ndarray], engine: OcrEngine, *, trust_page: bool
) -> list[np.ndarray]:
    """The crops turned upright. Once the page is upright, so are its lines: the classifier
    is asked only about the odd line that runs across the page's direction (a label along
    a table's side), because on its own it calls some straight lines upside down (a
    bulleted line of the corpus's medical report scan, at 0.94), which then read as noise."""
    odd = (
        [n for n, q in enumerate(quads) if _runs_down(q)] if trust_page else list(range(len(crops)))
    )
    out = list(crops)
    for n, p in zip(odd, _flipped(engine, [crops[n] for n in odd])):
        if p > 0.5:
            out[n] = _turn(crops[n])
    return out


def _runs_down(quad: np.ndarray) -> bool:
    width, height = box_sides(quad)
    return height >= 1.5 * width


def _turn(crop: np.ndarray) -> np.ndarray:
    import numpy as np

    return np.ascontiguousarray(np.rot90(crop, k=2))


def _box(quad: np.ndarray, text: str, score: float, spans: Spans) -> Box:
    xs, ys = quad[:, 0], quad[:, 1]
    corners = tuple((float(x), float(y)) for x, y in quad[:4])
    return Box(
        float(xs.min()),
        float(ys.min()),
        float(xs.max()),
        float(ys.max()),
        text.strip(),
        score,
        quad=corners,  # type: ignore[arg-type]
        spans=spans,
    )
