"""A laid-out page's body on its way out of the layout stream: its blocks as Markdown, and
the final section made of them.

The stream holds each page's body until the next page's is known, so a paragraph the page
break cut (:mod:`.page_breaks`) can be made whole on the page where it began: the next
page's first block joins the last one here (:meth:`PageBody.carry`), and the block list
describing the page names the page that part stands on (``"page"``), which is how an item
learns it runs onto the next page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from omnireader.formats.document import Section
from omnireader.formats.layout.late_hyphens import decide_again
from omnireader.formats.layout.markdown import block_markdown, join_markdown
from omnireader.formats.layout.model import Block, PageLayout
from omnireader.formats.layout.page_breaks import joined_text, listing_gap, listing_text
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.link_text import with_links

__all__ = ["MAX_BLOCKS", "PageBody"]

#: Blocks described in an item's metadata, at most (a page of 2,000 labels stays small).
MAX_BLOCKS = 200


@dataclass(slots=True)
class PageBody:
    """A page's body blocks with their Markdown, and what its section will say of it."""

    section: Section
    layout: PageLayout
    pieces: list[tuple[Block, str]]
    path: tuple[list[str], list[int]]
    label: str | None
    # The next page's part of the last paragraph: (its block as laid out there, its page,
    # that page's layout, where it starts in the last piece's Markdown).
    carried: list[tuple[Block, int, PageLayout, int]] = field(default_factory=list)

    @property
    def last(self) -> Block | None:
        return self.pieces[-1][0] if self.pieces else None

    def carry(self, first: Block, page: int, layout: PageLayout, vocabulary: Vocabulary) -> None:
        """Join ``first`` (the top of ``page``, laid out as ``layout``) to the last block."""
        last, _ = self.pieces[-1]
        text, cut = joined_text(last.text, first.text, vocabulary)
        whole = replace(last, text=text)
        markdown = block_markdown(whole)
        self.pieces[-1] = (whole, markdown)
        self.carried.append((first, page, layout, len(markdown) - (len(text) - cut)))

    def above(self, page: int) -> Block | None:
        """The block of ``page`` carried onto this one last (None: none yet)."""
        return self.carried[-1][0] if self.carried and self.carried[-1][1] == page else None

    def carry_listing(self, first: Block, page: int, layout: PageLayout) -> None:
        """Join ``first`` (the top of ``page``) to the code listing the last block is."""
        last, _ = self.pieces[-1]
        code = listing_text(last, first, (_left(self.layout), _left(layout)))
        text = f"{last.text}{listing_gap(self.above(page), first)}{code}"
        whole = replace(last, text=text)
        markdown = block_markdown(whole)
        self.pieces[-1] = (whole, markdown)
        self.carried.append((first, page, layout, markdown.find(text) + len(text) - len(code)))

    def finished(self, vocabulary: Vocabulary | None = None) -> Section:
        """The page's final section: its text, heading path, label and blocks; with
        ``vocabulary``, its line-end hyphens decided once more (:mod:`.late_hyphens`)."""
        if vocabulary is not None:
            self._decide_again(vocabulary)
        section = self.section
        text, spans = join_markdown(self.pieces)
        titles, levels = self.path
        if section.links:
            text = with_links(text, section.links)
        extra = section.text[len(section.layout_source) :] if section.layout_source else ""
        if extra.strip():  # form values appended after the text layer
            text = f"{text}\n\n{extra.strip()}" if text else extra.strip()
        return section.model_copy(
            update={
                "text": text,
                "heading": titles[-1] if titles else None,
                "heading_path": titles,
                "heading_levels": levels,
                "page_label": self.label,
                "blocks": self._describe(spans),
                "layout": None,
                "layout_source": None,
                "links": [],
            }
        )

    def _decide_again(self, vocabulary: Vocabulary) -> None:
        for n, (block, markdown) in enumerate(self.pieces):
            if not block.hyphens:
                continue
            text, hyphens = decide_again(block.text, block.hyphens, vocabulary)
            if text == block.text:
                continue
            whole = replace(block, text=text, hyphens=hyphens)
            again = block_markdown(whole)
            self.pieces[n] = (whole, again)
            if n == len(self.pieces) - 1:  # its hyphens stand before the parts carried onto it
                shift = len(again) - len(markdown)
                self.carried = [(b, p, lay, at + shift) for b, p, lay, at in self.carried]

    def _describe(self, spans: list[tuple[int, int]]) -> list[dict[str, object]]:
        """Block kinds and boxes (page fractions, top-left origin) for item metadata, with
        each block's character span in the page text (so a chunk can keep its own blocks);
        a part carried from the next page last, naming its page."""
        blocks = [b for b, _ in self.pieces]
        out = [
            _entry(block, start, end, self.layout)
            for block, (start, end) in zip(blocks[:MAX_BLOCKS], spans)
        ]
        if self.carried and spans:
            start, end = spans[-1]
            for block, page, layout, at in self.carried:
                entry = _entry(block, start + at, end, layout)
                entry["page"] = page
                out.append(entry)
        return out


def _left(layout: PageLayout) -> float:
    return min((b.x0 for b in layout.blocks), default=0.0)


def _entry(block: Block, start: int, end: int, layout: PageLayout) -> dict[str, object]:
    entry: dict[str, object] = {
        "kind": block.kind,
        "box": list(block.box_fraction(layout.width, layout.height)),
        "start": start,
        "end": end,
    }
    if block.level:
        entry["level"] = block.level
    if block.kind == "table" and block.table is not None:
        entry["rows"] = len(block.table.rows)
    return entry
