"""Items from OCR'd text, shared by the file parser (scanned PDF pages, pictures in
documents) and the image parser (images, TIFF pages).

The page's text is chunked like any document text; each chunk item carries the lines it
holds with their bounding boxes (page fractions), grouped in their blocks, in reading
order, the mean confidence, the engine, and the flag ``ocr`` (so fine mode can still
upgrade it with a vision model). Each block says what the page layout made of it, as
``layout_blocks`` do on a text PDF's items: ``kind`` (heading, paragraph, list_item,
caption, table) and a heading's ``level``. Lines read with low confidence are kept and
marked, and their item is flagged ``ocr_low_confidence`` (an image read only as such
lines, :func:`all_unsure`, gets no OCR item: the image parser keeps the reading as
evidence on the image's own item). A page whose layout failed (its blocks are the plain
reading, row by row, and have no kind) flags its items ``layout_failed``. Lines in a script the OCR models do not read are not in the text: the
page's items are flagged ``ocr_unread_script`` and say how many (``ocr_unread_lines``).
Lines carried from the next scanned page (the rest of a paragraph a page break cut,
``layout/scan_pages.py``) name their ``page``, and the item's source says ``page_end``.
"""

from __future__ import annotations

from typing import Any

from omnireader.formats.document import GARBLED, LAYOUT_FAILED, Section
from omnireader.formats.ocr import LOW_CONFIDENCE, OCR, OcrBlock, OcrPage
from omnireader.formats.ocr.scripts import UNREAD_SCRIPT, unread_message
from omnireader.models import MemoryItem, Source
from omnireader.parsers.base import ParseContext, Parser, chunk_source
from omnireader.text.chunking import chunk_text

__all__ = ["ocr_items", "not_read", "LOW_CONFIDENCE_FLAG", "all_unsure", "unsure_reading"]

LOW_CONFIDENCE_FLAG = "ocr_low_confidence"


def all_unsure(page: OcrPage) -> bool:
    """Whether every line OCR read on ``page`` is low-confidence: on a logo, a seal or a
    photo the engine reads shapes as letters ("PR ELUISSGIN.S" off a seal), and lines
    under the threshold held no right word in the OCR bench (formats/ocr/base.py)."""
    lines = page.lines
    return bool(lines) and all(line.low_confidence for line in lines)


def unsure_reading(page: OcrPage, number: int) -> dict[str, Any]:
    """What OCR read on an :func:`all_unsure` page, kept as evidence in the metadata of
    the image's own item rather than stored as an item's text."""
    return {
        "page": number,
        "text": page.text,
        "confidence": round(page.confidence or 0.0, 4),
        "lines": len(page.lines),
    }


def ocr_items(
    parser: Parser[Any],
    ctx: ParseContext,
    page: OcrPage,
    *,
    source: Source,
    position: tuple[object, ...],
    **metadata: Any,
) -> list[MemoryItem]:
    """One item per chunk of ``page``'s text; ``metadata`` (key, tags, extra...) on each."""
    spans = _line_spans(page)
    items = []
    base_extra = dict(metadata.pop("extra", {}) or {})
    base_flags = list(metadata.pop("flags", []) or [])
    # The order the scanned-PDF section says it in: ocr, then layout_failed.
    page_flags = [OCR, LAYOUT_FAILED] if page.layout_failed else [OCR]
    if page.unread:  # lines in a script the models do not read: every item of the page says so
        page_flags.append(UNREAD_SCRIPT)
        base_extra["ocr_unread_lines"] = page.unread
        base_extra["ocr_unread_note"] = unread_message(page.unread)
    for chunk in chunk_text(page.text, ctx.options.chunk_tokens):
        blocks = _blocks_in(spans, chunk.char_start, chunk.char_end)
        lines = [line for block in blocks for line in block["lines"]]
        chars = sum(len(line["text"]) for line in lines) or 1
        confidence = sum(line["confidence"] * len(line["text"]) for line in lines) / chars
        low = sum(1 for line in lines if line.get("low_confidence"))
        extra = {
            **base_extra,
            "ocr_engine": page.engine,
            "ocr_confidence": round(confidence, 4),
            "ocr_rotation": page.rotation,
            "ocr_blocks": blocks,
        }
        if page.image is not None:
            extra["ocr_image"] = page.image
        if low:
            extra["ocr_low_confidence_lines"] = low
        if page.dropped and chunk.index == 0:
            extra["ocr_dropped_lines"] = page.dropped
        src = chunk_source(source, chunk)
        pages = [line["page"] for line in lines if "page" in line]
        if pages:  # the rest of a paragraph a page break cut, on the next page
            src.page_end = max(pages)
        items.append(
            parser.make_item(
                chunk.text,
                ctx,
                sources=[src],
                position=(*position, chunk.index),
                flags=[*base_flags, *page_flags, *([LOW_CONFIDENCE_FLAG] if low else [])],
                extra=extra,
                **metadata,
            )
        )
    return items


def _line_spans(
    page: OcrPage,
) -> list[tuple[int, dict[str, Any], list[tuple[int, int, dict[str, Any]]]]]:
    """For each block: its index, its fields, and each line's character span in ``page.text``."""
    out = []
    at = 0
    for b, block in enumerate(b for b in page.blocks if b.lines):
        if b:
            at += 2  # the blank line between blocks
        lines = []
        for n, line in enumerate(block.lines):
            if n:
                at += 1
            entry: dict[str, Any] = {
                "text": line.text,
                "bbox": list(line.bbox),
                "confidence": line.confidence,
            }
            if line.confidence < LOW_CONFIDENCE:
                entry["low_confidence"] = True
            if line.page is not None:  # carried from the next page (layout/scan_breaks.py)
                entry["page"] = line.page
            lines.append((at, at + len(line.text), entry))
            at += len(line.text)
        out.append((b, _block_fields(block), lines))
    return out


def _block_fields(block: OcrBlock) -> dict[str, Any]:
    """What a block says besides its lines: its box, and the layout's kind and level."""
    fields: dict[str, Any] = {"bbox": list(block.bbox)}
    if block.kind:
        fields["kind"] = block.kind
    if block.kind == "heading" and block.level:
        fields["level"] = block.level
    if block.table:
        fields["table"] = True
    return fields


def _blocks_in(
    spans: list[tuple[int, dict[str, Any], list[tuple[int, int, dict[str, Any]]]]],
    start: int,
    end: int,
) -> list[dict[str, Any]]:
    """The blocks (with only their lines) that overlap the character span [start, end)."""
    blocks = []
    for _, fields, lines in spans:
        inside = [entry for s, e, entry in lines if s < end and e > start]
        if inside:
            blocks.append({**fields, "lines": inside})
    return blocks


def not_read(section: Section) -> str:
    """Why OCR did not read a page with no (decodable) text layer, as a reason code."""
    if section.ocr is None:
        return GARBLED if GARBLED in section.flags else "ocr_off"
    if (section.ocr.note or "").startswith("failed"):
        return "ocr_failed"
    return UNREAD_SCRIPT if section.ocr.unread else "no_text_found"
