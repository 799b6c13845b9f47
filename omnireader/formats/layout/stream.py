"""The layout stage across a document's pages: what one page cannot know alone.

The body size (for headings) and the vocabulary (for hyphens) grow page by page; the
heading trail carries across pages; running headers and footers are found over a window
of pages, so each page's section leaves here ``WINDOW`` pages late. Headers and footers
come out once per distinct text (digits masked), as ``part="header"/"footer"`` sections
like a DOCX's, not once per page; a page number becomes the section's ``page_label``.
A page is done one page later still: the next page's first lines may carry on the
paragraph it ended in mid-sentence, and then join it there (:mod:`.page_breaks`); and it is
given back ``HOLD`` pages after that, its line-end hyphens decided again (:mod:`.late_hyphens`).

A scanned page (a whole page OCR read, not a picture on a text page) goes through the same
window: its OCR blocks' boxes (page fractions) stand in for a layout's, so a page number or
a line repeated at the top or bottom of consecutive scans leaves its body the same way; and
it is held the same way, its paragraph cut by the break made whole (:mod:`.scan_pages`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from omnireader.formats.document import LAYOUT_FAILED, Section
from omnireader.formats.layout.contents import contents_entries
from omnireader.formats.layout.furniture import WINDOW, FurnitureWindow, margin_keys
from omnireader.formats.layout.headings import HeadingRules, Outline, Trail
from omnireader.formats.layout.late_hyphens import HOLD, decide_again
from omnireader.formats.layout.markdown import block_markdown
from omnireader.formats.layout.model import Block, PageLayout, Table
from omnireader.formats.layout.page import LayoutFailed, layout_page
from omnireader.formats.layout.page_body import MAX_BLOCKS, PageBody
from omnireader.formats.layout.page_breaks import (
    carries_listing,
    carries_on,
    join_column_breaks,
)
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.layout.scan_pages import HeldScan, Scanned, carry_scan, scanned_layout
from omnireader.text.visible_chars import visible_chars

if TYPE_CHECKING:
    import pypdfium2

    from omnireader.formats.ocr import OcrBlock

__all__ = ["LAYOUT_FAILED", "MAX_BLOCKS", "LayoutStream", "read_outline"]

_MAX_FURNITURE = 500
# The share of the plain text's visible characters a layout must hold.
_KEPT = 0.95
_MAX_OUTLINE = 5000
# Scans of one document lie a few millimetres apart on the glass: a running header is
# matched up to this many height steps (~1.5% of the page each) up or down. Measured on
# drawn 4-inch pages at 150 dpi: a header shifted 4 px (under a millimetre) on the next
# page was already a step away and stayed in every page's body without it.
_SCAN_SLACK = 2

_Furniture = tuple[list[Block], list[Block]]

log = logging.getLogger(__name__)


def read_outline(doc: pypdfium2.PdfDocument) -> Outline:
    """The document's bookmarks as an :class:`Outline` (empty when it has none)."""
    items: list[tuple[str, int, int | None]] = []
    try:
        for mark in doc.get_toc(max_depth=8):
            dest = mark.get_dest()
            page = dest.get_index() if dest is not None else None
            items.append((mark.get_title() or "", mark.level + 1, page))
            if len(items) >= _MAX_OUTLINE:
                break
    except Exception:
        log.debug("outline unreadable", exc_info=True)
    return Outline.from_toc(items)


