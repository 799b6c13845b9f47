"""A drop cap put back at the start of its paragraph's first word.

Books, magazines and reports open a section with a large initial letter sunk into the
paragraph, its first lines set to the right of it ("I" at 80 pt beside "ndia suffers from
…" at 11 pt). Lines are split where the size changes, and the letter's loose box is far
taller than a line, so it came out as a line, then a paragraph, of its own: "I" / "ndia
suffers from …".

The rule: a line that is one letter (an opening quote may lead it), at least
:data:`_CAP_RATIO` times the size of the lines beside it, with at least two lines of one
size starting at one x just right of it (within :data:`_GAP_EM` of their em) whose centres
lie inside its box: the letter goes in front of the topmost of them, with no space (the
paragraph's first word begins with it). A letter that is a word of its own ("I", "A";
``data/one_letter_words.txt``) stays one, a space after it, when the rest of that first word
stands as a word elsewhere on the page: "I" beside "was born …" reads "I was born …", "I"
beside "ndia …" still "India …".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from omnireader.formats.layout.model import Line, Word
from omnireader.formats.word_lists import load_word_list

__all__ = ["caps_joined"]

# A drop cap spans two lines or more: over twice the size of its text.
_CAP_RATIO = 2.0
# From the letter's right edge to its lines' start, in the lines' em (a cap sits close).
_GAP_EM = 2.0
# The lines beside the letter start at one x, to this share of their em.
_SAME_X_EM = 0.5
_QUOTES = "\"'\u2018\u201c\u00ab"


def caps_joined(lines: list[Line], make_line: Callable[[list[Word]], Line]) -> list[Line]:
    """``lines`` with each drop cap gone into the first word of the first line beside it."""
    caps = [i for i, line in enumerate(lines) if _letter(line)]
    if not caps:
        return lines  # nearly every page: one test per line
    into: dict[int, int] = {}  # cap line → the line it opens
    for i in caps:
        host = _host(lines, lines[i])
        if host is not None and host not in into.values():
            into[i] = host
    if not into:
        return lines
    opens = {host: lines[cap] for cap, host in into.items()}
    out: list[Line] = []
    for i, line in enumerate(lines):
        if i in into:
            continue
        cap = opens.get(i)
        if cap is not None:
            first = line.words[0]
            if _a_word_of_its_own(cap, first, lines):
                # The letter as a word of its own: set before the line, a space between.
                word = replace(first, text=cap.text, x1=first.x0)
                line = make_line([word, *line.words])
            else:
                line = make_line([replace(first, text=cap.text + first.text), *line.words[1:]])
        out.append(line)
    return out


def _a_word_of_its_own(cap: Line, first: Word, lines: list[Line]) -> bool:
    """Whether ``cap`` is a one-letter word and ``first`` (the rest) a word elsewhere on
    the page: "I" + "was", not "I" + "ndia"."""
    if not load_word_list("one_letter_words").match(cap.text.lstrip(_QUOTES)):
        return False
    rest = first.text.strip(".,;:!?\u2019'\"").casefold()
    return any(
        w is not first and w.text.strip(".,;:!?\u2019'\"").casefold() == rest
        for line in lines
        for w in line.words
    )


def _letter(line: Line) -> bool:
    if len(line.words) != 1:
        return False
    text = line.text.lstrip(_QUOTES)
    return len(text) == 1 and text.isalpha() and len(line.text) <= 2


def _host(lines: list[Line], cap: Line) -> int | None:
    """The topmost of the lines beside ``cap`` when two or more start at one x there."""
    beside = [
        i
        for i, line in enumerate(lines)
        if line is not cap
        and cap.size >= _CAP_RATIO * line.size
        and cap.y0 <= (line.y0 + line.y1) / 2 <= cap.y1
        and 0 <= line.x0 - cap.x1 <= _GAP_EM * max(line.size, 1.0)
    ]
    if len(beside) < 2:
        return None
    top = min(beside, key=lambda i: lines[i].y0)
    first = lines[top]
    em = max(first.size, 1.0)
    same = [
        i
        for i in beside
        if abs(lines[i].x0 - first.x0) <= _SAME_X_EM * em
        and abs(lines[i].size - first.size) <= 0.1 * em
    ]
    return top if len(same) >= 2 else None
