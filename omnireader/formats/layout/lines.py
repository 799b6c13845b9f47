"""Words → lines: runs of words on one baseline with no wide gap inside (blocks of lines
are ``blocks.py``; their reading order is ``order.py``).

Two columns side by side give two lines at the same height, which is what lets columns be
found at all. A label ("ITEM 1A.", "1.2", "(a)", a bullet) and the text a tab after it stay
one line; a list item's marker is read here too (``item_marker``), for the blocks and
paragraphs that stack the lines.
"""

from __future__ import annotations

import re
from operator import attrgetter

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.bidi import line_text
from omnireader.formats.layout.drop_caps import caps_joined
from omnireader.formats.layout.gutters import find_gutters, gutter_at
from omnireader.formats.layout.inline_symbols import (
    FULL_HEIGHT,
    symbols_joined,
    tall_symbols_fitted,
)
from omnireader.formats.layout.marks import marks_joined
from omnireader.formats.layout.model import Line, Word
from omnireader.formats.layout.stretched_lines import stretched_joined

__all__ = ["BULLETS", "item_marker", "item_text_x0", "is_label", "make_line", "make_lines"]

#: The glyphs a bulleted list item starts with (symbol fonts' private-use bullets too).
BULLETS = "\u2022\u25cf\u25aa\u25a0\u25e6\u2023\u2043\u00b7\u27a2\uf0b7\uf0a7\uf0d8\uf076"
# A numbered item's label: "1." "2)" "(a)" "b." "iv)" (a capital "A." is too often an initial).
_NUMBERED = re.compile(
    r"^(?:\d{1,2}[.)]|[a-z][.)]|[ivx]{1,4}[.)]|\((?:\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})\))$"
)

# Inside a line, a gap wider than this (in em of the line's size) separates two lines.
_SPLIT_EM = 1.6
# A label ("ITEM 1A.", "1.2", "(a)", a bullet) and the text a tab away are one line.
_LABEL_GAP_EM = 8.0
_LABEL = re.compile(
    r"^(?:(?:item|part|section|article|chapter|note|schedule)\s+)?"
    # An exhibit's "10.2*", "*21", "10.1†" (filed herewith, a plan, a confidential part).
    r"(?:[*\u2020\u2021]{1,2}(?=\d))?"
    r"(?:\.?\d{1,3}(?:\.\d{1,3}){0,3}[a-z]?|[A-Z]|[IVXLC]{1,6}|\([a-z0-9]{1,3}\))[.):]?"
    r"[*\u2020\u2021]{0,2}$"
    r"|^[\u2022\u25cf\u25aa\u25e6\u2013\u2014\u00b7\u2043\uf0b7\-*\u2610-\u2612]$",  # ☐☑☒ too
    re.IGNORECASE,
)

# A column of labels, each with its text on its baseline starting at one x ("3.1" ...
# "Certificate of Incorporation", an exhibit index): a label this many em at most from
# its text, when at least _COLUMN_ROWS rows agree.
_COLUMN_GAP_EM = 20.0
_COLUMN_ROWS = 3

_X0 = attrgetter("x0")
# The compiled line loop this module calls (``_loops.LINE_LOOP``): 2 takes the gutters as a
# list (checked in C) instead of a callback per pair of neighbours.
_LINE_LOOP = 2


def make_lines(words: list[Word], width: float = 0.0, compiled: bool = True) -> list[Line]:
    """Words grouped into lines, top to bottom, each split at wide gaps and, given the
    page's ``width``, at its column gutters (``gutters.py``). Every word of a page passes
    here: the compiled loops (``_loops.c``) run it where they are built and ``compiled`` is
    true (tests compare the two)."""
    if not words:
        return []
    bands = pdfium_calls.compiled("bands", compiled)
    split = pdfium_calls.compiled("split_rows", compiled)
    if getattr(pdfium_calls.loops, "LINE_LOOP", 1) != _LINE_LOOP:
        split = None  # a build from an older _loops.c: its split_rows takes a callback
    rows = bands(words) if bands is not None and split is not None else None
    if rows is None:
        split = None  # not built, or a coordinate that is no number: Python decides
        rows = _bands(words)
    gutters = find_gutters(rows, width, compiled) if width else []
    label_gap = _label_gap(rows, compiled)
    if split is not None:
        lines: list[Line] = split(
            rows, _SPLIT_EM, label_gap, Line, _is_label, gutters or None, make_line
        )
        return _rejoined(lines)
    lines = []
    for row in rows:
        run = [row[0]]
        for word in row[1:]:
            prev = run[-1]
            em = max(prev.size, word.size, 1.0)
            wide = word.x0 - prev.x1 > _SPLIT_EM * em
            if wide and word.x0 - prev.x1 <= label_gap * em and _is_label(run):
                run.append(word)  # "ITEM 1A." / "1.2" / "•", a tab, then its text
                continue
            if (
                wide
                or abs(word.size - prev.size) > 0.3 * em
                or (gutters and gutter_at(gutters, prev, word))
            ):
                lines.append(make_line(run))
                run = [word]
            else:
                run.append(word)
        lines.append(make_line(run))
    return _rejoined(lines)


def _rejoined(lines: list[Line]) -> list[Line]:
    # A justified line cut at its stretched spaces; then what a size change cut off its
    # line: drop caps, bullets, inline symbols (and a symbol's box cut to its line's),
    # footnote marks.
    lines = caps_joined(stretched_joined(lines, make_line), make_line)
    lines = tall_symbols_fitted(symbols_joined(_bullets_joined(lines), make_line), make_line)
    return marks_joined(lines, make_line)


