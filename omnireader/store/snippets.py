"""The part of a long document chunk that answers the question: its best lines, in order.

Under a character budget a whole chunk of a filing (~2,500 characters) is a third of 6,000:
two or three hits fill it, all from one or two pages, when the page that holds the answer is
often the fourth hit. So a budgeted search first shows each long document hit as a window of
at most :data:`WINDOW_CHARS` characters (the best hit twice that): the run of its lines that holds the most of the
question's words (each word counted once, the question's own words twice the words
:mod:`.expansion` added). A window inside a Markdown table keeps the table's header row above
it. :func:`omnireader.store.doc_passages.expand` gives a windowed hit its whole chunk back,
best hit first, when the budget still has room once every hit is placed.

Words match by their first :data:`_STEM` letters ("expenditures" matches "expenditure"),
numbers whole ("2018").
"""

from __future__ import annotations

import re

from omnireader.store.expansion import expand, normal
from omnireader.store.lexicon import ENGLISH_STOP_WORDS

__all__ = ["WINDOW_CHARS", "window", "window_size", "query_terms"]

#: a long document hit is first shown as this many characters of its best lines (0: whole)
WINDOW_CHARS = 1000
_STEM = 6
_ELLIPSIS = "…"
_WORDS = re.compile(r"[a-z0-9]+")
_STOP = frozenset(ENGLISH_STOP_WORDS)
_RULE = re.compile(r"^\|?\s*:?-{3,}")  # a Markdown table's header separator


def window_size(placed: int) -> int:
    """The window for a hit placed after ``placed`` passages: the best hit gets twice the
    room (measured: FinanceBench dev cov@6k 0.561 -> 0.613 filtered, page@6k 0.676 -> 0.647,
    docs/search.md)."""
    return WINDOW_CHARS * (2 if placed == 0 else 1)


def _key(word: str) -> str:
    return word if word.isdigit() else word[:_STEM]


def query_terms(query: str) -> dict[str, int]:
    """The question's words as match keys, weighted: its own 2, the expansion's 1."""
    own = {_key(w) for w in _WORDS.findall(normal(query)) if w not in _STOP and len(w) > 1}
    added = {_key(w) for w in _WORDS.findall(normal(expand(query))) if w not in _STOP}
    return {**{k: 1 for k in added if len(k) > 1}, **{k: 2 for k in own}}


def window(text: str, terms: dict[str, int], max_chars: int | None = None) -> str | None:
    """The best run of ``text``'s lines within ``max_chars`` (default :data:`WINDOW_CHARS`;
    None: the text fits whole, or no line holds a term)."""
    if max_chars is None:
        max_chars = WINDOW_CHARS
    if max_chars <= 0 or len(text) <= max_chars or not terms:
        return None
    lines = text.split("\n")
    keys = [{_key(w) for w in _WORDS.findall(normal(line))} & terms.keys() for line in lines]
    best: tuple[int, int, int] | None = None  # (score, -start, end)
    for start in range(len(lines)):
        if not keys[start]:
            continue  # a window starts on a line that matches
        seen: set[str] = set()
        size = -1
        for end in range(start, len(lines)):
            size += len(lines[end]) + 1
            if size > max_chars - 2:
                break
            seen |= keys[end]
            score = sum(terms[k] for k in seen)
            if best is None or score > best[0]:
                best = (score, -start, end + 1)
    if best is None:
        return None
    start, end = -best[1], best[2]
    head = _table_head(lines, start)
    body = lines[start:end]
    if head and sum(len(x) + 1 for x in head + body) <= max_chars - 2:
        body = head + body
    lead = [_ELLIPSIS] if start > 0 and not head else []
    tail = [_ELLIPSIS] if end < len(lines) else []
    return "\n".join(lead + body + tail)


def _table_head(lines: list[str], start: int) -> list[str]:
    """The header row and separator of the Markdown table ``lines[start]`` is in, if above it."""
    if not lines[start].lstrip().startswith("|"):
        return []
    i = start
    while i > 0 and lines[i - 1].lstrip().startswith("|"):
        i -= 1
    if i + 1 < start and _RULE.match(lines[i + 1].strip()):
        return lines[i : i + 2]
    return []
