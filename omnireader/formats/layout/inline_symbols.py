"""A symbol set in another size inside a line of text, put back into that line.

Lines are split where the size changes (a heading beside body text is two lines). Math set
inline in a symbol font often comes at another size than the text around it, with a loose
box reaching below the line ("of time t − 1 and at the next one t + 1": the "−" and "+" at
15 pt in a 10 pt line, 7 pt lower): the line fell apart into five pieces, which the blocks
and the reading order then took for columns, and the paragraph came out scrambled.

The rule: a line of one short word (:data:`_SYMBOL_CHARS` characters at most) set in
another size, standing right after a line on its row (of two words or more, or set in the
page's main size), at most :data:`_GAP_EM` of that line's em from it and its centre within
that line's height, goes into that line; and a line of the host's size right after the
symbol, as close, comes back with it. Footnote marks set small and raised keep
their own rule (:mod:`.marks`); this one runs first and only on marks inside a line.

A symbol of the text's size may keep its line and still stretch it: TeX's "≤" and "|L|"
have boxes 1.7 em tall, reaching half a line down, and the line's box overlapping the next
line's made the blocks cut the paragraph apart. In a line taller than :data:`FULL_HEIGHT`
allows, a short word taller than that is cut to the span of the line's full-height words
(:func:`tall_symbols_fitted`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from omnireader.formats.layout.model import Line, Word

__all__ = ["FULL_HEIGHT", "symbols_joined", "tall_symbols_fitted"]

# A word's box is as tall as its type when its height is within these multiples of its
# size (a loose box, ascender to descender); a shorter one is a glyph's ink ("<" in a math
# font: 0.74 em), a taller one a symbol's loose box ("≤": 1.7 em).
FULL_HEIGHT = (0.9, 1.5)

_SYMBOL_CHARS = 3
# A word space is ~0.25 em; a line's words closer than 1.6 em stay one line.
_GAP_EM = 1.0
# The host and the line after the symbol: the same size, to this share of an em.
_SAME_SIZE_EM = 0.3


def symbols_joined(lines: list[Line], make_line: Callable[[list[Word]], Line]) -> list[Line]:
    """``lines`` (in row order, each row left to right) with each short symbol a size
    change cut out of its line back in it, and the line's rest after it rejoined."""
    out: list[Line] = []
    main = _main_size(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        host = out[-1] if out else None
        # len(line.words) != 1 is _inside's first test, asked here: most lines fail it.
        if host is None or len(line.words) != 1 or not _inside(host, line, main):
            out.append(line)
            i += 1
            continue
        words = [*host.words, *_fitted(line.words, host)]
        rest = lines[i + 1] if i + 1 < len(lines) else None
        if rest is not None and _goes_on(host, line, rest):
            words.extend(rest.words)
            i += 1
        out[-1] = make_line(words)
        i += 1
    return out


def _main_size(lines: list[Line]) -> float:
    chars: dict[float, int] = {}
    for line in lines:
        chars[line.size] = chars.get(line.size, 0) + len(line.text)
    return max(chars, key=chars.__getitem__) if chars else 0.0


def _inside(host: Line, symbol: Line, main: float) -> bool:
    if len(symbol.words) != 1 or not 0 < len(symbol.text) <= _SYMBOL_CHARS:
        return False
    em = max(host.size, 1.0)
    if len(host.words) < 2 and abs(host.size - main) > _SAME_SIZE_EM * em:
        # One word cut off by its own odd size (a mark, :mod:`.marks`) hosts nothing.
        return False
    if abs(symbol.size - host.size) <= _SAME_SIZE_EM * em:
        return False  # not cut off by its size: a gap or a gutter did it
    centre = (symbol.y0 + symbol.y1) / 2
    return host.y0 <= centre <= host.y1 and 0 <= symbol.x0 - host.x1 <= _GAP_EM * em


def _goes_on(host: Line, symbol: Line, rest: Line) -> bool:
    em = max(host.size, 1.0)
    return (
        abs(rest.size - host.size) <= _SAME_SIZE_EM * em
        and rest.y0 < host.y1
        and host.y0 < rest.y1
        and 0 <= rest.x0 - symbol.x1 <= _GAP_EM * em
    )


def _fitted(words: list[Word], host: Line) -> list[Word]:
    # A box taller than the line's cut to the line's height: a symbol font's loose box
    # reaching into the next line would make the lines overlap. A smaller one stays put.
    height = host.y1 - host.y0
    return [
        replace(w, y0=max(w.y0, host.y0), y1=min(w.y1, host.y1)) if w.y1 - w.y0 > height else w
        for w in words
    ]


def tall_symbols_fitted(lines: list[Line], make_line: Callable[[list[Word]], Line]) -> list[Line]:
    """``lines`` with each short word whose box is taller than its type (:data:`FULL_HEIGHT`)
    cut to the span of its line's full-height words, where the line has some."""
    lo, hi = FULL_HEIGHT
    out = lines
    for i, line in enumerate(lines):
        if line.y1 - line.y0 <= hi * line.size:
            continue  # nearly every line: nothing in it taller than its type
        full = [w for w in line.words if lo * w.size <= w.y1 - w.y0 <= hi * w.size]
        if not full:
            continue  # a display formula's line: its symbols are what it is
        top, bottom = min(w.y0 for w in full), max(w.y1 for w in full)
        words = [
            replace(w, y0=max(w.y0, top), y1=min(w.y1, bottom))
            if w.y1 - w.y0 > hi * w.size and len(w.text) <= _SYMBOL_CHARS
            else w
            for w in line.words
        ]
        if out is lines:
            out = list(lines)
        out[i] = make_line(words)
    return out
