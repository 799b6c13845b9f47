"""One PDF page's text layer → a :class:`PageLayout`: blocks in reading order, with kinds.

Headings are decided here against the document's body size so far (``HeadingRules``);
running headers and footers need other pages, so they are found later (``furniture.py``).
Where a block breaks into paragraphs is ``paragraphs.py``; its Markdown, ``markdown.py``.
The work per page is capped: past :data:`~.words.MAX_CHARS` characters or
:data:`BUDGET_S` seconds the page raises :class:`LayoutFailed` and its caller keeps the
plain text.
"""

from __future__ import annotations

import time
from itertools import compress, repeat
from operator import eq
from typing import TYPE_CHECKING

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.block_kinds import block_of, drop_kickers, main_size
from omnireader.formats.layout.blocks import TextBlock, make_blocks
from omnireader.formats.layout.box_columns import attach_box_columns
from omnireader.formats.layout.code_blocks import code_listings
from omnireader.formats.layout.column_heads import drop_column_heads
from omnireader.formats.layout.contents_numbers import pair_page_numbers
from omnireader.formats.layout.headings import HeadingRules, normalize
from omnireader.formats.layout.lines import make_line, make_lines
from omnireader.formats.layout.margin_text import take_margin_text
from omnireader.formats.layout.model import Line, PageLayout, Table, Word
from omnireader.formats.layout.order import reading_order
from omnireader.formats.layout.paragraphs import paragraphs
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.layout.symbol_fonts import read_symbols
from omnireader.formats.layout.text_rotation import text_rotation
from omnireader.formats.layout.words import TooManyChars

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["BUDGET_S", "LayoutFailed", "budget_clock", "layout_page", "layout_words"]

#: CPU seconds one page may take before its layout is given up (a page normally takes
#: ~10 ms). CPU time of the reading thread, not the clock: a busy machine does not turn a
#: page's layout into plain text.
BUDGET_S = 2.0
#: The clock the budget is counted on (callers that start it themselves use it too).
budget_clock = time.thread_time
_ANGLE_SAMPLE = 60

# A running header or footer stands in these shares of the page's height, at its top and
# foot. Furniture is found by repeating across pages (``furniture.py``); a one-page
# document cannot show that, so there nothing in these bands is a heading.
_HEADER_BAND = 0.07
# Past this many sizes on a page, characters are counted word by word (see _sizes).
_FEW_SIZES = 8
_FOOTER_BAND = 0.05


class LayoutFailed(RuntimeError):
    """The page could not be laid out in bounds; its plain text stands."""


def layout_page(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    index: int,
    headings: HeadingRules,
    vocabulary: Vocabulary,
    budget: float = BUDGET_S,
    hidden: frozenset[int] = frozenset(),
) -> PageLayout:
    """The page's blocks in reading order, without the ``hidden`` text objects' characters
    (invisible or clipped-away text, :mod:`omnireader.formats.pdf.hidden_text`). Raises
    :class:`LayoutFailed`."""
    started = budget_clock()
    # A page printed sideways (most of its text running bottom to top) is read turned
    # upright: /Rotate is what words and rules apply, so it is set for the reading only.
    turn = text_rotation(textpage, sample=_ANGLE_SAMPLE)  # a sample is enough to see it
    rotation = page.get_rotation()
    if turn:
        page.set_rotation((rotation + turn) % 360)
    try:
        width, height = page.get_size()
        words, aside = take_margin_text(page, textpage, turn, hidden)
        words = read_symbols(words)
        tables = _tables(page, words, width, height)
    except TooManyChars as exc:
        raise LayoutFailed(str(exc)) from None
    finally:
        if turn:
            page.set_rotation(rotation)
    _check(started, budget, "reading the words")
    layout = layout_words(
        words, width, height, index, headings, vocabulary, tables, started, budget
    )
    layout.blocks.extend(aside)  # text turned in a side margin: furniture, outside the order
    return layout


