"""What the ruled and the borderless table finders share: lines of words, runs of words
within a line, a cell's text, numbers, and which leading rows are the header.

Every distance here is relative to the words' own font size (``em``), so one rule holds for
a 6 pt statistics table and a 12 pt invoice alike.
"""

from __future__ import annotations

import re
from statistics import median

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.bidi import line_text
from omnireader.formats.layout.model import Word
from omnireader.formats.layout.reflow import HYPHENS

__all__ = [
    "CURRENCY",
    "SEGMENT_EM",
    "SNAP",
    "cell_text",
    "em",
    "group_lines",
    "header_rows",
    "is_marker",
    "is_numeric",
    "is_value",
    "is_word",
    "runs",
]

#: Points: rule ends this close count as touching, line positions this close as one line.
SNAP = 2.0
#: A gap wider than this (in em) between two words on a line separates two cells.
SEGMENT_EM = 0.75
#: Two numbers side by side are two cells once a space (about 0.25 em) separates them.
NUMBER_GAP_EM = 0.3

# A number as tables print them: signs, currency, thousands separators, decimals, percent,
# parentheses for negatives, footnote stars; a lone dash is the "nothing here" number.
_NUMBER = re.compile(
    r"[$\u20ac\u00a3\u00a5]?[(\[]?[-+\u2212\u2013]?[$\u20ac\u00a3\u00a5]?"  # "$(1,234)", "($1,234)"
    r"(\d[\d,.']*|\.\d+)%?[)\]]?%?\*{0,3}"
    r"|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}"  # a date: a value in its column as much as a number
    r"|[-\u2013\u2014]|n/?a|\(x\)|x",
    re.IGNORECASE,
)


_GROUP_HEAD = re.compile(r"[-\u2212(]?\d{1,3}")  # "12" of "12 345"
_GROUP = re.compile(r"\d{3}([.,]\d+)?\)?")  # "345", "345,6", "345)"
_THOUSANDS_GAP_EM = 0.4
#: Currency signs: a lone one goes with the number after it.
CURRENCY = frozenset("$\u20ac\u00a3\u00a5")
_UNITS = frozenset({"%", ")", "%)", "bps", "pts"})  # what a number's cell can end with
#: What starts a list item rather than a table row: bullets, dashes, "1." "(a)" "iv)".
_MARKER = re.compile(
    r"[\u2022\u25cf\u25aa\u25a0\u25e6\u2023\u2043\u2219\u00b7*\-\u2013\u2014o\uf0b7\uf0a7]"
    r"|\(?(\d{1,2}|[a-z]|[ivx]{1,4})[.)]",
    re.IGNORECASE,
)


def is_marker(text: str) -> bool:
    return _MARKER.fullmatch(text.strip()) is not None


def em(word: Word) -> float:
    """The word's font size, or its box height when the size is unknown."""
    return word.size if word.size > 0.5 else max(1.0, word.height / 1.15)


# A letter or a digit (``str.isalnum``, character by character: the same set).
_ALNUM = re.compile(r"[^\W_]")


def is_word(text: str) -> bool:
    """Whether ``text`` holds a letter or a digit (a dot leader's dots are no word)."""
    return _ALNUM.search(text) is not None


def is_numeric(text: str) -> bool:
    return bool(text) and _NUMBER.fullmatch(text.strip()) is not None


_YEAR = re.compile(r"(FY|Q[1-4]\s?)?(19|20)\d\d[A-Z]?", re.IGNORECASE)


def is_value(text: str) -> bool:
    """A number that is a table's data: a year heads a column more often than it fills one."""
    return is_numeric(text) and _YEAR.fullmatch(text.strip()) is None


def group_lines(words: list[Word], compiled: bool = True) -> list[list[Word]]:
    """Words grouped into lines (top to bottom), each line left to right.

    A word joins the line above when their vertical middles fall inside each other's
    boxes, so a superscript or a smaller font in the next column stays on its row. Every
    word of a page passes here: the compiled loop (``_loops.c``) runs it where it is built
    and ``compiled`` is true (tests compare the two)."""
    if len(words) < 2:
        return [list(words)] if words else []  # most cells: one word, one line
    fast = pdfium_calls.compiled("group_lines", compiled)
    grouped = fast(words) if fast is not None else None
    if grouped is not None:
        return grouped  # type: ignore[no-any-return]
    lines: list[list[Word]] = []
    bands: list[tuple[float, float]] = []
    # By centre; the word's centre and height inline (Word.cy and Word.height, without the
    # property calls).
    for word in sorted(words, key=lambda w: (w.y0 + w.y1, w.x0)):
        wy0, wy1 = word.y0, word.y1
        if bands:
            y0, y1 = bands[-1]
            mid = (y0 + y1) / 2
            if y0 <= (wy0 + wy1) / 2 <= y1 or wy0 <= mid <= wy1:
                lines[-1].append(word)
                height = wy1 - wy0
                if (height if height > 0.1 else 0.1) > y1 - y0:
                    bands[-1] = (wy0, wy1)
                continue
        lines.append([word])
        bands.append((wy0, wy1))
    for line in lines:
        line.sort(key=lambda w: w.x0)
    return lines


