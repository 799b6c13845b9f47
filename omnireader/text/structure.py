"""Chunks that follow a document's structure: sections under Markdown headings, and tables.

:func:`chunk_text` cuts wherever the tokens fall: a chunk of a cash-flow table carries
neither the table's title nor its section, and a wide table row is cut mid-number. Here,
when the text has structure (``#`` headings or Markdown pipe tables, as DOCX, HTML, Markdown,
CSV and XLSX give, and PDF pages once laid out):

- a chunk stays within its section (a heading and what follows, up to the next heading of
  the same or a higher level), and small neighbouring sections merge up to ``chunk_size``;
- each chunk carries its heading path (outermost first, the section's own path in front),
  capped at :data:`MAX_DEPTH` titles of :data:`MAX_TITLE` characters; a chunk of small
  sections merged sits under the path they share and carries their own titles apart
  (``titles``: "Balance Sheets" and "Liabilities" merged sit under "Part II", about both);
- a table is split only between rows, each later piece repeating the table's caption (the
  line above it) and its header row; a row is never cut, even one longer than a chunk; a
  table is never dropped, however large.

Text with neither headings nor tables is chunked by :func:`chunk_text` exactly as before
(the same chunks, so the same item ids). The pieces of a split table are the one exception
to ``text == source[char_start:char_end]``: their span is the rows they hold, their text
has the caption and header in front (and a scrap of text after the last, when it takes one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from omnireader.text.chunking import Chunk, chunk_text
from omnireader.text.md_blocks import MAX_TITLE, Block, blocks, has_structure, lines
from omnireader.text.section_groups import Piece, merged, part_lead_in
from omnireader.text.table_heads import block_starts, is_header_row
from omnireader.text.tokens import count_tokens

__all__ = [
    "StructChunk",
    "structured_chunks",
    "has_structure",
    "cap_path",
    "MAX_DEPTH",
    "MAX_TITLE",
    "MAX_TITLES",
]

MAX_DEPTH = 6  # titles in a heading path (Section.heading_path allows as many)
MAX_TITLES = 8  # a merged chunk's own titles kept (the heading field holds ~1,000 characters)


class StructChunk(NamedTuple):
    """A :class:`Chunk` with where it sits: its heading path, for tables which table (its
    0-based number in the text) and which piece of it, and for a chunk of merged sections
    their titles below the path they share (at most :data:`MAX_TITLES`)."""

    chunk: Chunk
    heading_path: list[str]
    table: int | None = None
    table_part: int = 0
    table_parts: int = 0
    titles: tuple[str, ...] = ()


def cap_path(path: Sequence[str]) -> list[str]:
    """``path`` capped: at most :data:`MAX_DEPTH` titles (the innermost kept, the outermost
    first), each at most :data:`MAX_TITLE` characters, blank ones left out."""
    titles = [" ".join(t.split()) for t in path]
    titles = [t if len(t) <= MAX_TITLE else t[: MAX_TITLE - 1] + "…" for t in titles if t]
    return titles[-MAX_DEPTH:]


def _table_pieces(text: str, block: Block, number: int, size: int) -> list[Piece]:
    """A table as one piece if it fits, else pieces of whole rows, each after the first
    starting with the caption and the header of its rows (:mod:`.table_heads`: none when
    the first row is data, a block's own header in a sheet of stacked blocks)."""
    whole = text[block.start : block.end]
    n = count_tokens(whole)
    if n <= size:
        return [Piece(block.start, block.end, whole, n, number, 0, 1)]
    caption = block.caption + "\n" if block.caption else ""
    header = text[block.start : block.header_end]
    head_line, _, rule = header.partition("\n")
    rule = rule.rstrip("\n") + "\n" if rule else ""
    rows = [
        (a + block.header_end, b + block.header_end)
        for a, b in lines(text[block.header_end : block.end])
    ]
    starts = set(block_starts([text[a:b] for a, b in rows], head_line)) if header else set()
    leads = {-1: caption + header if header and is_header_row(head_line) else caption}
    for i in starts:
        a, b = rows[i]
        leads[i] = caption + text[a:b].rstrip("\n") + "\n" + rule
    lead_tokens = {i: count_tokens(lead) if lead else 0 for i, lead in leads.items()}
    lead_n = max(lead_tokens.values())
    # Every piece's room leaves space for a caption and a header, so the first one (the
    # header as written) can join the caption's text above it (a few tokens spare: the
    # newlines and blank lines between them count too).
    room = size - lead_n - 4
    groups: list[list[int]] = []  # [start, end, tokens, first row] of the rows of a piece
    for i, (a, b) in enumerate(rows):
        k = count_tokens(text[a:b])
        if groups and groups[-1][2] + k <= room and i not in starts:
            groups[-1][1:3] = [b, groups[-1][2] + k]
        else:  # a row longer than any room makes a piece of its own, whole; a block's
            groups.append([a, b, k, i])  # header starts a piece
    pieces = []
    head = -1  # the block the rows are in (-1: the table's own header)
    for p, (a, b, k, first) in enumerate(groups):
        head = max([head, *(i for i in starts if i <= first)])
        if p == 0:  # the table's own start: header, then its first rows, as written
            piece_text = text[block.start : b]
            pieces.append(Piece(block.start, b, piece_text, count_tokens(piece_text), number))
        elif head == first:  # a block's header opens the piece: its rule goes under it
            row_end = rows[first][1]
            piece_text = leads[head] + text[row_end:b]
            pieces.append(Piece(a, b, piece_text, count_tokens(piece_text), number))
        else:
            piece_text = leads[head] + text[a:b]
            pieces.append(Piece(a, b, piece_text, lead_tokens[head] + k, number))
    return [q._replace(part=i, parts=len(pieces)) for i, q in enumerate(pieces)]


def _text_pieces(text: str, start: int, end: int, size: int) -> list[Piece]:
    span = text[start:end]
    if not span.strip():
        return [Piece(start, end, span, 0)]
    return [
        Piece(start + c.char_start, start + c.char_end, c.text, c.tokens)
        for c in chunk_text(span, size)
    ]


def structured_chunks(
    text: str,
    chunk_size: int = 512,
    heading_path: Sequence[str] = (),
    levels: Sequence[int] = (),
) -> list[StructChunk]:
    """``text``'s chunks, each within its section, with its heading path (``heading_path``:
    the path of the section the text is in, outermost first). Without headings or tables,
    :func:`chunk_text`'s chunks with ``heading_path``.

    ``levels``, the heading level of each title of ``heading_path``: a heading in the text
    then replaces the titles of its level and below (a page's "4. Fair Value" after the
    "3. Goodwill" it carried on from); without them, the text's headings go below the path."""
    base = cap_path(heading_path)
    if not text.strip():
        return []
    if not has_structure(text):
        return [StructChunk(c, list(base)) for c in chunk_text(text, chunk_size)]
    # Sections: (path, pieces, headed); a heading opens one, its line the first text of it.
    sections: list[tuple[list[str], list[Piece], bool]] = [(list(base), [], False)]
    known = len(levels) == len(heading_path)
    outer = [] if known else base
    stack: list[tuple[int, str]] = list(zip(levels, heading_path)) if known else []
    tables = 0
    for block in blocks(text):
        if block.kind == "heading":
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.title))
            path = cap_path([*outer, *(t for _, t in stack)])
            line = text[block.start : block.end]
            sections.append((path, [Piece(block.start, block.end, line, count_tokens(line))], True))
        elif block.kind == "table":
            part_lead_in(sections[-1][1], chunk_size)
            sections[-1][1].extend(_table_pieces(text, block, tables, chunk_size))
            tables += 1
        else:
            sections[-1][1].extend(_text_pieces(text, block.start, block.end, chunk_size))
    raw = merged(sections, chunk_size)
    out: list[StructChunk] = []
    for i, (path, group, titles) in enumerate(raw):
        a, b = group[0].start, group[-1].end
        if len(group) == 1:
            body = group[0].text
        elif group[0].part:  # a later piece of a table (its own text) and a scrap after it
            body = group[0].text + text[group[0].end : b]
        else:
            body = text[a:b]
        tokens = group[0].tokens if len(group) == 1 else count_tokens(body)
        tabled = [p for p in group if p.table is not None]
        # Tagged with its table when it holds a piece of one table only (text around allowed)
        head = tabled[0] if tabled and len({p.table for p in tabled}) == 1 else None
        out.append(
            StructChunk(
                Chunk(body, i, len(raw), a, b, tokens),
                path,
                head.table if head else None,
                head.part if head else 0,
                head.parts if head else 0,
                tuple(titles[:MAX_TITLES]),
            )
        )
    return out