def _label_gap(rows: list[list[Word]], compiled: bool = True) -> float:
    """How far (in em) a label may stand from its text on this page: :data:`_LABEL_GAP_EM`,
    or up to :data:`_COLUMN_GAP_EM` where rows whose first word is a label at one x all
    have their next word at one x (a column of labels beside a column of text). Compiled
    (``_loops.label_gap``) where it is built, as the other loops here."""
    fast = pdfium_calls.compiled("label_gap", compiled)
    got = (
        fast(rows, _LABEL.match, _LABEL_GAP_EM, _COLUMN_GAP_EM, _COLUMN_ROWS)
        if fast is not None
        else None
    )
    if got is not None:
        return got  # type: ignore[no-any-return]
    pairs: dict[tuple[int, int], float] = {}
    counts: dict[tuple[int, int], int] = {}
    for row in rows:
        if len(row) < 2 or not is_label(row[0].text):
            continue
        first, nxt = row[0], row[1]
        gap = (nxt.x0 - first.x1) / max(first.size, nxt.size, 1.0)
        if 0 < gap <= _COLUMN_GAP_EM:
            key = (round(first.x0), round(nxt.x0))
            counts[key] = counts.get(key, 0) + 1
            pairs[key] = max(pairs.get(key, 0.0), gap)
    wide = [pairs[key] for key, n in counts.items() if n >= _COLUMN_ROWS]
    return max([_LABEL_GAP_EM, *(gap + 0.01 for gap in wide)])


def _bullets_joined(lines: list[Line]) -> list[Line]:
    """Each bullet set as a line of its own joined to the text a tab to its right: a symbol
    font's bullet glyph ("\uf0b7") often has a box of a few points, so its size differs from
    its text's and the split by size cut it off (the bullets then gathered as a column of
    bare lines after the list)."""
    out: list[Line] = []
    for line in lines:
        bullet = out[-1] if out else None
        if (
            bullet is not None
            and len(bullet.words) == 1
            and bullet.text in BULLETS
            and 0 <= line.x0 - bullet.x1 <= _LABEL_GAP_EM * max(line.size, 1.0)
            and line.y0 <= (bullet.y0 + bullet.y1) / 2 <= line.y1
        ):
            out[-1] = make_line([*bullet.words, *line.words])
        else:
            out.append(line)
    return out


def _bands(words: list[Word]) -> list[list[Word]]:
    """The words in rows, top to bottom, each left to right: a word joins the row while
    (twice) its centre is inside the span of the row's first word, or, when that word's
    box is shorter than its type, of the first full-height word that joined it too."""
    # Twice the centre, to spare a division and a property call per word.
    ordered = sorted(words, key=lambda w: (w.y0 + w.y1, w.x0))
    rows: list[list[Word]] = []
    band_top = band_bottom = -1e9
    short = False
    for word in ordered:
        if rows and band_top <= word.y0 + word.y1 <= band_bottom:
            rows[-1].append(word)
            if (
                short
                and FULL_HEIGHT[0] * word.size <= word.y1 - word.y0 <= FULL_HEIGHT[1] * word.size
            ):
                # A math glyph's box is its ink ("<", ">" in 7.7 pt of 10.4 pt type): the
                # row is as tall as its text, else a loose symbol's box ("≤" reaching a line
                # down) centred just below the glyph's starts a row that takes the next line.
                band_top = min(band_top, 2 * word.y0)
                band_bottom = max(band_bottom, 2 * word.y1)
                short = False
        else:
            rows.append([word])
            band_top, band_bottom = 2 * word.y0, 2 * word.y1
            short = word.y1 - word.y0 < FULL_HEIGHT[0] * word.size
    for row in rows:
        row.sort(key=_X0)
    return rows


def item_marker(line: Line) -> str | None:
    """``"bullet"`` when ``line`` opens a bulleted list item, ``"number"`` a numbered one or
    one led by a dash (those also start lines that merely wrap), else None."""
    text = line.text
    if not text:
        return None
    if text[0] in BULLETS:
        return "bullet"
    words = line.words
    if len(words) > 1 and (
        words[0].text in ("-", "\u2013", "\u2014") or _NUMBERED.match(words[0].text)
    ):
        return "number"
    return None


def item_text_x0(line: Line) -> float | None:
    """Where the text after ``line``'s list marker starts, when it opens a list item."""
    words = line.words
    if len(words) < 2 or item_marker(line) is None:
        return None
    return words[1].x0


def _is_label(run: list[Word]) -> bool:
    """A run that is only a number, a bullet or "Item 7." — what a tab follows."""
    return len(run) <= 2 and is_label(" ".join(w.text for w in run))


def is_label(text: str) -> bool:
    """``text`` is a list item's or a section's label: "1.", ".1", "(a)", "Item 7.", "•"."""
    return bool(_LABEL.match(text))


def make_line(words: list[Word]) -> Line:
    """A line of ``words`` (left to right): its box, main size, weight and text."""
    # The size of most of its characters: one big drop cap or superscript does not decide.
    weights: dict[float, int] = {}
    for w in words:
        weights[w.size] = weights.get(w.size, 0) + len(w.text)
    size = max(weights, key=weights.__getitem__)
    bold_chars = sum(len(w.text) for w in words if w.bold)
    return Line(
        words,
        min([w.x0 for w in words]),
        min([w.y0 for w in words]),
        max([w.x1 for w in words]),
        max([w.y1 for w in words]),
        size,
        bold_chars * 2 > sum(weights.values()),
        line_text(words),
    )
