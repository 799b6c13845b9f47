"""OCR'd boxes through the page layout of text PDFs: columns, tables, headings, Markdown.

The engine's boxes become the layout stage's :class:`~omnireader.formats.layout.model.Word`
s (one per word, placed along its box: ``boxes.box_words``), in points: the page's own
when the bitmap is a rendered PDF page, otherwise a scale that sets the body text at
:data:`BODY_POINTS`, so the stage's distances (gutters, gaps in em) mean what they mean on
a text PDF. A word's size comes from its box's height; OCR sees no weight, so nothing is
bold, and headings come from line height (and numbering) alone.

Then it is the text layer's path (``layout/page.py: layout_words``): lines, blocks,
borderless tables from the words' alignment, reading order with columns, heading levels
against the document's body size. Each block comes back as an :class:`OcrBlock` of
Markdown lines that keep their own boxes and confidences.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from omnireader.formats.layout.headings import HeadingRules
from omnireader.formats.layout.model import Block, Table, Word
from omnireader.formats.layout.page import BUDGET_S, LayoutFailed, budget_clock, layout_words
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.ocr.base import OcrBlock, OcrLine
from omnireader.formats.ocr.boxes import Box, box_words, fraction

if TYPE_CHECKING:
    from omnireader.formats.layout.model import Line
    from omnireader.formats.ocr.cells import CellReader

__all__ = ["BODY_POINTS", "SIZE_PER_HEIGHT", "OcrLayout", "lay_out", "ocr_words"]

#: A font's size is about this share of its detected box's height (measured on drawn
#: pages: 10 pt text at 150 dpi gives boxes of 23–29 px for 21 px of type).
SIZE_PER_HEIGHT = 0.8
#: The body size an image's text is scaled to when the image says nothing of its size.
BODY_POINTS = 10.0
# Box heights within this ratio of the page's typical one are the body size: a line's box
# grows with its ascenders and descenders, which is no change of type.
_SAME_SIZE = 1.25
# The share of the boxes' characters the layout must give back (else it failed).
_KEPT = 0.95


@dataclass
class OcrLayout:
    """What laying out an OCR'd page needs beyond its boxes.

    ``headings`` and ``vocabulary`` are the document's (a PDF's :class:`LayoutStream`
    keeps them across pages); ``points_per_pixel`` is known for a rendered PDF page.
    """

    headings: HeadingRules = field(default_factory=HeadingRules)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    index: int = 0  # the page's index in its document (0-based), for the outline
    points_per_pixel: float | None = None
    budget: float = BUDGET_S


def ocr_words(
    boxes: list[Box], scale: float | None = None
) -> tuple[list[Word], list[float], float]:
    """The boxes' words in points (``scale`` points a pixel, or the body scaled to
    :data:`BODY_POINTS`), each word's confidence (its box's), and the scale used."""
    boxes = [b for b in boxes if b.text.strip()]
    if not boxes:
        return [], [], scale or 1.0
    body = _body_height(boxes)
    if scale is None:
        scale = BODY_POINTS / (SIZE_PER_HEIGHT * body)
    words: list[Word] = []
    scores: list[float] = []
    for box in boxes:
        height = box.height
        if 1 / _SAME_SIZE <= height / body <= _SAME_SIZE:
            height = body
        size = round(SIZE_PER_HEIGHT * height * scale * 2) / 2  # half points, like PDF sizes
        for text, x0, y0, x1, y1 in box_words(box):
            words.append(Word(text, x0 * scale, y0 * scale, x1 * scale, y1 * scale, size))
            scores.append(box.confidence)
    return words, scores, scale


def _body_height(boxes: list[Box]) -> float:
    """The box height most characters are set in (the median, weighted by characters)."""
    ranked = sorted((b.height, len(b.text)) for b in boxes)
    half = sum(n for _, n in ranked) / 2
    seen = 0
    for height, n in ranked:
        seen += n
        if seen >= half:
            return height
    return ranked[-1][0]


def lay_out(
    boxes: list[Box], width: int, height: int, ctx: OcrLayout, cells: CellReader | None = None
) -> list[OcrBlock]:
    """The boxes as Markdown blocks in reading order (boxes as page fractions); ``cells``
    reads what stands in a table's empty cells (:mod:`.cells`). Raises
    :class:`LayoutFailed` when the layout fails, runs out of its budget, or gives back
    visibly less text than the boxes hold."""
    started = budget_clock()
    words, scores, scale = ocr_words(boxes, ctx.points_per_pixel)
    if not words:
        return []
    confidence = {id(w): s for w, s in zip(words, scores)}
    w_pt, h_pt = width * scale, height * scale
    tables = _tables(words, w_pt, h_pt)
    lines_out: list[list[Line]] = []
    laid = layout_words(
        words,
        w_pt,
        h_pt,
        ctx.index,
        ctx.headings,
        ctx.vocabulary,
        tables,
        started,
        ctx.budget,
        lines_out=lines_out,
    )
    _check_kept(words, laid.blocks, lines_out)
    out = []
    for block, lines in zip(laid.blocks, lines_out):
        if block.table is not None and cells is not None:
            _fill_empty(block.table, words, cells, scale)
        built = _ocr_block(block, lines, words, confidence, w_pt, h_pt)
        if built is not None:
            out.append(built)
    return out


def _tables(words: list[Word], width: float, height: float) -> list[Table]:
    """Borderless tables from the words' alignment (a scan has no ruling lines to read)."""
    try:
        from omnireader.formats.layout.tables import find_tables
    except ImportError:
        return []
    return list(find_tables(words, [], width, height))


