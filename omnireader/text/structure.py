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
has the caption and header in front.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from omnireader.text.chunking import Chunk, chunk_text
from omnireader.text.md_blocks import MAX_TITLE, Block, blocks, has_structure, lines
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


class _Piece(NamedTuple):
    """Text to place in a chunk: its span, its text (the span's, or a table piece's own),
    its tokens, and whether it may merge with its neighbours."""

    start: int
    end: int
    text: str
    tokens: int
    table: int | None = None
    part: int = 0
    parts: int = 0


def _table_pieces(text: str, block: Block, number: int, size: int) -> list[_Piece]:
    """A table as one piece if it fits, else pieces of whole rows, each after the first
    starting with the caption and the header of its rows (:mod:`.table_heads`: none when
    the first row is data, a block's own header in a sheet of stacked blocks)."""
    whole = text[block.start : block.end]
    n = count_tokens(whole)
    if n <= size:
        return [_Piece(block.start, block.end, whole, n, number, 0, 1)]
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
            pieces.append(_Piece(block.start, b, piece_text, count_tokens(piece_text), number))
        elif head == first:  # a block's header opens the piece: its rule goes under it
            row_end = rows[first][1]
            piece_text = leads[head] + text[row_end:b]
            pieces.append(_Piece(a, b, piece_text, count_tokens(piece_text), number))
        else:
            piece_text = leads[head] + text[a:b]
            pieces.append(_Piece(a, b, piece_text, lead_tokens[head] + k, number))
    return [q._replace(part=i, parts=len(pieces)) for i, q in enumerate(pieces)]


