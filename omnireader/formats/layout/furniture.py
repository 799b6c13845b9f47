"""Running headers, footers and page numbers: what repeats at the same place across pages.

A block near the top or bottom edge is furniture when a block of the same shape (its text
with digits masked, at about the same height) stands on enough other pages in a window
around it; a lone number (or "Page 3 of 9") in those margins is a page number, and becomes
the page's label. Only the small keys of the pages in the window are held, so memory stays
bounded on a 1,000-page file.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter, deque
from dataclasses import replace
from difflib import SequenceMatcher

from omnireader.formats.layout.footer_titles import lowest, lowest_keys, lowest_titles
from omnireader.formats.layout.model import Block, PageLayout

__all__ = ["WINDOW", "FurnitureWindow", "margin_keys", "page_number"]

#: Pages looked at on each side of a page.
WINDOW = 4
# The top and bottom margin zones, as shares of the page height.
_ZONE = 0.12
# The other pages (in the window) that must show the same block.
_MIN_REPEATS = 2
# The page number a running header or footer starts or ends with ("Chapter 2: Syntax 3",
# "4 Libtasn1"; up to three digits: "2022" ending "Annual Report 2022" is its year).
_EDGE_NUMBER = re.compile(r"^(\d{1,3})\s+\S|\S\s+(\d{1,3})$")
_MAX_CHARS = 200
# A running header read by OCR misspells a letter here and there ("VICKSBUEG", "SIEGE OP"):
# a margin text this long that differs from one on another page in at most this many
# characters (both sides counted: one misread letter is two) repeats it. Titles a word
# apart ("… CHIEF EXECUTIVE OFFICER …" / "… CHIEF FINANCIAL OFFICER …") differ in more.
_ALIKE_CHARS = 12
_ALIKE_EDITS = 4

_DIGITS = re.compile(r"\d+")
# A page number that counts: "12", or "F-12" in its letters' series (not "xii").
_COUNTED = re.compile(r"(?:[A-Z]{1,2}-)?\d+$")
_SPACES = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+|p\.\s*|-\s*|\u2013\s*|\u2014\s*)?"
    # An appendix's or the financial statements' pages: "A-2", "F-12" (capitals only).
    r"((?-i:[A-Z]{1,2})-\d{1,3}|\d{1,4}|(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))"
    r"(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*-|\s*\u2013|\s*\u2014)?$",
    re.IGNORECASE,
)


def _zones(layout: PageLayout) -> list[tuple[str | None, bool, bool]]:
    """For each block: its margin zone (``header``, ``footer`` or None), whether it is
    the outermost there (nothing above a header, nothing below a footer), and whether
    nothing on the page is below it.

    A block is in a zone when it lies in the page's top or bottom share, or when it is the
    outermost block on the page: filings rendered from HTML print their page numbers a
    quarter of the page above its foot.
    """
    blocks = layout.blocks
    height = layout.height
    tops = sorted(b.y0 for b in blocks)
    bottoms = sorted(b.y1 for b in blocks)
    out: list[tuple[str | None, bool, bool]] = []
    for block in blocks:
        if block.kind == "table" or len(block.text) > _MAX_CHARS:
            out.append((None, False, False))
            continue
        # Nothing wholly above it / below it (its own edges do not count).
        first = bisect_right(bottoms, block.y0 + 0.5) == 0
        last = len(tops) - bisect_left(tops, block.y1 - 0.5) == 0
        upper = (block.y0 + block.y1) < height
        if block.y1 <= height * _ZONE or (first and upper):
            out.append(("header", first, last))
        elif block.y0 >= height * (1 - _ZONE) or (last and not upper):
            out.append(("footer", last, last))
        else:
            out.append((None, False, last))
    return out


def margin_keys(layout: PageLayout) -> set[tuple[str, str, int]]:
    """(zone, masked text, height bucket) of each block in the page's margins."""
    keys = set()
    for block, (zone, outermost, last) in zip(layout.blocks, _zones(layout)):
        counted = _page_count_key(block, outermost or last)
        if counted is not None:
            keys.add(counted)
        elif zone is None and last and (number := _edge_number(block.text)) is not None:
            # A short page's running footer under its text, above the middle (below).
            keys.add(_numbered_key(_key(block, "footer", layout.height), number))
        if zone is not None:
            key = _key(block, zone, layout.height)
            keys.add(key)
            if block.kind == "heading":
                keys.add((key[0], _exact(block), key[2]))
            number = _edge_number(block.text)
            if number is not None and outermost:
                keys.add(_numbered_key(key, number))
    low = lowest(layout.blocks, _is_number)
    if low:  # titles at the page's foot (footer_titles), and the page number over them
        keys |= lowest_keys(low)
        rest = [b for b in layout.blocks if not any(b is title for title in low)]
        for block, (_, outermost, last) in zip(rest, _zones(replace(layout, blocks=rest))):
            counted = _page_count_key(block, outermost or last)
            if counted is not None:
                keys.add(counted)
    return keys