def layout_words(
    words: list[Word],
    width: float,
    height: float,
    index: int,
    headings: HeadingRules,
    vocabulary: Vocabulary,
    tables: list[Table] | None = None,
    started: float | None = None,
    budget: float = BUDGET_S,
    lines_out: list[list[Line]] | None = None,
) -> PageLayout:
    """Blocks in reading order from positioned words (a text layer's or OCR's).

    With ``lines_out``, each block's lines (their words are the ``words`` given) are
    appended to it, one list per block of the layout (empty for a table): OCR keeps each
    line's box and confidence that way."""
    started = budget_clock() if started is None else started
    tables = tables or []
    in_tables: list[Word] = []
    if tables:
        inside = _in_tables(words, tables)
        in_tables = [w for w, i in zip(words, inside) if i]
        words = [w for w, i in zip(words, inside) if not i]
    headings.add_sizes(_sizes(words), _sizes(in_tables))
    lines = make_lines(words, width)
    blocks = attach_box_columns(pair_page_numbers(make_blocks(lines)))
    entries = headings.outline.by_page.get(index)
    if entries:
        blocks = [part for block in blocks for part in _split_at_outline(block, entries)]
    for table in tables:
        holder = TextBlock(x0=table.x0, y0=table.y0, x1=table.x1, y1=table.y1)
        holder.table = table
        blocks.append(holder)
    _check(started, budget, "grouping lines")
    ordered = [p for b in _join_rows(reading_order(blocks, width)) for p in paragraphs(b)]
    _check(started, budget, "ordering blocks")
    _learn(ordered, vocabulary)
    out = PageLayout(width=width, height=height)
    for block in ordered:
        # By the block's middle: a letterhead set large spills past the band's edge.
        middle = (block.y0 + block.y1) * 0.5
        margin = headings.single_page and (
            middle < _HEADER_BAND * height or middle > (1 - _FOOTER_BAND) * height
        )
        out.blocks.append(block_of(block, index, headings, vocabulary, margin))
        if lines_out is not None:
            lines_out.append(block.lines)
    sizes = [main_size(b) if b.table is None else 0.0 for b in ordered]

    def outlined(text: str) -> bool:
        return bool(headings.outline.level(text, index))

    drop_kickers(out.blocks, sizes, outlined)
    drop_column_heads(out.blocks, width, outlined)
    if lines_out is None:  # OCR keeps one list of lines a block (and reads no fonts)
        out.blocks = code_listings(out.blocks, ordered)
    _check(started, budget, "finding headings")
    return out


def _sizes(words: list[Word], compiled: bool = True) -> dict[float, int]:
    """Characters by size (to the half point). Counted by the compiled loop where it is
    built and ``compiled`` is true (tests compare the two)."""
    count = pdfium_calls.compiled("char_sizes", compiled)
    exact = count(words) if count is not None else None
    if exact is None:
        exact = _exact_sizes(words)
    sizes: dict[float, int] = {}
    for size, chars in exact.items():
        key = round(size * 2) / 2
        sizes[key] = sizes.get(key, 0) + chars
    return sizes


def _exact_sizes(words: list[Word]) -> dict[float, int]:
    """Characters by exact size, sizes in the order they come."""
    exact: dict[float, int] = {}  # a page sets thousands of words in a few sizes
    every = [w.size for w in words]
    distinct = dict.fromkeys(every)  # in the order they come, as the loop below adds them
    if len(distinct) <= _FEW_SIZES and all(size == size for size in distinct):
        # One pass a size at C speed (no NaN, which no look-up would find twice).
        lengths = [len(w.text) for w in words]
        for size in distinct:
            exact[size] = sum(compress(lengths, map(eq, repeat(size), every)))
    else:
        for w in words:
            exact[w.size] = exact.get(w.size, 0) + len(w.text)
    return exact