def _ocr_block(
    block: Block,
    lines: list[Line],
    words: list[Word],
    confidence: dict[int, float],
    width: float,
    height: float,
) -> OcrBlock | None:
    box = fraction(block.x0, block.y0, block.x1, block.y1, width, height)
    if block.kind == "table" and block.table is not None:
        rows = _table_lines(block.table, words, confidence, width, height)
        return OcrBlock(bbox=box, lines=rows, table=True, kind="table") if rows else None
    if not lines:
        return None
    out = [_line(line.words, line.text, confidence, width, height) for line in lines]
    if block.kind == "heading":
        # A Markdown heading is one line: a title set on two lines is joined.
        every = [w for line in lines for w in line.words]
        text = " ".join(line.text for line in lines)
        out = [
            _line(every, "#" * max(1, min(block.level, 6)) + " " + text, confidence, width, height)
        ]
    elif block.kind == "list_item":
        from omnireader.formats.layout.markdown import block_markdown

        first = out[0]
        marked = block_markdown(Block("list_item", first.text, 0, 0, 0, 0))
        out[0] = first.model_copy(update={"text": marked})
    return OcrBlock(bbox=box, lines=out, kind=block.kind, level=block.level)


def _line(
    words: list[Word], text: str, confidence: dict[int, float], width: float, height: float
) -> OcrLine:
    chars = sum(len(w.text) for w in words) or 1
    score = sum(confidence.get(id(w), 0.0) * len(w.text) for w in words) / chars
    return OcrLine(
        text=text,
        bbox=fraction(
            min(w.x0 for w in words),
            min(w.y0 for w in words),
            max(w.x1 for w in words),
            max(w.y1 for w in words),
            width,
            height,
        ),
        confidence=round(score, 4),
    )


def _table_lines(
    table: Table, words: list[Word], confidence: dict[int, float], width: float, height: float
) -> list[OcrLine]:
    """The table's Markdown rows as lines. Each keeps its row's box and confidence when the
    table has a row for each printed line; rows joined from wrapped cells take the table's."""
    from omnireader.formats.layout.tables import render_table
    from omnireader.formats.layout.tables_text import group_lines

    inside = _table_words(table, words)
    if not inside:
        return []
    printed = group_lines(inside)
    markdown = render_table(table).split("\n")
    head = 1  # render_table's separator follows the first row (Markdown has one header row)
    if len(printed) != len(table.rows):
        printed = [inside] * len(table.rows)
    out = []
    for n, row in enumerate(printed):
        out.append(_line(row, markdown[n + (n >= head)], confidence, width, height))
        if n + 1 == head:  # the header separator, on the last header row's box
            out.append(out[-1].model_copy(update={"text": markdown[head]}))
    return out


def _table_words(table: Table, words: list[Word]) -> list[Word]:
    return [w for w in words if table.x0 <= w.cx <= table.x1 and table.y0 <= w.cy <= table.y1]


def _fill_empty(table: Table, words: list[Word], cells: CellReader, scale: float) -> None:
    """Each empty cell of ``table`` as ``cells`` reads it in the bitmap (a dash the detector
    missed). Only when each row is one printed line, so a cell's band is known."""
    from omnireader.formats.layout.tables_text import group_lines

    edges = table.columns
    printed = group_lines(_table_words(table, words))
    if len(printed) != len(table.rows) or len(edges) != len(table.rows[0]) + 1:
        return
    for row, line in zip(table.rows, printed):
        top, bottom = min(w.y0 for w in line), max(w.y1 for w in line)
        for c, cell in enumerate(row):
            if cell:
                continue
            lo, hi = edges[c], edges[c + 1]
            mid = (lo + hi) / 2
            if any(w.x0 < mid < w.x1 for w in line):
                continue  # a word of a cell beside it reaches over the middle
            # From the words beside it, or the column's edges: a cell's mark may stand a
            # little left of the column's first text (a dash under a header's start).
            # A word's ends are placed to about a sixth of its line's height, so the cell
            # keeps clear of its neighbours by a quarter: no tail of theirs is read as its own.
            em = bottom - top
            clear = 0.25 * em
            lo = max([lo - 0.5 * em, *(w.x1 + clear for w in line if w.x1 <= mid)])
            hi = min([hi, *(w.x0 - clear for w in line if w.x0 >= mid)])
            if hi - lo < clear:
                continue
            found = cells((lo / scale, top / scale, hi / scale, bottom / scale))
            if found:
                row[c] = found


def _check_kept(words: list[Word], blocks: list[Block], lines: list[list[Line]]) -> None:
    """Nothing is lost by laying a page out: the blocks hold the words' characters (a
    table finder that dropped words fails the page)."""
    want = sum(len(w.text) for w in words)
    got = sum(len(w.text) for block in lines for line in block for w in line.words)
    for block in blocks:
        if block.table is not None:
            got += sum(len("".join(cell.split())) for row in block.table.rows for cell in row)
    if got < _KEPT * want:
        raise LayoutFailed(f"the layout holds {got} of the page's {want} characters")
