"""What stands in a scanned table's cell that the detector found no text in.

The detector does not see a lone dash (a few pixels of a short stroke at 150 dpi), so a
table's "nothing here" cells would read as empty ones. Once the layout has placed the
table's columns, each empty cell is looked at in the bitmap: no ink, it is empty; a short
flat solid stroke in the middle of the row, it is "-"; other ink is read by the engine on
its own, and kept when read surely.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from omnireader.formats.ocr.base import LOW_CONFIDENCE, OcrEngine

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CellReader", "cell_reader"]

#: Reads the cell at a pixel box (x0, y0, x1, y1): its text, or None when it is empty.
CellReader = Callable[[tuple[float, float, float, float]], str | None]

# Ink: this much darker than white paper (the antialiased edge of a thin stroke counts).
_DARK = 195
_MIN_PIXELS = 5  # a mark smaller than this is a speck
# A dash: no taller than this share of the row, at least this share of it wide and twice
# as wide as tall, filling most of its own box (two specks side by side are no stroke).
_DASH_HEIGHT = 0.2
_DASH_WIDTH = 0.1
_DASH_FILL = 0.6
_MAX_CHARS = 12  # what a cell the detector missed holds at most
# Cells read by the engine on one page, at most (each read costs tens of milliseconds).
_MAX_READS = 24


def cell_reader(bgr: np.ndarray, engine: OcrEngine) -> CellReader:
    """A :data:`CellReader` over the page bitmap ``bgr`` (pixels of the upright page)."""
    import numpy as np

    h, w = bgr.shape[:2]
    reads = 0

    def read(box: tuple[float, float, float, float]) -> str | None:
        x0, y0 = max(0, int(box[0]) + 1), max(0, int(box[1]))
        x1, y1 = min(w, int(box[2]) - 1), min(h, int(box[3]) + 1)
        if x1 - x0 < 2 or y1 - y0 < 4:
            return None
        region = bgr[y0:y1, x0:x1]
        # The darkest channel: coloured ink counts (only the cell, not the page: a whole
        # page's reduction costs more than its layout).
        ink = _ink(region.min(axis=2) if region.ndim == 3 else region)
        if ink is None:
            return None
        left, top, right, bottom, pixels, parts = ink
        row = y1 - y0
        ink_w, ink_h = right - left, bottom - top
        if (
            parts == 1
            and ink_h <= _DASH_HEIGHT * row
            and ink_w >= max(2 * ink_h, _DASH_WIDTH * row)
            and pixels >= _DASH_FILL * ink_w * ink_h
            and 0.2 * row <= (top + bottom) / 2 <= 0.8 * row
        ):
            return "-"
        nonlocal reads
        if reads >= _MAX_READS:
            return None
        reads += 1
        pad = max(2, row // 4)
        crop = bgr[y0:y1, max(0, x0 + left - pad) : min(w, x0 + right + pad)]
        found = engine.recognize([np.ascontiguousarray(crop)])
        text, score = found[0] if found else ("", 0.0)
        text = text.strip()
        if text and score >= LOW_CONFIDENCE and len(text) <= _MAX_CHARS:
            return text
        return None

    return read


def _ink(region: np.ndarray) -> tuple[int, int, int, int, int, int] | None:
    """The box of the ink in ``region`` (left, top, right, bottom, exclusive), its pixels,
    and how many marks it is; None when there is none. Marks of fewer than
    :data:`_MIN_PIXELS` pixels are scanner specks, not ink."""
    import cv2
    import numpy as np

    dark = (region < _DARK).astype(np.uint8)
    if int(dark.sum()) < _MIN_PIXELS:
        return None
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    marks = [stats[n] for n in range(1, count) if stats[n][cv2.CC_STAT_AREA] >= _MIN_PIXELS]
    if not marks:
        return None
    left = min(int(m[cv2.CC_STAT_LEFT]) for m in marks)
    top = min(int(m[cv2.CC_STAT_TOP]) for m in marks)
    right = max(int(m[cv2.CC_STAT_LEFT] + m[cv2.CC_STAT_WIDTH]) for m in marks)
    bottom = max(int(m[cv2.CC_STAT_TOP] + m[cv2.CC_STAT_HEIGHT]) for m in marks)
    pixels = sum(int(m[cv2.CC_STAT_AREA]) for m in marks)
    return left, top, right, bottom, pixels, len(marks)