def _text_pieces(text: str, start: int, end: int, size: int) -> list[_Piece]:
    span = text[start:end]
    if not span.strip():
        return [_Piece(start, end, span, 0)]
    return [
        _Piece(start + c.char_start, start + c.char_end, c.text, c.tokens)
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
    sections: list[tuple[list[str], list[_Piece], bool]] = [(list(base), [], False)]
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
            sections.append(
                (path, [_Piece(block.start, block.end, line, count_tokens(line))], True)
            )
        elif block.kind == "table":
            _part_lead_in(sections[-1][1], chunk_size)
            sections[-1][1].extend(_table_pieces(text, block, tables, chunk_size))
            tables += 1
        else:
            sections[-1][1].extend(_text_pieces(text, block.start, block.end, chunk_size))
    raw = _merged(sections, chunk_size)
    out: list[StructChunk] = []
    for i, (path, group, titles) in enumerate(raw):
        a, b = group[0].start, group[-1].end
        body = group[0].text if len(group) == 1 else text[a:b]
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


_Raw = tuple[list[str], list[_Piece], list[str]]  # a chunk to be: (path, pieces, titles)


def _merged(sections: list[tuple[list[str], list[_Piece], bool]], size: int) -> list[_Raw]:
    """The sections' pieces grouped into chunks.

    A heading never ends a chunk: it goes with the text it heads, even when that makes the
    chunk a heading longer than ``size``, and a section that is only its heading ("Part
    II" right above "Item 7") goes forward into the next section's first chunk. Small
    neighbouring sections merge: a section that is one chunk joins the chunk before when
    that is a whole section too and both fit."""
    raw: list[_Raw] = []
    whole_section = False  # raw[-1] is a whole section (so another may merge into it)
    waiting: tuple[list[str], list[_Piece]] | None = None  # sections that are only a heading
    for path, pieces, headed in sections:
        pieces = [p for p in pieces if p.text.strip()]
        if not pieces:
            continue
        if headed and len(pieces) == 1:
            if waiting:
                waiting = (
                    path if _under(waiting[0], path) else _common(waiting[0], path),
                    waiting[1] + pieces,
                )
            else:
                waiting = (path, pieces)
            continue
        own = _groups(pieces, size, headed)
        titles: list[str] = []
        if waiting:
            heads, waiting = waiting, None
            own[0] = heads[1] + own[0]
            if not _under(heads[0], path):  # siblings: under what they share, about both
                shared = _common(heads[0], path)
                titles = list(dict.fromkeys([*heads[0][len(shared) :], *path[len(shared) :]]))
                path = shared
        if (
            len(own) == 1
            and whole_section
            and not _is_continuation(own[0][0])
            and sum(q.tokens for q in raw[-1][1]) + sum(q.tokens for q in own[0]) <= size
        ):
            before, merged, had = raw[-1]
            shared = _common(before, path)
            # The path they share says where the chunk sits; each section's own titles
            # below it say what the chunk is about (searched with the headings).
            below = [*before[len(shared) :], *had, *path[len(shared) :], *titles]
            raw[-1] = (shared, merged + own[0], list(dict.fromkeys(below)))
            continue
        raw.append((path, own[0], titles))
        raw.extend((path, group, []) for group in own[1:])
        whole_section = len(own) == 1
    if waiting:  # headings at the text's end (a page's last lines: their text is overleaf)
        if raw and not _is_continuation(raw[-1][1][-1]):
            before, merged, had = raw[-1]
            raw[-1] = (before, merged + waiting[1], had)
        else:
            raw.append((waiting[0], waiting[1], []))
    return raw


def _groups(pieces: list[_Piece], size: int, headed: bool) -> list[list[_Piece]]:
    """A section's pieces in chunks of at most ``size`` tokens (a split table's later
    pieces alone). Its heading (``headed``: the first piece) stays with what follows, and
    so does a short lead-in ("… as follows:") that would end a chunk: it opens the next,
    which may then hold an eighth more."""
    own: list[list[_Piece]] = []
    for p in pieces:
        heading_alone = headed and len(own) == 1 and len(own[0]) == 1
        if (
            own
            and not _is_continuation(p)
            and not _is_continuation(own[-1][-1])
            and (heading_alone or sum(q.tokens for q in own[-1]) + p.tokens <= size)
        ):
            own[-1].append(p)
        elif own and not _is_continuation(p) and _leads_in(own[-1][-1], size):
            lead = [own[-1].pop()]
            if headed and len(own) == 1 and len(own[0]) == 1:
                lead = [*own[0], *lead]  # the heading goes with its lead-in
                own[0] = []
            if not own[-1]:
                own.pop()
            own.append([*lead, p])
        else:
            own.append([p])
    return own


def _part_lead_in(pieces: list[_Piece], size: int) -> None:
    """The last paragraph of the text above a table, when it announces the table ("… as
    follows:"), made a piece of its own, so it can go with the table (:func:`_groups`)."""
    if not pieces or pieces[-1].table is not None:
        return
    last = pieces[-1]
    body = last.text.rstrip()
    cut = body.rfind("\n\n") + 2
    if not body.endswith(":") or cut < 2:
        return
    lead = last.text[cut:]
    tokens = count_tokens(lead)
    if tokens < size // 8:
        pieces[-1:] = [
            _Piece(last.start, last.start + cut, last.text[:cut], last.tokens - tokens),
            _Piece(last.start + cut, last.end, lead, tokens),
        ]


def _leads_in(piece: _Piece, size: int) -> bool:
    """A short paragraph announcing what follows it: it ends with a colon."""
    return piece.table is None and piece.tokens < size // 8 and piece.text.rstrip().endswith(":")


def _under(outer: Sequence[str], path: Sequence[str]) -> bool:
    """``path`` lies under (or is) ``outer``."""
    return list(path[: len(outer)]) == list(outer)


def _is_continuation(piece: _Piece) -> bool:
    """A later piece of a split table: it holds its own text (caption, header, rows), so it
    is never merged with others."""
    return piece.table is not None and piece.part > 0


def _common(a: Sequence[str], b: Sequence[str]) -> list[str]:
    """The heading path two merged sections share (outermost titles in common)."""
    out = []
    for x, y in zip(a, b):
        if x != y:
            break
        out.append(x)
    return out
