"""A DOCX body as Markdown blocks, walked straight from the XML in document order.

python-docx exposes paragraphs and tables but not text boxes (``w:txbxContent``), content
controls (``w:sdt``) or their interleaving, so the body element is walked here instead:

    sections = docx_sections(docx.Document(path))   # list[Section], one per top-level heading

Headings become ``#`` lines (from "Title" / "Heading N" / outline levels), list paragraphs
``-`` items or numbered as Word numbers them (``docx_numbering``: "2.", "- II."), data tables Markdown tables (a layout table, one that holds a table,
lists or headings or is one column wide, is read as the blocks of its cells),
images only their alt text; a footnote or endnote ``[^1]: ...`` / ``[^e1]: ...`` line
follows the block that cites it (:mod:`.note_places`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from omnireader.formats.document import Section
from omnireader.formats.office.docx_inline import MC, Context, W, inline, to_int
from omnireader.formats.office.docx_tables import (
    is_continuation,
    is_layout,
    markdown_table,
    own_cells,
)
from omnireader.formats.office.list_nesting import nest_list_items
from omnireader.formats.office.note_places import place_notes

__all__ = ["docx_sections"]


class _Block(NamedTuple):
    text: str
    heading_level: int = 0  # 0: not a heading
    is_list: bool = False
    depth: int = 0  # a list item's level in the document (w:ilvl); indented in _sections


def _blocks(container: Any, ctx: Context) -> Iterator[_Block]:
    for child in container:
        tag = child.tag
        if tag == W + "p":
            yield from _paragraph(child, ctx)
        elif tag == W + "tbl":
            if is_layout(child, ctx):
                # A table that lays the page out: its cells are read as blocks, in order.
                for cell in own_cells(child):
                    if not is_continuation(cell):  # a merge shows its first cell only
                        yield from _blocks(cell, ctx)
            elif table := markdown_table(child, ctx):
                yield _Block(table)
        elif tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                yield from _blocks(content, ctx)
        elif tag in (W + "customXml", W + "ins", MC + "AlternateContent", MC + "Choice"):
            yield from _blocks(child, ctx)


def _paragraph(p: Any, ctx: Context) -> Iterator[_Block]:
    boxes: list[Any] = []
    text = inline(p, ctx, boxes).strip()
    style_el = p.find(f"{W}pPr/{W}pStyle")
    style_id = (style_el.get(W + "val") or "") if style_el is not None else ""
    level, kind = ctx.styles.get(style_id, (0, None))
    num = p.find(f"{W}pPr/{W}numPr")
    num_id_val, depth = ctx.style_lists.get(style_id, (None, 0))
    if num is not None:
        num_id, ilvl = (num.find(W + k) for k in ("numId", "ilvl"))
        if num_id is not None:
            num_id_val = num_id.get(W + "val")
        if ilvl is not None:
            depth = to_int(ilvl.get(W + "val"), 0)
    if num_id_val == "0":  # numbering explicitly switched off
        kind = None
    elif num_id_val is not None and (num is not None or kind):
        # Counted as Word counts it (an empty numbered paragraph shows its number too).
        kind = ctx.numbering.marker(num_id_val, depth) or "-"
    if text:
        if level:
            yield _Block("#" * level + " " + " ".join(text.split()), heading_level=level)
        elif kind:
            yield _Block(f"{kind} {text}", is_list=True, depth=depth)
        else:
            yield _Block(text)
    for box in boxes:
        yield from _blocks(box, ctx)


def _sections(blocks: list[_Block]) -> list[Section]:
    """One section per top-level heading (plus what comes before the first heading); a
    heading straight after another ("# Part One" then "# Budget") shares its section, so
    no section is a bare heading."""
    top = min((b.heading_level for b in blocks if b.heading_level), default=0)
    groups: list[list[_Block]] = [[]]
    for block in blocks:
        opened = groups[-1] and not all(b.heading_level for b in groups[-1])
        if top and block.heading_level == top and opened:
            groups.append([])
        groups[-1].append(block)
    sections = []
    for group in filter(None, groups):
        group = nest_list_items(group)
        pieces = [group[0].text]
        for prev, block in zip(group, group[1:]):
            # Items of one list stay on consecutive lines; other blocks are paragraphs.
            pieces.append("\n" if prev.is_list and block.is_list else "\n\n")
            pieces.append(block.text)
        text = "".join(pieces)
        first = group[0]
        heading = first.text.lstrip("#").strip() if top and first.heading_level == top else None
        sections.append(Section(text=text, heading=heading))
    return sections


def docx_sections(document: Any) -> list[Section]:
    """A python-docx ``Document``'s body as Markdown sections, one per top-level heading."""
    ctx = Context(document)
    sections = _sections(list(_blocks(document.element.body, ctx)))
    texts = place_notes([s.text for s in sections], ctx.notes)
    if len(texts) > len(sections):  # notes and no body text to put them after
        sections.append(Section(text=""))
    return [s.model_copy(update={"text": t}) for s, t in zip(sections, texts, strict=True)]
