"""Tables of contents: their entries are a list, not headings.

A contents entry is set like the heading it names (bold, large, or matching the PDF's
outline), so the heading rules take "Item 1A Risk Factors 6" for a heading, and the trail
then puts the contents' last entry over the pages after it. :func:`contents_entries` finds
the page's contents — the blocks from a contents title ("Table of Contents", data file
``formats/data/contents_titles.txt``) or a first entry down to the last entry — and makes
its headings list items; the contents title heads its page only. An entry ends in its page number, after a dot leader or a space
("1 Foo 2", "Item 1. Business .... 3"); a column of page numbers set apart ("3 6 15 16")
marks the entries beside it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from omnireader.formats.layout.headings import leader_end, normalize
from omnireader.formats.layout.model import Block
from omnireader.formats.word_lists import load_word_list

__all__ = ["contents_entries", "is_contents_title"]

# An entry: a title, then a page number (arabic under 1000, or roman) after a space; a
# year ("Fiscal 2019") is no page number.
_ENTRY = re.compile(r"^(?=.*[^\W\d_])\S.*\s(\d{1,3}|[ivxlc]{1,6})$", re.I)
# A column of page numbers read as one block: numbers only (three at least to be a sign of
# contents by itself; under a contents title, one is an entry's page).
_NUMBERS = re.compile(r"^\d{1,3}(?:\s+\d{1,3})*$")
_COLUMN = 3
# Entries a page needs without a contents title (with one, an entry or a column suffices).
_UNTITLED_ENTRIES = 3
_KINDS = ("heading", "paragraph", "list_item")


@lru_cache(maxsize=1)
def _titles() -> tuple[frozenset[str], tuple[str, ...]]:
    """The titles, and those of several words: a title may end with one of these
    ("Annual Report on Form 10-K Table of Contents")."""
    titles = load_word_list("contents_titles").words
    return frozenset(map(normalize, titles)), tuple(normalize(t) for t in titles if " " in t)


def is_contents_title(text: str, ending: bool = False) -> bool:
    """``text`` names a table of contents ("Table of Contents", "INDEX", "Inhalt"), or
    ends with a name of several words ("Annual Report Table of Contents"); with
    ``ending``, with any ("Form 10-K for the Fiscal Year 2023 Index")."""
    if len(text) > 80:
        return False
    key = normalize(text)
    whole, endings = _titles()
    return key in whole or key.endswith(tuple(whole) if ending else endings)


def _entry(block: Block, titled: bool = True) -> bool:
    """A block that is one contents entry or a column of the entries' page numbers."""
    if block.kind not in _KINDS:
        return False
    text = block.text.strip()
    if _NUMBERS.match(text):
        numbers = [int(n) for n in text.split()]
        # Pages go up (a row of figures need not); alone, a column of three at least.
        return numbers == sorted(numbers) and (titled or len(numbers) >= _COLUMN)
    return len(text) <= 200 and (leader_end(text) or bool(_ENTRY.match(text)))


def _title(blocks: list[Block]) -> int | None:
    """Where the contents title is: a name of contents, or a line ending with one ("…
    Fiscal Year 2023 Index") on a page holding a column of page numbers or entries ending
    in their pages (the column given back to them: :mod:`.contents_numbers`)."""
    title = next((i for i, b in enumerate(blocks) if is_contents_title(b.text)), None)
    if title is None and (
        any(_entry(b, titled=False) and _NUMBERS.match(b.text) for b in blocks)
        or _listed(blocks, [i for i, b in enumerate(blocks) if _entry(b, False)]) is not None
    ):
        title = next((i for i, b in enumerate(blocks) if is_contents_title(b.text, True)), None)
    return title


def contents_entries(blocks: list[Block]) -> tuple[list[Block], Block | None]:
    """``blocks`` (a page's body, its running header gone) with the headings among a table
    of contents' entries made list items, and the contents title (it stays a heading of
    its page, but heads nothing after it). Pages without contents come back as they are,
    with None."""
    title = _title(blocks)
    titled = title is not None
    entries = [i for i, b in enumerate(blocks) if _entry(b, titled) and (not titled or i > title)]
    # Untitled, the contents start at their first run of numbered entries: a heading above
    # that only looks like an entry ("PART IV") heads its page as before.
    first = _listed(blocks, entries) if title is None else title + 1
    if first is None or not entries:
        return blocks, None
    last = entries[-1]
    if all(b.kind == "heading" for b in blocks[last + 1 :]):
        last = len(blocks) - 1  # entries without a number to the page's end: no text follows
    out = list(blocks)
    for i in range(first, last + 1):
        if out[i].kind == "heading":
            # A list item's Markdown mark, as a bullet's would be (layout/page.py).
            out[i] = replace(out[i], kind="list_item", level=0, text=f"- {out[i].text}")
    return out, blocks[title] if title is not None else None


def _listed(blocks: list[Block], entries: list[int]) -> int | None:
    """Where contents without a title start: the first of entries in a row, their page
    numbers going up (None: no such run)."""
    run: list[int] = []
    for i in entries:
        match = _ENTRY.match(blocks[i].text.strip())
        page = int(match.group(1)) if match and match.group(1).isdigit() else None
        if run and (i != run[-1] + 1 or page is None or page < _page(blocks[run[-1]])):
            run = []
        if page is not None:
            run.append(i)
        if len(run) >= _UNTITLED_ENTRIES:
            return run[0]
    return None


def _page(block: Block) -> int:
    match = _ENTRY.match(block.text.strip())
    return int(match.group(1)) if match and match.group(1).isdigit() else 0
