"""Pages nothing could read: reported, never stored as memories.

A page with no text layer that OCR did not read (OCR off or failed, no text found, only
lines in a script the OCR models do not read), or whose text layer does not decode to text,
has no memory to give. Its parser leaves an item flagged ``needs_ocr`` that holds only the
text the page has (a caption, a stamp: kept as any text is), none when it has none, with
``extra.not_read`` saying why; fine mode's vision model reads the page from that item.

After fine mode has had its turn, an item with no text is taken out here, and the pages of
one input are reported together as a failure record, code ``needs_ocr``, naming the input,
its pages and what to do:

    scan.pdf: pages 1, 2 have no text layer and OCR was off: read it with OCR on
    (--ocr auto; ReadOptions(ocr="auto")), or in fine mode, where a vision model reads them

An input that gave nothing else fails with it (``Reader.read`` raises
:class:`~omnireader.errors.NeedsOcrError`); otherwise it is a part that was not read, and
the rest is kept. Either way the CLI exits 1 and the ingest report counts the pages
(``pages_unreadable``).
"""

from __future__ import annotations

from collections import defaultdict

from omnireader.formats.ocr.scripts import READS
from omnireader.models import MemoryItem, ReadFailure

__all__ = ["CODE", "take_unread_pages", "without_text"]

CODE = "needs_ocr"
_OCR_ON = 'read it with OCR on (--ocr auto; ReadOptions(ocr="auto"))'
_VISION = "in fine mode, where a vision model reads them"
# Why a page was not read (the parser's extra.not_read) → what it has, what to do.
_WHY: dict[str, tuple[str, str]] = {
    "ocr_off": ("no text layer and OCR was off", f"{_OCR_ON}, or {_VISION}"),
    "garbled_text": (
        "a text layer that does not decode to text (a font without a Unicode map) and OCR was off",
        f"{_OCR_ON}, or {_VISION}",
    ),
    "ocr_failed": ("no text layer and OCR failed on them", f"read it again, or {_VISION}"),
    "no_text_found": (
        "no text layer and OCR found no text on them",
        "a vision model may describe them (fine mode)",
    ),
    "ocr_unread_script": (
        f"only lines of text in a script the OCR models do not read (they read {READS})",
        "a vision model may read them (fine mode)",
    ),
    "vision_failed": (
        "text neither OCR nor the vision model could read (it failed on them)",
        f"read it again in fine mode, or {_OCR_ON}",
    ),
}


def without_text(item: MemoryItem) -> bool:
    """Whether ``item`` stands for a page nothing read and holds no text of it."""
    return "not_read" in item.metadata.extra and not item.memory.strip()


def take_unread_pages(items: list[MemoryItem], label: str) -> list[ReadFailure]:
    """Report the pages of ``items`` nothing read, one failure record per reason, and remove
    (in place) their items that hold no text. An item with text (a scan's caption, a
    picture's own facts) stays, and its page is reported too: its text was not read."""
    pages: defaultdict[tuple[str, bool], list[int]] = defaultdict(list)
    kept: list[MemoryItem] = []
    for item in items:
        if "not_read" not in item.metadata.extra or item.metadata.mode == "fine":
            kept.append(item)  # a fine item is the vision model's reading of the page
            continue
        has_text = bool(item.memory.strip())
        if has_text:
            kept.append(item)
        why = str(item.metadata.extra["not_read"])
        if item.metadata.refine_status == "failed":  # fine mode: the vision model failed
            why = "vision_failed"
        page = item.source.page if item.source else None
        pages[why, has_text].append(page if page is not None else 0)
    items[:] = kept
    return [
        _failure(label, why, sorted(set(found)), has_text)
        for (why, has_text), found in pages.items()
    ]


def _failure(label: str, why: str, pages: list[int], has_text: bool) -> ReadFailure:
    has, todo = _WHY.get(
        why, ("no text layer that OCR or a vision model could read", f"{_OCR_ON}, or read it again")
    )
    if has_text:  # a caption or a stamp in a text layer: kept as the page's item
        has = has.replace("no text layer", "no text layer but a caption or stamp (kept)", 1)
    numbered = [p for p in pages if p]
    if not numbered:
        where = "it has"  # a document without pages (a DOCX part of pictures only)
    elif len(numbered) == 1:
        where = f"page {numbered[0]} has"
    else:
        where = f"pages {', '.join(map(str, numbered))} have"
    if len(numbered) == 1 or not numbered:
        has, todo = has.replace(" on them", " on it"), todo.replace(" them", " it")
    return ReadFailure(
        input=label, error=CODE, message=f"{label}: {where} {has}: {todo}", pages=numbered
    )
