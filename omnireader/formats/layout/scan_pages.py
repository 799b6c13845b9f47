"""Scanned pages in the layout stream: their OCR blocks as a layout for the furniture
window (:func:`scanned_layout`), and a paragraph a page break cuts made whole, the next
scan's first block carried back onto the page where it began, as a text page's is
(:mod:`.page_breaks`).

OCR keeps each line of a block with its own box and confidence, so the carried lines are
appended to the last block's lines (one paragraph, a line break apart, as inside a page)
and name the page they stand on (``OcrLine.page``): that is how the page's items learn
they run onto the next page (``Source.page_end``). A word broken at the page's last hyphen
is decided as a text page's is (:func:`.reflow.join_hyphenated`): the whole word ends the
last line and the carried line starts after it.

Which blocks carry on is :func:`.page_breaks.carries_on`'s rule, on the blocks' text. OCR
knows no font size, only its boxes: two blocks are one size when their lines' median
heights are within :data:`_HEIGHT_SHARE` (a box grows with ascenders and descenders).
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from omnireader.formats.document import Section
from omnireader.formats.layout.model import Block, PageLayout
from omnireader.formats.layout.page_breaks import carries_on
from omnireader.formats.layout.reflow import HYPHENS, Vocabulary, join_hyphenated
from omnireader.formats.ocr import OCR
from omnireader.formats.ocr.base import OcrBlock, OcrPage

__all__ = ["HeldScan", "Scanned", "carry_scan", "scanned_layout"]

# Line heights further apart than this share are two kinds of text (body and footnote).
_HEIGHT_SHARE = 0.15
# The block kinds an OCR block can carry over to the furniture window.
_KINDS = ("heading", "paragraph", "list_item", "table", "caption")
#: A scanned page as the window sees it: its layout, and the OCR block behind each block.
Scanned = tuple[PageLayout, "dict[int, OcrBlock]"]


@dataclass(slots=True)
class HeldScan:
    """A scanned page's final section, held until the next page's body is known."""

    section: Section

    def finished(self, vocabulary: Vocabulary | None = None) -> Section:
        return self.section  # (OCR's lines keep their line-end hyphens as read)


def carry_scan(held: HeldScan, page: OcrPage, number: int, vocabulary: Vocabulary) -> OcrPage:
    """``page`` (the OCR reading of scanned page ``number``, its running header gone) with
    the blocks that carry on ``held``'s last paragraph moved onto it (``held`` updated)."""
    before = held.section.ocr
    if before is None or not before.blocks or not page.blocks:
        return page
    last, blocks = before.blocks[-1], list(page.blocks)
    moved = False
    while blocks and _carries_on(last, before, blocks[0], page):
        last = _joined(last, blocks.pop(0), number, vocabulary)
        moved = True
    if not moved:
        return page
    ocr = before.model_copy(update={"blocks": [*before.blocks[:-1], last]})
    held.section = held.section.model_copy(update={"ocr": ocr, "text": ocr.text})
    return page.model_copy(update={"blocks": blocks})


def _carries_on(last: OcrBlock, before: OcrPage, first: OcrBlock, after: OcrPage) -> bool:
    if not last.lines or not first.lines or last.kind is None or first.kind is None:
        return False  # a page whose layout failed reads row by row: no paragraphs to join
    a, b = _height(last, before), _height(first, after)
    if abs(a - b) > _HEIGHT_SHARE * max(a, b):
        return False
    return carries_on(_as_block(last), _as_block(first))


def _height(block: OcrBlock, page: OcrPage) -> float:
    # In the bitmap's pixels: pages of one scan are rendered at one resolution.
    height = float(page.height or 1)
    return median((line.bbox[3] - line.bbox[1]) * height for line in block.lines)


def _as_block(block: OcrBlock) -> Block:
    text = " ".join(line.text for line in block.lines)
    return Block(block.kind, text, *block.bbox)  # type: ignore[arg-type]


def _joined(last: OcrBlock, first: OcrBlock, number: int, vocabulary: Vocabulary) -> OcrBlock:
    """``last`` with ``first``'s lines after its own, each naming page ``number``."""
    lines = list(last.lines)
    carried = [line.model_copy(update={"page": number}) for line in first.lines]
    tail, head = lines[-1].text.rstrip(), carried[0].text.lstrip()
    if tail[-1:] in HYPHENS and len(tail) > 1 and tail[-2].isalpha():
        stem, _, broken = tail.rpartition(" ")
        word, _, rest = head.partition(" ")
        whole = join_hyphenated(broken, word, vocabulary)
        lines[-1] = lines[-1].model_copy(update={"text": f"{stem} {whole}" if stem else whole})
        if rest:
            carried[0] = carried[0].model_copy(update={"text": rest})
        else:
            carried.pop(0)  # the line held only the word's end
    return last.model_copy(update={"lines": lines + carried})


def scanned_layout(section: Section) -> Scanned | None:
    """A scanned page's OCR blocks as a :class:`PageLayout` for the furniture window
    (boxes in the bitmap's pixels, text without its Markdown marks), with the OCR block
    behind each of its blocks; None for anything but a whole page OCR read (a picture on a
    text page has no running header)."""
    ocr = section.ocr
    if ocr is None or ocr.image is not None or section.part or OCR not in section.flags:
        return None
    width, height = float(ocr.width or 1000), float(ocr.height or 1000)
    layout = PageLayout(width, height)
    sources: dict[int, OcrBlock] = {}
    for block in ocr.blocks:
        if not block.lines:
            continue
        x0, y0, x1, y1 = block.bbox
        kind = block.kind if block.kind in _KINDS else "paragraph"
        text = block.text if kind != "heading" else block.text.lstrip("#").strip()
        laid = Block(kind, text, x0 * width, y0 * height, x1 * width, y1 * height, block.level)  # type: ignore[arg-type]
        layout.blocks.append(laid)
        sources[id(laid)] = block
    return (layout, sources) if layout.blocks else None
