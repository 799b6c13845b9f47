"""A page's line-end hyphens decided again as the pages after it are read.

A hyphen at a line end is decided by the document's vocabulary (:mod:`.reflow`), which on
the first pages has not seen the words later pages write ("program-related" on page 40 for
"program-" / "related" on page 3). The layout stream decides each again when the page
leaves its furniture window (:data:`.furniture.WINDOW` pages late), and once more when it
leaves the stream, :data:`HOLD` pages later still: a page is given back only then, so its
words know what a good part of the document writes. Decisions are kept with their block
(``Block.hyphens``) and follow each change, so the second decision finds them.
"""

from __future__ import annotations

from omnireader.formats.layout.reflow import Hyphen, Vocabulary, join_hyphenated

__all__ = ["HOLD", "decide_again"]

#: Pages a finished page waits before it leaves the stream (its hyphens decided again).
#: Holding costs only memory (a page's final blocks and Markdown, tens of kilobytes): the
#: file parser makes its items when the document ends anyway.
HOLD = 16


def decide_again(
    text: str, hyphens: list[Hyphen], vocabulary: Vocabulary
) -> tuple[str, list[Hyphen]]:
    """``text`` with its line-end ``hyphens`` (as :func:`.reflow.reflow` gave them) decided
    with what ``vocabulary`` knows now, and the decisions as they stand in the new text. A
    word no longer where it was (the text was joined or cut since) is left, and dropped."""
    out: list[Hyphen] = []
    for start, word, head, tail in reversed(hyphens):  # from the end: earlier starts hold
        if text[start : start + len(word)] != word:
            continue
        again = join_hyphenated(head, tail, vocabulary)
        if again != word:
            text = text[:start] + again + text[start + len(word) :]
            shift = len(again) - len(word)
            out = [(s + shift, w, h, t) for s, w, h, t in out]  # the ones after it moved
        out.append((start, again, head, tail))
    out.reverse()
    return text, out