def runs(line: list[Word], compiled: bool = True) -> list[list[Word]]:
    """A line cut into runs of words at the gaps that separate cells.

    Numbers are never fused: two numeric words side by side are two runs as soon as a space
    separates them, since a cell holding two bare numbers is rarer than two numeric columns.
    A word space joins, a gap past ``SEGMENT_EM`` cuts; between the two :func:`_same_cell`
    decides. The loop is compiled where ``_loops`` is built, as :func:`group_lines`'s."""
    fast = pdfium_calls.compiled("runs", compiled)
    if fast is not None:
        return fast(line, NUMBER_GAP_EM, SEGMENT_EM, _same_cell)  # type: ignore[no-any-return]
    out: list[list[Word]] = []
    for word in line:
        if out:
            prev = out[-1][-1]
            size = max(em(prev), em(word))
            gap = word.x0 - prev.x1
            if gap <= NUMBER_GAP_EM * size or (
                not gap > SEGMENT_EM * size and _same_cell(prev, word, gap, size)
            ):
                out[-1].append(word)  # a word space, or a gap inside one cell
                continue
        out.append([word])
    return out


def _same_cell(prev: Word, word: Word, gap: float, size: float) -> bool:
    """Whether ``word``, a gap wider than a word space but narrower than a cell's after
    ``prev``, goes on in ``prev``'s cell."""
    # A lone currency sign belongs to the number after it, not the one before.
    # "(0.5, 0.5)": a number ending in a comma goes on in the same cell (a list);
    # numbers in two columns are not printed with a comma between them.
    ends_number = (
        (is_numeric(prev.text) or prev.text in _UNITS)
        and prev.text not in CURRENCY
        and not prev.text.endswith(",")
    )
    numbers = ends_number and (is_numeric(word.text) or word.text in CURRENCY)
    # "12 345,6" (a space between thousands, as European tables print them) is
    # one number: a group of three digits after one to three digits, a space apart.
    thousands = (
        _GROUP_HEAD.fullmatch(prev.text) is not None
        and _GROUP.fullmatch(word.text) is not None
        and gap <= _THOUSANDS_GAP_EM * size
    )
    return thousands or not numbers


def cell_text(words: list[Word]) -> str:
    """The words of one cell as one string: lines top to bottom, words left to right."""
    if not words:
        return ""
    if len(words) > 2 and all(len(w.text) <= 2 for w in words) and _stacked(words):
        # Text turned 90 degrees inside the cell arrives one glyph a "word", stacked:
        # read it bottom to top, a gap between two glyphs (a tenth of the line's height,
        # which runs across the page here) being a space.
        out, prev = [], None
        for w in sorted(words, key=lambda w: -w.cy):
            if prev is not None and prev.y0 - w.y1 > 0.1 * (w.x1 - w.x0):
                out.append(" ")
            out.append(w.text)
            prev = w
        return "".join(out)
    out = ""
    for line in group_lines(words):
        text = line_text(line)
        if out[-1:] in HYPHENS and out[-2:-1].isalpha():
            out += text  # "after-" / "tax": the compound a narrow column broke ("after-tax")
        else:
            out = f"{out} {text}" if out else text
    return out


def _stacked(words: list[Word]) -> bool:
    xs = [w.cx for w in words]
    return max(xs) - min(xs) < 1.5 * max(em(w) for w in words)


def header_rows(rows: list[list[str]], bold: list[bool] | None = None) -> int:
    """How many leading rows are the header.

    A table of numbers has its header above its first row that holds a number; a table of
    text has a header when its leading rows are bold and the rows below are not. At least
    one row, and never more than half the table.
    """
    limit = max(1, len(rows) // 2)
    numeric = [any(is_value(c) for c in row[1:] if c) for row in rows]
    if any(numeric[1:]):
        first = next(i for i, flag in enumerate(numeric) if flag)
        # A label alone in the first column right above the figures ("Net sales:") heads
        # a group of rows, not the columns; a unit note there ("(in millions)") is a head.
        while first > 1 and _group_label(rows[first - 1]):
            first -= 1
        return max(1, min(first, limit))
    if bold and len(bold) == len(rows) and bold[0]:
        lead = next((i for i, flag in enumerate(bold) if not flag), len(bold))
        if lead < len(rows):
            return max(1, min(lead, limit))
    return 1


def _group_label(row: list[str]) -> bool:
    label = row[0]
    return bool(label) and not any(row[1:]) and not (label[0] == "(" and label[-1] == ")")


def median_or(values: list[float], default: float) -> float:
    return median(values) if values else default
