"""Currency signs and percent marks set apart from their numbers, joined to them.

Financial statements print "$" at the left edge of a column and the amount right-aligned
in it, a cell's gap away, and "%" a gap right of its figure. Cut into runs at that gap,
the sign is a run of its own, and the borderless finder made a column of it: "$ | 1,234 |
$ | 5,678", the amount's cell reading as a bare number. Here a lone sign joins the number
beside it as one word ("$1,234", "12.5%"), as a filing that prints it tight reads (and as
the converters' and the benchmarks' tables write it): one cell, read as a number by the
header test and every other.
"""

from __future__ import annotations

from omnireader.formats.layout.model import Table, Word
from omnireader.formats.layout.tables_text import CURRENCY, em, is_numeric

__all__ = ["amount_line", "cover_hanging_marks", "fuse_signs", "merge_sign_columns"]

Run = list[Word]

_PERCENT = frozenset({"%", "%)"})
_SIGNS = CURRENCY | _PERCENT


def fuse_signs(line: list[Run]) -> list[Run]:
    """The line's runs with each lone currency sign moved onto the number after it and each
    lone "%" onto the number before it; a sign and its number made one word."""
    if len(line) < 2 or not any(w.text in _SIGNS for run in line for w in run):
        return line  # most lines: nothing to do (checked first, this runs on every line)
    out = [list(run) for run in line]
    # "139,156 $" | "165,536": a sign a word space after a number, the next column's
    # number a gap further on, is that number's (a sign never follows its amount).
    for k in range(len(out) - 1):
        run = out[k]
        if len(run) > 1 and run[-1].text in CURRENCY and _number(out[k + 1][0]):
            out[k + 1].insert(0, run.pop())
    joined: list[Run] = []
    for k, run in enumerate(out):
        if (
            len(run) == 1
            and run[0].text in CURRENCY
            and k + 1 < len(out)
            and _number(out[k + 1][0])
        ):
            out[k + 1].insert(0, run[0])  # "$" at the column's left, the amount right-aligned
            continue
        if len(run) == 1 and run[0].text in _PERCENT and joined and _number(joined[-1][-1]):
            joined[-1].append(run[0])  # "12.5" ... "%"
            continue
        joined.append(run)
    return [_fused(run) for run in joined]


def cover_hanging_marks(table: Table, words: list[Word]) -> None:
    """``table``'s box widened over each "%" hanging right of it, in place. A borderless
    table's last column ends at its figures' edge (:func:`_join`), and its "12.5%" cells
    hold the mark already: left outside the box, the mark was read again as a line of text
    under the table ("%" alone, once a row)."""
    for w in words:
        if (
            w.text in _PERCENT
            and table.y0 <= w.cy <= table.y1
            and table.x1 - 1.0 <= w.x0 <= table.x1 + em(w)
        ):
            table.x1 = max(table.x1, w.x1)


def merge_sign_columns(grid: list[list[str]]) -> None:
    """A ruled grid's lone currency signs (and "%") moved into the amounts beside them, in
    place: a drawn grid can give the sign a cell of its own, as the source's HTML table
    did. A column left empty is dropped with the spacers."""
    if not grid:
        return
    for row in grid:
        # "126 | % $ | 4,029": a figure's "%" and the next amount's "$" set close enough
        # together to share a cell between them.
        for j in range(1, len(row) - 1):
            pair = row[j].replace(" ", "")
            if (
                len(pair) == 2
                and pair[0] == "%"
                and pair[1] in CURRENCY
                and is_numeric(row[j - 1])
                and _digits(row[j - 1])
                and is_numeric(row[j + 1])
            ):
                row[j - 1], row[j], row[j + 1] = row[j - 1] + "%", "", _glued(pair[1], row[j + 1])
    for j in range(len(grid[0])):
        cells = [row[j] for row in grid if row[j]]
        if not cells:
            continue
        if j + 1 < len(grid[0]) and all(c in CURRENCY for c in cells):
            for row in grid:
                sign, number = row[j], row[j + 1]
                row[j], row[j + 1] = "", _glued(sign, number)
        elif j > 0 and all(c in _PERCENT for c in cells):
            for row in grid:
                row[j - 1], row[j] = row[j - 1] + row[j], ""
    # In a column that holds other cells too, a lone sign still goes to the amount beside it.
    for row in grid:
        for j in range(len(row) - 1):
            if row[j] in CURRENCY and row[j] and is_numeric(row[j + 1]):
                row[j], row[j + 1] = "", _glued(row[j], row[j + 1])
            elif row[j + 1] in _PERCENT and is_numeric(row[j]) and _digits(row[j]):
                row[j], row[j + 1] = row[j] + row[j + 1], ""


def _glued(sign: str, number: str) -> str:
    if not sign or not number:
        return sign or number
    return sign + number if _digits(number[:2]) else f"{sign} {number}"


def amount_line(line: list[Run]) -> bool:
    """A line that is one amount with its currency sign ("$4,021"): a table's row."""
    if len(line) != 1 or len(line[0]) != 1:
        return False
    text = line[0][0].text
    return text[:1] in CURRENCY and _digits(text) and is_numeric(text)


def _number(word: Word) -> bool:
    return word.text[:1] not in CURRENCY and is_numeric(word.text)


def _fused(run: Run) -> Run:
    """A sign word and the number word beside it as one word; other words as they are."""
    if not any(w.text in _SIGNS for w in run):
        return run
    out: Run = []
    for word in run:
        prev = out[-1] if out else None
        if prev is not None and (
            prev.text in CURRENCY
            and _digits(word.text)
            and _number(word)
            or word.text in _PERCENT
            and _digits(prev.text)
            and is_numeric(prev.text)
        ):
            out[-1] = _join(prev, word)
        else:
            out.append(word)
    return out


def _digits(text: str) -> bool:
    # A dash ("nothing here") keeps its sign apart: "$ —" is no amount.
    return any(ch.isdigit() for ch in text)


def _join(a: Word, b: Word) -> Word:
    # A currency sign stands at its column's left edge, where the column's heading is
    # centred from: the box runs from it. A "%" hangs right into the gutter: the
    # number's own edge is its column's.
    number = b if a.text in CURRENCY else a
    return Word(
        a.text + b.text,
        a.x0,
        min(a.y0, b.y0),
        number.x1,
        max(a.y1, b.y1),
        number.size,
        number.bold,
        number.font,
    )
