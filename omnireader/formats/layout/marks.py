"""Footnote marks set small and raised, put back into the line they belong to.

A mark like "(b)" after a table's row label, "1" before a footnote's text or "²" after a
word is set a few points smaller than its line and raised off the baseline. Lines are
split where the size changes (a heading beside body text is two lines) and banded by their
words' centres, so such a mark ended up a line of its own: after its line, before it, or
above it, cutting "Short-term borrowings (b)" into two lines and a table row into two rows.

The rule: a line of one short word (:data:`_MARK_CHARS` characters at most), set at least
:data:`_SMALLER` smaller than a line beside it, sitting within that line's height (its
centre inside the line's box, its top at most :data:`_ABOVE_EM` above it), with at most
:data:`_GAP_EM` of an em between them (:data:`_LABEL_GAP_EM` for a note's label before
its text), goes into that line at its x position; a line
the mark had cut off after it, of the host's size, comes back too. It could misfire
on a small number in a table's next column set tight against a larger label.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from omnireader.formats.layout.model import Line, Word

__all__ = ["marks_joined"]

_MARK_CHARS = 4
# The host's size is at least this many times the mark's.
_SMALLER = 1.15
# The mark's box may stand this far (in the host's em) above the host's top.
_ABOVE_EM = 0.3
# The gap between the mark and the host's text, in the host's em (a word gap is ~0.25 em;
# a line's words closer than 1.6 em stay one line).
_GAP_EM = 1.0
_SPLIT_EM = 1.6
# A note's own label ("(a)", "(1)", "*") hangs in the margin left of its note's indented
# text: up to this many of the text's em before it (Boeing's, Lockheed's, Pfizer's notes
# under their tables stand 1.1 to 1.3 em apart).
_LABEL_GAP_EM = 2.0
_NOTE_LABEL = re.compile(r"^(?:\(?[a-z0-9]{1,2}\)|[a-z0-9]|\*{1,3}|[\u2020\u2021\u00a7])$")


def marks_joined(lines: list[Line], make_line: Callable[[list[Word]], Line]) -> list[Line]:
    """``lines`` with each footnote mark that stood alone back in its line (the rule in
    the module's docstring); lines the mark had split rejoined through it."""
    largest = max((line.size for line in lines), default=0.0)
    # _mark_like's first test inline: nearly every line holds more than one word.
    marks = [
        i for i, line in enumerate(lines) if len(line.words) == 1 and _mark_like(line, largest)
    ]
    if not marks:
        return lines
    out: list[Line | None] = list(lines)
    for i in marks:
        mark = out[i]
        if mark is None:
            continue
        host_at = _host(out, i, mark)
        if host_at is None:
            continue
        host = out[host_at]
        assert host is not None
        words = [*host.words, *mark.words]
        out[i] = None
        # The rest of a line the mark had cut in two, on its other side.
        rest_at = _rest(out, host, mark)
        if rest_at is not None:
            rest = out[rest_at]
            assert rest is not None
            words.extend(rest.words)
            out[rest_at] = None
        out[host_at] = make_line(sorted(words, key=_x0))
    return [line for line in out if line is not None]


def _x0(word: Word) -> float:
    return word.x0


def _mark_like(line: Line, largest: float) -> bool:
    return (
        len(line.words) == 1
        and 0 < len(line.text) <= _MARK_CHARS
        and _SMALLER * line.size <= largest
    )


def _host(lines: list[Line | None], index: int, mark: Line) -> int | None:
    """The index of the line ``mark`` belongs in, or None."""
    centre = (mark.y0 + mark.y1) / 2
    before_at = None
    lead = _LABEL_GAP_EM if _NOTE_LABEL.match(mark.text) else _GAP_EM
    for at, line in enumerate(lines):
        if line is None or at == index or line.size < _SMALLER * mark.size:
            continue
        em = max(line.size, 1.0)
        if not (line.y0 <= centre <= line.y1 and mark.y0 >= line.y0 - _ABOVE_EM * em):
            continue
        if -0.3 * em <= mark.x0 - line.x1 <= _GAP_EM * em or _in_gap(line, mark, em):
            return at  # a mark follows the word it refers to: that line first
        if before_at is None and -0.3 * em <= line.x0 - mark.x1 <= lead * em:
            before_at = at  # a footnote's own mark, before its text
    return before_at


def _in_gap(line: Line, mark: Line, em: float) -> bool:
    """``mark`` stands over a gap between two of ``line``'s words, right after the first
    ("Rise of Shadows™, Saviors of Uldum™": the line was whole, the marks over it)."""
    words = line.words
    return any(
        -0.3 * em <= mark.x0 - a.x1 <= _GAP_EM * em and mark.x1 <= b.x0 + 0.3 * em
        for a, b in zip(words, words[1:])
    )


def _rest(lines: list[Line | None], host: Line, mark: Line) -> int | None:
    """The index of a line of ``host``'s size that begins just right of ``mark`` set after
    ``host``, on ``host``'s height, or None (a mark before its line cut nothing off)."""
    em = max(host.size, 1.0)
    if mark.x0 < host.x1 - 0.3 * em:
        return None
    for at, line in enumerate(lines):
        if line is None or line is host:
            continue
        if abs(line.size - host.size) > 0.3 * em:
            continue
        if not (line.y0 < host.y1 and host.y0 < line.y1):
            continue
        gap = line.x0 - mark.x1
        if 0 <= gap <= _SPLIT_EM * em:
            return at
    return None
