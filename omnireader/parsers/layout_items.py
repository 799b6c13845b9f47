"""A PDF page's layout blocks on the items made of it: each chunk keeps the blocks its text
spans (kind, box as page fractions with a top-left origin, heading level), like
``ocr_blocks`` on OCR items, so ``refine`` and search can use them. A block that stands on
a later page (the rest of a paragraph a page break cut) names that page, and the item's
source says it runs onto it (``page_end``)."""

from __future__ import annotations

from typing import Any

from omnireader.models import MemoryItem

__all__ = ["layout_blocks"]


def layout_blocks(items: list[MemoryItem], blocks: list[dict[str, Any]]) -> None:
    """Set ``metadata.extra["layout_blocks"]`` on each of a page's chunk items, and
    ``page_end`` on the source of those that run onto the next page."""
    for item in items:
        source = item.source
        start = source.char_start if source is not None and source.char_start is not None else 0
        end = source.char_end if source is not None and source.char_end is not None else 1 << 62
        # A block belongs to every chunk its span overlaps (chunks may overlap).
        own = [b for b in blocks if b.get("start", 0) < end and b.get("end", 0) > start]
        item.metadata.extra["layout_blocks"] = [
            {k: v for k, v in block.items() if k not in ("start", "end")} for block in own
        ]
        pages = [b["page"] for b in own if isinstance(b.get("page"), int)]
        if source is not None and pages:
            source.page_end = max(pages)
