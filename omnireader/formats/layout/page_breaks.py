"""A paragraph a page break cuts in two: the text at the top of a page that carries on the
sentence the page before ended in.

The layout stream (:mod:`.stream`) moves such a continuation back onto the page where its
paragraph began, so the paragraph is read, chunked and found whole; the item then says it
runs onto the next page (``Source.page_end``). What is not a continuation: a page ending
with a heading, a table or a caption, or with a finished sentence (or a lead-in colon); a
next page opening with a heading, a table, a list item or a caption; text set in another
size than the paragraph (a footnote at the foot of the page, a note at the top of the
next); an upper-case start after a line that could end a sentence. A code listing the
page ends with goes on with the code at the top of the next (:func:`carries_listing`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from omnireader.formats.layout.model import Block
from omnireader.formats.layout.reflow import HYPHENS, Vocabulary, join_hyphenated
from omnireader.formats.word_lists import WordList, load_word_list

__all__ = [
    "carries_listing",
    "carries_on",
    "join_column_breaks",
    "joined_text",
    "listing_gap",
    "listing_text",
]

# The page's last line ended a sentence, a lead-in ("… as follows:"), or a bracketed note.
_ENDED = re.compile(r"[.!?:;][)\]\"'\u201d\u2019]*$")
# The next page opens in lower case (after an opening quote or bracket): a sentence's middle.
_OPENS_LOWER = re.compile(r"^[\"'(\[\u201c\u2018]?[a-z\u00df-\u00ff]")
# A list item's own mark in lower case: "a. ", "(f) ", "ii) ".
_LIST_MARK = re.compile(r"^\(?[a-z]{1,4}[.)]\s")
# A line ending in an initialism ("U.S.", "e.g."): its full stop may end no sentence.
_INITIALISM = re.compile(r"(?:^|[\s(])(?:[^\W\d_]\.){2,}$")
# A line that cannot end a sentence: a comma, a hyphen or dash, an opening bracket, or a
# word that needs what follows it (data file formats/data/run_on_words.txt).
_RUNS_ON_MARK = re.compile(r"[,(\[/&\-\u2010\u2011\u2013\u2014]$")
_LAST_WORD = re.compile(r"([^\W\d_]+)$")
# An upper-case start is taken only for a paragraph this long at least: a short line at the
# top of a page is more often a title or a label than a sentence's end.
_MIN_UPPER_CHARS = 40
# How far (in em) a block's top may reach into the last one's box and still be right below.
_OVERLAP_EM = 0.5
# Sizes further apart than this share are two kinds of text (body and footnote).
_SIZE_SHARE = 0.1
# A listing's next block starts at most this many lines under the last (code_blocks.py),
# a line being this many em.
_LISTING_GAP = 2.5
_LINE_EM = 1.2
# Under this many characters a row's box says little of the font's advance, taken then as
# most monospace fonts set it (Courier, DejaVu Sans Mono, Menlo: 0.6 em).
_FEW_CHARS = 8
_ADVANCE_EM = 0.6


def carries_on(last: Block, first: Block) -> bool:
    """``first`` (the next page's first body block) carries on ``last`` (this page's last
    body block): a paragraph or list item cut mid-sentence, and a paragraph in the same size
    that opens in lower case, or in upper case after a word that cannot end a sentence."""
    if last.kind not in ("paragraph", "list_item") or first.kind != "paragraph":
        return False
    tail, head = last.text.rstrip(), first.text.lstrip()
    if not tail or not head:
        return False
    if _ENDED.search(tail) and not (_INITIALISM.search(tail) and _opens_sentence_middle(head)):
        return False
    if last.size and first.size:
        if abs(last.size - first.size) > _SIZE_SHARE * max(last.size, first.size):
            return False
    if _opens_sentence_middle(head):
        return True
    return _runs_on(tail) and len(head) >= _MIN_UPPER_CHARS and head[:1].isalnum()


def carries_listing(last: Block, first: Block, above: Block | None = None) -> bool:
    """``first`` (the next page's first body block) carries on the code listing ``last``
    ends the page with: code too, or set in the same monospace font on a page mostly so
    (``Block.listing``: a listing filling its page is not found as one), in one size.
    ``above``: the block of ``first``'s page carried on before it, which ``first`` must
    follow within :data:`_LISTING_GAP` lines (as a listing's blocks do on one page)."""
    if last.kind != "code" or (first.kind != "code" and first.listing is None):
        return False
    if last.size and first.size:
        if abs(last.size - first.size) > _SIZE_SHARE * max(last.size, first.size):
            return False
    return above is None or first.y0 - above.y1 <= _LISTING_GAP * _line(first)


def listing_gap(above: Block | None, first: Block) -> str:
    """What stands between a listing's lines and ``first``'s, carried on after ``above``
    (a blank line where they lie more than a line apart, as inside a listing)."""
    if above is not None and first.y0 - above.y1 > _line(first):
        return "\n\n"
    return "\n"


def _line(block: Block) -> float:
    return _LINE_EM * max(block.size, 1.0)


def listing_text(last: Block, first: Block, margins: tuple[float, float]) -> str:
    """``first``, carrying on the listing ``last``, as the listing's rows, indented from
    ``last``'s leftmost row as far as it lies (each from its page's left ``margins``: a
    book's pages are not set at one x) in the font's character widths (its box's width
    over its longest row's characters: a code block's rows are spaced that way)."""
    text = first.text if first.kind == "code" or first.listing is None else first.listing
    rows = text.split("\n")
    chars = max(map(len, rows))
    if not chars or first.x1 <= first.x0:
        return text
    width = (first.x1 - first.x0) / chars
    if chars < _FEW_CHARS and first.size:  # a glyph's box is no measure of its advance
        width = _ADVANCE_EM * first.size
    indent = round(((first.x0 - margins[1]) - (last.x0 - margins[0])) / width)
    if indent <= 0:
        return text
    return "\n".join(" " * indent + row if row else row for row in rows)


def _opens_sentence_middle(head: str) -> bool:
    # In lower case, and not with a list's own mark ("a. …", "f) …").
    return bool(_OPENS_LOWER.match(head)) and not _LIST_MARK.match(head)


def _runs_on(tail: str) -> bool:
    if _RUNS_ON_MARK.search(tail):
        return True
    word = _LAST_WORD.search(tail)
    # As written in lower case: "… by the" runs on, a title's "… of The" may not.
    return word is not None and word.group(1).islower() and _run_on_words().match(word.group(1))


def _run_on_words() -> WordList:
    return load_word_list("run_on_words")


def joined_text(tail: str, head: str, vocabulary: Vocabulary) -> tuple[str, int]:
    """The two halves of a paragraph as one (a word broken at the page's last hyphen joined
    as a line break's would be, else a space between them), and where the next page's text
    starts in it (a word joined across the break: where that word starts)."""
    tail, head = tail.rstrip(), head.lstrip()
    if tail.endswith(tuple(HYPHENS)):
        stem, _, broken = tail.rpartition(" ")
        first, _, rest = head.partition(" ")
        lead = f"{stem} " if stem else ""
        word = join_hyphenated(broken, first, vocabulary)
        return f"{lead}{word} {rest}".rstrip(), len(lead)
    return f"{tail} {head}", len(tail) + 1


def join_column_breaks(blocks: list[Block], vocabulary: Vocabulary) -> list[Block]:
    """A page's blocks (in reading order) with each paragraph a column break cut made
    whole: the next block starts higher up and right of it (the top of the next column)
    and carries the sentence on, or starts right below in lower case (a line the layout
    took for a paragraph of its own). The paragraph keeps its first part's box."""
    out: list[Block] = []
    for block in blocks:
        last = out[-1] if out else None
        if last is not None and _cut(last, block) and carries_on(last, block):
            out[-1] = replace(last, text=joined_text(last.text, block.text, vocabulary)[0])
        else:
            out.append(block)
    return out


def _cut(last: Block, block: Block) -> bool:
    if block.y0 < last.y1 - 1 and block.x0 >= last.x1 - 1:
        return True  # higher up, right of it: the top of the next column
    # Right below, in lower case, after a paragraph as long as a line of text (not a title
    # or a label over it). Tightly set lines' boxes overlap (a bracket's or a descender's
    # loose box reaches into the next line): up to half an em of overlap is still below.
    em = max(last.size, 1.0)
    below = last.y1 - max(1.0, _OVERLAP_EM * em) <= block.y0 <= last.y1 + 2 * em
    long = len(last.text) >= _MIN_UPPER_CHARS
    return below and long and bool(_OPENS_LOWER.match(block.text.lstrip()))