def _page_count_key(block: Block, edge: bool) -> tuple[str, str, int] | None:
    """The count key of a page number standing at the page's edge (``edge``), or None."""
    number = page_number(block.text)
    if number is not None and _COUNTED.match(number) and edge:
        return _count_key(number)
    return None


def _is_number(text: str) -> bool:
    # A page number, or a footer that carries one: those count with the pages (above).
    return page_number(text) is not None or _edge_number(text) is not None


def _count_key(number: str, step: int = 0) -> tuple[str, str, int]:
    # A page's own number, wherever it stands: what a lone number elsewhere counts from
    # ("F-12" counts in its letters' own series).
    letters, _, digits = number.rpartition("-")
    return "#", letters, int(digits) + step


def _counted(number: str, others: list[tuple[int, set[tuple[str, str, int]]]]) -> bool:
    """Whether the page ``d`` pages away has its number ``number + d``."""
    return any(_count_key(number, d) in keys for d, keys in others)


def _exact(block: Block) -> str:
    # A heading's own text, digits kept, marked apart from the masked keys.
    return "=" + " ".join(block.text.lower().split())


def _key(block: Block, zone: str, height: float) -> tuple[str, str, int]:
    masked = _DIGITS.sub("#", _SPACES.sub(" ", block.text.strip().lower()))
    # Height in ~1.5% steps of the page, from the nearer edge (pages differ in size).
    edge = block.y0 if zone == "header" else height - block.y1
    return zone, masked, int(edge / max(height, 1.0) * 66)


def _repeated(key: tuple[str, str, int], keys: set[tuple[str, str, int]], slack: int) -> bool:
    if not slack:
        return key in keys
    zone, text, step = key
    return any((zone, text, step + d) in keys for d in range(-slack, slack + 1))


def _alike(key: tuple[str, str, int], keys: set[tuple[str, str, int]], slack: int) -> bool:
    """Whether ``keys`` hold a text in the same zone and height step (give or take
    ``slack``) that reads as ``key``'s but for a letter or two, or a page number. The same
    text at another height is not it: a table's title or column head atop each page
    stands a step lower or higher from page to page, a running header does not."""
    zone, text, step = key
    if len(text) < _ALIKE_CHARS:
        return False
    for other_zone, other, other_step in keys:
        if other_zone == zone and other != text and abs(other_step - step) <= slack:
            if abs(len(text) - len(other)) > _ALIKE_EDITS:
                continue
            # The characters the two share (with their repeats) bound the matching blocks'
            # size from above: most pairs are told apart by it without the matcher.
            shared = (Counter(text) & Counter(other)).total()
            if len(text) + len(other) - 2 * shared > _ALIKE_EDITS:
                continue
            matcher = SequenceMatcher(None, text, other, autojunk=False)
            same = sum(block.size for block in matcher.get_matching_blocks())
            if len(text) + len(other) - 2 * same <= _ALIKE_EDITS:
                return True
    return False


def _renumbered(
    block: Block, key: tuple[str, str, int], others: list[tuple[int, set[tuple[str, str, int]]]]
) -> str | None:
    """The page number ``block`` starts or ends with, when it is outermost on another page
    ``d`` pages away with only that number changed, by ``d``: "2019 Form 10-K 79" at the
    foot of one page and "2019 Form 10-K 80" at the next one's is a running footer, at
    whatever height the two stand (a filing made from HTML ends each page where its text
    does). "Exhibit 21" over "Exhibit 23" is not, nor "Date: March 24, 2017" under two
    letters."""
    number = _edge_number(block.text)
    if number is None:
        return None
    n = int(number)
    return number if any(_numbered_key(key, str(n + d)) in keys for d, keys in others) else None