class LayoutStream:
    """Lays out pages (:meth:`layout`) and turns their sections into final ones (:meth:`feed`,
    then :meth:`flush` at the end)."""

    def __init__(self, outline: Outline | None = None, pages: int = 0) -> None:
        self.headings = HeadingRules(outline, single_page=pages == 1)
        self.vocabulary = Vocabulary()
        self._trail = Trail()
        self._window = FurnitureWindow()
        # Each page waiting for the window, with its scanned layout when it is a scan.
        self._pending: deque[tuple[Section, Scanned | None]] = deque()
        self._seen_furniture: set[tuple[str, str]] = set()
        self._last_table: Table | None = None  # the last block of the page before, if a table
        self._last_page: int | None = None
        self._held: PageBody | HeldScan | None = None  # the last page, not yet given back
        self._held_furniture: tuple[list[Block], list[Block]] = ([], [])
        # Pages done, waiting HOLD pages to be given back (their hyphens decided again then),
        # with their running header and footer; or a section given back as it is, in turn.
        self._done: deque[tuple[PageBody | HeldScan | Section, _Furniture]] = deque()

    def layout(
        self,
        page: pypdfium2.PdfPage,
        textpage: pypdfium2.PdfTextPage,
        index: int,
        plain: str | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> PageLayout | None:
        """The page's layout, or None when it failed (the caller keeps the plain text).

        With ``plain`` (the page's plain text), a layout holding visibly fewer characters
        than it — words a table finder or a zero-size box dropped — counts as failed:
        nothing is lost by laying a page out.
        """
        try:
            laid = layout_page(page, textpage, index, self.headings, self.vocabulary, hidden=hidden)
            if plain is not None:
                _check_kept(laid, plain)
            return laid
        except LayoutFailed as exc:
            log.info("page %d: %s", index + 1, exc)
        except Exception:
            log.warning("page %d: layout failed", index + 1, exc_info=True)
        return None

    def feed(self, section: Section) -> Iterator[Section]:
        """Take a page's section (with ``section.layout`` or without); give back those
        that are done."""
        layout = section.layout if isinstance(section.layout, PageLayout) else None
        scanned = scanned_layout(section) if layout is None else None
        if scanned is not None:
            layout = scanned[0]
        self._window.add(margin_keys(layout) if layout is not None else set())
        self._pending.append((section, scanned))
        while len(self._pending) > WINDOW:
            yield from self._finish(*self._pending.popleft())

    def flush(self) -> Iterator[Section]:
        while self._pending:
            yield from self._finish(*self._pending.popleft())
        yield from self._release(0)

    def _finish(self, section: Section, scanned: Scanned | None) -> Iterator[Section]:
        layout = section.layout if isinstance(section.layout, PageLayout) else None
        position = len(self._window._keys) - len(self._pending) - 1
        if layout is None:
            yield from self._finish_ocr(section, scanned, position)
            return
        body, header, footer, label = self._window.split(layout, position)
        # Its line-end hyphens again, knowing the pages read since (up to WINDOW after it;
        # every page, for the last ones), and once more when it leaves (late_hyphens.py).
        for block in body:
            if block.hyphens:
                block.text, block.hyphens = decide_again(block.text, block.hyphens, self.vocabulary)
        # (the body without its running header: "Table of Contents" on every page)
        body, contents = contents_entries(body)
        body = join_column_breaks(body, self.vocabulary)  # (its running header gone first)
        self._carry_paragraph(body, section.page, layout)
        yield from self._release()
        continued = self._carry_table(body, section.page)
        path: tuple[list[str], list[int]] | None = None
        pieces: list[tuple[Block, str]] = []
        for block in body:
            if block.kind == "heading":
                if block is not contents:  # the contents' title heads no page after it
                    self._trail.push(block.level, block.text)
            elif path is None:
                path = self._trail.here
            piece = block_markdown(block)
            if block is continued:
                piece = f"*(table continued from page {self._last_page})*\n\n{piece}"
            pieces.append((block, piece))
        # Held until the next page's body is known: its first lines may end this page's
        # last paragraph (page_breaks.py).
        self._held = PageBody(
            section, layout, pieces, self._trail.here if path is None else path, label
        )
        self._held_furniture = (header, footer)
        last = body[-1] if body else None
        self._last_table = last.table if last is not None and last.kind == "table" else None
        self._last_page = section.page

    def _carry_paragraph(self, body: list[Block], page: int | None, layout: PageLayout) -> None:
        """Move the page's first block onto the held page when it carries on the paragraph
        (or code listing) that page ended in, mid-sentence (:mod:`.page_breaks`)."""
        held = self._held
        if not isinstance(held, PageBody) or not body or page is None:
            return
        if held.section.page != page - 1:
            return
        # Again while the part carried ends mid-sentence too and the next block goes on
        # with it (a paragraph the page's layout cut once more); a code listing goes on
        # with the code at the top of the next page.
        while body and (last := held.last) is not None:
            if carries_on(last, body[0]):
                held.carry(body.pop(0), page, layout, self.vocabulary)
            elif carries_listing(last, body[0], held.above(page)):
                held.carry_listing(body.pop(0), page, layout)
            else:
                break

    def _release(self, hold: int = HOLD) -> Iterator[Section]:
        """The held page on to the pages done; those more than ``hold`` pages back given
        back: each page's section, then its running header and footer."""
        held, self._held = self._held, None
        if held is not None:
            self._done.append((held, self._held_furniture))
        while len(self._done) > hold:
            page, furniture = self._done.popleft()
            if isinstance(page, Section):
                yield page
                continue
            yield page.finished(self.vocabulary)
            for part, blocks in zip(("header", "footer"), furniture):
                yield from self._furniture(part, blocks, page.section.page)

    def _finish_ocr(
        self, section: Section, scanned: Scanned | None, position: int
    ) -> Iterator[Section]:
        """An OCR'd section: a scanned page loses its running header, footer and page
        number (which becomes its ``page_label``) like a text page; then its headings join
        the trail."""
        if scanned is None or section.ocr is None:
            yield from self._release()
            titles, levels = self._ocr_headings(section.ocr.blocks if section.ocr else [])
            update = {"heading_path": titles, "heading_levels": levels, "layout": None}
            self._done.append((section.model_copy(update=update), ([], [])))  # in its turn
            return
        layout, sources = scanned
        body, header, footer, label = self._window.split(layout, position, _SCAN_SLACK)
        update: dict[str, object] = {"page_label": label, "layout": None}
        ocr = section.ocr
        if header or footer:
            ocr = ocr.model_copy(update={"blocks": [sources[id(b)] for b in body]})
        # Its first lines may end the paragraph the scan before ended in (scan_pages.py).
        held, page = self._held, section.page
        if isinstance(held, HeldScan) and page is not None and held.section.page == page - 1:
            ocr = carry_scan(held, ocr, page, self.vocabulary)
        if ocr is not section.ocr:
            update.update(text=ocr.text, ocr=ocr)
        yield from self._release()
        update["heading_path"], update["heading_levels"] = self._ocr_headings(ocr.blocks)
        self._held = HeldScan(section.model_copy(update=update))
        self._held_furniture = (header, footer)

    def _ocr_headings(self, blocks: list[OcrBlock]) -> tuple[list[str], list[int]]:
        """The heading path (and its levels) where an OCR'd page's body starts; its headings
        (laid out by ``ocr/to_layout.py``) join the trail, so the pages after them carry
        them too."""
        path = None
        for block in blocks:
            if block.kind == "heading" and block.lines:
                self._trail.push(block.level, block.lines[0].text.lstrip("#").strip())
            elif path is None:
                path = self._trail.here
        return self._trail.here if path is None else path

    def _carry_table(self, body: list[Block], page: int | None) -> Block | None:
        """The page's first block, when it is a table carrying on the previous page's last
        one; its header rows are repeated when the page does not print them again, so the
        part read alone still says what its columns are."""
        prev, first = self._last_table, body[0] if body else None
        if prev is None or first is None or first.kind != "table" or first.table is None:
            return None
        try:
            from omnireader.formats.layout.tables import continues
        except ImportError:
            return None
        if page is None or self._last_page != page - 1 or not continues(prev, first.table):
            return None
        head = prev.rows[: max(1, prev.header_rows)]
        table = first.table
        if table.rows[: len(head)] != head:
            first.table = replace(
                table, rows=[list(r) for r in head] + table.rows, header_rows=len(head)
            )
        return first

    def _furniture(self, part: str, blocks: list[Block], page: int | None) -> Iterator[Section]:
        text = "\n".join(b.text for b in blocks if b.kind != "page_number").strip()
        if not text:
            return
        from omnireader.formats.layout.furniture import _DIGITS  # the same masking as the keys

        key = (part, _DIGITS.sub("#", " ".join(text.lower().split())))
        if key in self._seen_furniture:
            return
        if len(self._seen_furniture) < _MAX_FURNITURE:
            self._seen_furniture.add(key)
        yield Section(text=text, page=page, part=part, heading=part.capitalize())


def _check_kept(layout: PageLayout, plain: str) -> None:
    want = visible_chars(plain)
    # All the blocks' and cells' texts counted at once (the spaces joining them count nil).
    texts: list[str] = []
    for block in layout.blocks:
        texts.append(block.text)
        if block.table is not None:
            texts.extend(cell for row in block.table.rows for cell in row)
    got = visible_chars(" ".join(texts))
    if got < _KEPT * want:
        raise LayoutFailed(f"the layout holds {got} of the page's {want} characters")