def _split_at_outline(block: TextBlock, entries: dict[str, int]) -> list[TextBlock]:
    """``block`` cut around the lines (up to three) that are an outline entry of the page:
    a heading set like the text around it is found by its bookmark."""
    lines = block.lines
    if len(lines) < 2:
        return [block]
    for i in range(len(lines)):
        for j in range(i + 1, min(len(lines), i + 3) + 1):
            if (i, j) == (0, len(lines)):
                continue
            if normalize(" ".join(line.text for line in lines[i:j])) in entries:
                out = []
                for part in (lines[:i], lines[i:j], lines[j:]):
                    if part:
                        piece = TextBlock()
                        for line in part:
                            piece.add(line)
                        out.append(piece)
                return out[:-1] + _split_at_outline(out[-1], entries) if j < len(lines) else out
    return [block]


def _learn(blocks: list[TextBlock], vocabulary: Vocabulary) -> None:
    """The page's words into the vocabulary, but not the halves of a word broken at a line
    end ("con-" / "firming"): they would vouch for themselves as words."""
    page: list[str] = []  # one look-up of the page's words, not one a line
    for block in blocks:
        broken = False
        for line in block.lines:
            texts = [w.text for w in line.words]
            if broken and texts:
                texts = texts[1:]
            broken = bool(texts) and texts[-1].endswith(("-", "\u2010", "\u2011"))
            if broken:
                texts = texts[:-1]
            page.extend(texts)
    vocabulary.add_text(" ".join(page))


def _tables(page: pypdfium2.PdfPage, words: list[Word], width: float, height: float) -> list[Table]:
    """The tables helper's finder, when it is there (guarded: no finder, no tables)."""
    try:
        from omnireader.formats.layout.rules import page_rules
        from omnireader.formats.layout.tables import find_tables
    except ImportError:
        return []
    return list(find_tables(words, page_rules(page), width, height))


def _in_tables(words: list[Word], tables: list[Table], compiled: bool = True) -> list[bool]:
    """For each word, whether its centre lies in a table's box. One pass a table, not a
    call a word: a page of tables holds thousands of words and a few tables (the compiled
    loop, where built and ``compiled`` is true: one pass)."""
    in_boxes = pdfium_calls.compiled("in_boxes", compiled)
    found = in_boxes(words, tables) if in_boxes is not None else None
    if found is not None:
        return found
    centres = [((w.x0 + w.x1) * 0.5, (w.y0 + w.y1) * 0.5) for w in words]
    inside = [False] * len(words)
    for t in tables:
        x0, y0, x1, y1 = t.x0, t.y0, t.x1, t.y1
        inside = [
            was or (x0 <= cx <= x1 and y0 <= cy <= y1) for was, (cx, cy) in zip(inside, centres)
        ]
    return inside


def _join_rows(blocks: list[TextBlock]) -> list[TextBlock]:
    """Consecutive one-line blocks on one baseline, left to right, as one line: the label
    and the figures of a row that no table was found for read as today, on one line."""
    out: list[TextBlock] = []
    for block in blocks:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.table is None
            and block.table is None
            and len(prev.lines) == 1
            and len(block.lines) == 1
            and block.x0 >= prev.x1
            and _overlap(prev, block) > 0.5
        ):
            # Made anew: the joined line's size and weight are those of most of its text.
            line = make_line(prev.lines[0].words + block.lines[0].words)
            prev.lines[0] = line
            prev.x1, prev.y0, prev.y1 = line.x1, line.y0, line.y1
            continue
        out.append(block)
    return out


def _overlap(a: TextBlock, b: TextBlock) -> float:
    inter = min(a.y1, b.y1) - max(a.y0, b.y0)
    return inter / max(min(a.y1 - a.y0, b.y1 - b.y0), 0.1)


def _check(started: float, budget: float, stage: str) -> None:
    if budget_clock() - started > budget:
        raise LayoutFailed(f"layout ran out of its {budget:g} s budget while {stage}")
