"""How a document's sections become chunks: their pieces (a heading line, paragraphs, a
table's pieces) grouped up to a chunk's budget (:func:`merged`), for
:mod:`omnireader.text.structure`.

A heading never ends a chunk (it goes with the text it heads; a section that is only its
heading opens the next section's first chunk), nor does a short lead-in above a table
("… as follows:"); small neighbouring sections merge under the path they share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from omnireader.text.chunking import SCRAP
from omnireader.text.tokens import count_tokens

__all__ = ["Piece", "merged", "part_lead_in"]


class Piece(NamedTuple):
    """Text to place in a chunk: its span, its text (the span's, or a table piece's own),
    its tokens, and whether it may merge with its neighbours."""

    start: int
    end: int
    text: str
    tokens: int
    table: int | None = None
    part: int = 0
    parts: int = 0


_Raw = tuple[list[str], list[Piece], list[str]]  # a chunk to be: (path, pieces, titles)


def merged(sections: list[tuple[list[str], list[Piece], bool]], size: int) -> list[_Raw]:
    """The sections' pieces grouped into chunks.

    A heading never ends a chunk: it goes with the text it heads, even when that makes the
    chunk a heading longer than ``size``, and a section that is only its heading ("Part
    II" right above "Item 7") goes forward into the next section's first chunk. Small
    neighbouring sections merge: a section that is one chunk joins the chunk before when
    that is a whole section too and both fit."""
    raw: list[_Raw] = []
    whole_section = False  # raw[-1] is a whole section (so another may merge into it)
    waiting: tuple[list[str], list[Piece]] | None = None  # sections that are only a heading
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
            before, group, had = raw[-1]
            shared = _common(before, path)
            # The path they share says where the chunk sits; each section's own titles
            # below it say what the chunk is about (searched with the headings).
            below = [*before[len(shared) :], *had, *path[len(shared) :], *titles]
            raw[-1] = (shared, group + own[0], list(dict.fromkeys(below)))
            continue
        raw.append((path, own[0], titles))
        raw.extend((path, group, []) for group in own[1:])
        whole_section = len(own) == 1
    if waiting:  # headings at the text's end (a page's last lines: their text is overleaf)
        if raw and not _is_continuation(raw[-1][1][-1]):
            before, group, had = raw[-1]
            raw[-1] = (before, group + waiting[1], had)
        else:
            raw.append((waiting[0], waiting[1], []))
    return raw


def _groups(pieces: list[Piece], size: int, headed: bool) -> list[list[Piece]]:
    """A section's pieces in chunks of at most ``size`` tokens (a split table's later
    pieces alone). Nothing under an eighth of the budget is left a chunk of its own when
    a neighbour can take it, the chunk then holding up to an eighth more: the heading
    (``headed``: the first piece) and a scrap (a statement's title and "Year Ended
    December 31,", a "continued" line) go with what follows, a short lead-in ("… as
    follows:") opens the chunk of what it announces, and a scrap at the end ("See
    accompanying notes.") joins the chunk before."""
    own: list[list[Piece]] = []
    for p in pieces:
        joinable = own and not _is_continuation(p) and not _is_continuation(own[-1][-1])
        heading_alone = headed and len(own) == 1 and len(own[0]) == 1
        held = sum(q.tokens for q in own[-1]) if own else 0
        if joinable and (heading_alone or held + p.tokens <= size or held < size // SCRAP):
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
    if len(own) > 1 and not _is_continuation(own[-1][0]) and own[-1][0].table is None:
        # (after a table's later piece too: the chunk is that piece's text, then the scrap)
        tail, before = sum(q.tokens for q in own[-1]), sum(q.tokens for q in own[-2])
        if tail < size // SCRAP and before + tail <= size + size // SCRAP:
            own[-2].extend(own.pop())
    return own


def part_lead_in(pieces: list[Piece], size: int) -> None:
    """The last paragraph of the text above a table, when it announces the table ("… as
    follows:"), made a piece of its own, so it can go with the table (:func:`_groups`)."""
    if not pieces or pieces[-1].table is not None:
        return
    last = pieces[-1]
    body = last.text.rstrip()
    cut = body.rfind("\n\n") + 2
    if not body.endswith(":") or cut < 2:
        return
    lead = Piece(last.start + cut, last.end, last.text[cut:], count_tokens(last.text[cut:]))
    if _leads_in(lead, size):
        rest = Piece(last.start, lead.start, last.text[:cut], last.tokens - lead.tokens)
        pieces[-1:] = [rest, lead]


def _leads_in(piece: Piece, size: int) -> bool:
    """A short paragraph announcing what follows it: it ends with a colon."""
    return (
        piece.table is None and piece.tokens < size // SCRAP and piece.text.rstrip().endswith(":")
    )


def _under(outer: Sequence[str], path: Sequence[str]) -> bool:
    """``path`` lies under (or is) ``outer``."""
    return list(path[: len(outer)]) == list(outer)


def _is_continuation(piece: Piece) -> bool:
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
