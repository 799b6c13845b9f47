"""The engine's text boxes: where their words lie, and the plain reading of a page.

A box is what the detector found and the recogniser read: a quadrilateral (one line, or a
run of words on one line), its text and a score. Where each word of it lies comes from
the recogniser's character columns (``OcrEngine.recognize_words``), or, when the engine
cannot say, from the words' lengths spread over the box.

The plain reading (:func:`plain_blocks`) is what a page gives with the page layout off,
or when its layout fails: rows top to bottom, each row's boxes left to right, a taller gap
than a line starting a new block. Like a text layer read in PDFium's order, it knows no
columns or tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from omnireader.formats.ocr.base import BBox, OcrBlock, OcrLine, Spans

__all__ = ["Box", "box_words", "fraction", "plain_blocks"]

Point = tuple[float, float]

# A vertical gap taller than this many line heights starts a new block (plain reading).
_BLOCK_GAP = 0.9


@dataclass
class Box:
    """One box the engine read, in pixels of the upright page.

    ``quad`` is its corners (top left, top right, bottom right, bottom left, as the text
    runs); ``spans`` where its words lie along it (:data:`~.base.Spans`).
    """

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    confidence: float
    quad: tuple[Point, Point, Point, Point] | None = None
    spans: Spans = None

    @property
    def height(self) -> float:
        """The text's height: the quad's side (a skewed line's bounding box is taller)."""
        if self.quad is None:
            return max(1.0, self.y1 - self.y0)
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = self.quad
        left = ((dx - ax) ** 2 + (dy - ay) ** 2) ** 0.5
        right = ((cx - bx) ** 2 + (cy - by) ** 2) ** 0.5
        return max(1.0, (left + right) / 2)

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


def box_words(box: Box) -> list[tuple[str, float, float, float, float]]:
    """The box's words as ``(text, x0, y0, x1, y1)`` in page pixels, left to right.

    A word's box is the stretch of the quad between its start and end along the text:
    on a skewed line each word keeps its own height. A box whose text runs up or down
    the page (a label along a table's side) is one word.
    """
    tokens = box.text.split()
    if not tokens:
        return []
    quad = box.quad
    if quad is None or (len(tokens) == 1 and not box.spans) or _runs_down(quad):
        return [(" ".join(tokens), box.x0, box.y0, box.x1, box.y1)]
    spans = box.spans if box.spans and _same_text(box.spans, tokens) else _spread(tokens)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad
    out = []
    for token, t0, t1 in spans:
        # The top edge runs a→b, the bottom edge d→c.
        xs = (ax + t0 * (bx - ax), ax + t1 * (bx - ax), dx + t0 * (cx - dx), dx + t1 * (cx - dx))
        ys = (ay + t0 * (by - ay), ay + t1 * (by - ay), dy + t0 * (cy - dy), dy + t1 * (cy - dy))
        out.append((token, min(xs), min(ys), max(xs), max(ys)))
    return out


def _spread(tokens: list[str]) -> list[tuple[str, float, float]]:
    """Word spans from their lengths, a space counted as one character."""
    total = sum(len(t) for t in tokens) + len(tokens) - 1
    spans = []
    at = 0
    for token in tokens:
        spans.append((token, at / total, (at + len(token)) / total))
        at += len(token) + 1
    return spans


def _same_text(spans: list[tuple[str, float, float]], tokens: list[str]) -> bool:
    return "".join(w for w, _, _ in spans) == "".join(tokens)


def _runs_down(quad: tuple[Point, Point, Point, Point]) -> bool:
    (ax, ay), (bx, by), _, (dx, dy) = quad
    along = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    across = ((dx - ax) ** 2 + (dy - ay) ** 2) ** 0.5
    return across >= 1.5 * along  # the engine turns such a crop to lie flat


def fraction(x0: float, y0: float, x1: float, y1: float, width: float, height: float) -> BBox:
    """A pixel box as fractions of the page (0..1, top left origin), clipped to the page."""
    w, h = max(1.0, width), max(1.0, height)
    return (
        round(min(1.0, max(0.0, x0 / w)), 4),
        round(min(1.0, max(0.0, y0 / h)), 4),
        round(min(1.0, max(0.0, x1 / w)), 4),
        round(min(1.0, max(0.0, y1 / h)), 4),
    )


def plain_blocks(boxes: list[Box], width: int, height: int) -> list[OcrBlock]:
    """The plain reading: rows top to bottom, boxes left to right; a gap taller than a
    line starts a new block."""
    boxes = [b for b in boxes if b.text.strip()]
    if not boxes:
        return []
    line_h = median(b.height for b in boxes)
    groups: list[list[list[Box]]] = []
    for row in _rows(boxes):
        top = min(b.y0 for b in row)
        if groups:
            last = groups[-1][-1]
            bottom = max(b.y1 for b in last)
            if top - bottom <= _BLOCK_GAP * max(line_h, median(b.height for b in last)):
                groups[-1].append(row)
                continue
        groups.append([row])
    return [_block(rows, width, height) for rows in groups]


def _rows(boxes: list[Box]) -> list[list[Box]]:
    """Boxes grouped by row (centres within half a line of each other), top to bottom."""
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: b.cy):
        row = rows[-1] if rows else None
        if row is not None:
            centre = median(b.cy for b in row)
            if abs(box.cy - centre) < 0.5 * min(box.height, median(b.height for b in row)):
                row.append(box)
                continue
        rows.append([box])
    return [sorted(row, key=lambda b: b.x0) for row in rows]


def _block(rows: list[list[Box]], width: int, height: int) -> OcrBlock:
    lines = [
        OcrLine(
            text=" ".join(b.text.strip() for b in row),
            bbox=fraction(
                min(b.x0 for b in row),
                min(b.y0 for b in row),
                max(b.x1 for b in row),
                max(b.y1 for b in row),
                width,
                height,
            ),
            confidence=round(_confidence(row), 4),
        )
        for row in rows
    ]
    every = [b for row in rows for b in row]
    return OcrBlock(
        bbox=fraction(
            min(b.x0 for b in every),
            min(b.y0 for b in every),
            max(b.x1 for b in every),
            max(b.y1 for b in every),
            width,
            height,
        ),
        lines=lines,
    )


def _confidence(boxes: list[Box]) -> float:
    chars = sum(len(b.text) for b in boxes)
    if not chars:
        return 0.0
    return sum(b.confidence * len(b.text) for b in boxes) / chars