def _numbered_key(key: tuple[str, str, int], number: str) -> tuple[str, str, int]:
    # Height left out (-1): the page number is what ties the two together.
    return key[0], f"{key[1]}@{number}", -1


def _edge_number(text: str) -> str | None:
    match = _EDGE_NUMBER.search(text.strip())
    return (match.group(1) or match.group(2)) if match else None


def page_number(text: str) -> str | None:
    """The printed page number in ``text``, when that is all it says."""
    match = _PAGE_NUMBER.match(text.strip())
    return match.group(1) if match else None


class FurnitureWindow:
    """Holds the margin keys of up to ``2 * WINDOW + 1`` pages, for :meth:`split`."""

    def __init__(self) -> None:
        self._keys: deque[set[tuple[str, str, int]]] = deque(maxlen=2 * WINDOW + 1)

    def add(self, keys: set[tuple[str, str, int]]) -> None:
        self._keys.append(keys)

    def split(
        self, layout: PageLayout, position: int, slack: int = 0
    ) -> tuple[list[Block], list[Block], list[Block], str | None]:
        """(body, header, footer, page label) of the page whose keys are at ``position``
        in the window. With ``slack``, a block on another page repeats this one when it
        stands up to that many height steps (~1.5% of the page each) nearer or farther from
        the edge: scanned pages lie a few millimetres apart on the glass."""
        others = [(i - position, keys) for i, keys in enumerate(self._keys) if i != position]
        body: list[Block] = []
        header: list[Block] = []
        footer = lowest_titles(layout.blocks, others, _is_number, _MIN_REPEATS)
        label = None
        whole = layout.blocks
        if footer:  # a running footer under each page's text at any height (footer_titles)
            layout = replace(layout, blocks=[b for b in whole if not any(b is f for f in footer)])
            for block in footer:
                block.kind = "footer"  # type: ignore[assignment]
        for block, (zone, outermost, last) in zip(layout.blocks, _zones(layout)):
            if block.kind == "header":  # the layout knew it: text turned in a side margin
                header.append(block)
                continue
            number = page_number(block.text)
            if zone is None and last:
                # A page whose text ends above its middle (a filing rendered from HTML)
                # prints its number, or its running footer, under that text: the page's
                # when the pages around count the same way ("5" here, "6" at the next
                # page's foot; "2021 FORM 10-K 23" here, "… 24" there).
                if (number is not None and _COUNTED.match(number) and _counted(number, others)) or (
                    number is None
                    and block.kind not in ("heading", "caption")
                    and _renumbered(block, _key(block, "footer", layout.height), others)
                ):
                    zone, outermost = "footer", True
            if zone is None:
                body.append(block)
                continue
            key = _key(block, zone, layout.height)
            if block.kind == "heading":
                # "Exhibit 21" atop one page and "Exhibit 23" atop the next are titles:
                # a heading is a running header only when repeated digit for digit.
                key = (key[0], _exact(block), key[2])
            repeats = sum(1 for _, keys in others if _repeated(key, keys, slack))
            if repeats < _MIN_REPEATS and block.kind != "heading":
                repeats = sum(1 for _, keys in others if _alike(key, keys, slack))
            # A lone number is the page's when it is outermost or stands on other pages
            # too; a superscript note mark near the top is neither.
            if number is not None and not outermost and repeats < _MIN_REPEATS:
                number = None
            carried = None
            if number is None and outermost and block.kind not in ("heading", "caption"):
                carried = _renumbered(block, key, others)
            if number is None and repeats < _MIN_REPEATS and carried is None:
                body.append(block)
                continue
            if carried is not None and label is None:
                label = carried
            if number is not None and label is None:
                label = number
            kind = "page_number" if number is not None else zone
            block.kind = kind  # type: ignore[assignment]
            (header if zone == "header" else footer).append(block)
        if not body:
            # Nothing but margin text: that is the page's content (a page of one line
            # repeated on every page, a slide's title), not its furniture.
            for block in whole:
                if block.kind in ("header", "footer", "page_number"):
                    block.kind = "paragraph"
            return list(whole), [], [], label
        return body, header, footer, label
