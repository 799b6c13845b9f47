"""How many pages OCR read, and how many were left unreadable, among memory items.

Shared by the batch report (items as they are read) and the store's ``stats`` (items as
stored), so both count the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from omnireader.models import MemoryItem

__all__ = ["page_counts", "UNREADABLE_KEYS"]

#: ``extra`` keys listing pages that could not be decoded (PDF pages, image frames).
UNREADABLE_KEYS = ("unreadable_pages", "ocr_unreadable_pages")


def page_counts(items: Iterable[MemoryItem]) -> tuple[int, int]:
    """(pages OCR read text from, pages left unreadable) among ``items``.

    A page counts once however many chunks it gave. Unreadable: pages with no text layer
    that OCR did not read (off, failed, or no text found), pages or frames that could not
    be decoded.
    """
    read: set[tuple[object, ...]] = set()
    unreadable: set[tuple[object, ...]] = set()
    for item in items:
        src = item.source
        where = (src.path or src.url or src.content_hash, src.member) if src else (item.id, None)
        flags = item.metadata.flags
        if "ocr" in flags:
            read.add((*where, src.page if src else None, item.metadata.extra.get("ocr_image")))
        elif "needs_ocr" in flags:
            unreadable.add((*where, src.page if src else None))
        extra = item.metadata.extra
        for key in UNREADABLE_KEYS:
            for page in extra.get(key) or []:
                unreadable.add((*where, page))
    return len(read), len(unreadable)
