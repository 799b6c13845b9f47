"""A block's lines as one paragraph: line breaks go, line-end hyphens only where the joined
word is a word.

"conver-" + "sation" is "conversation", but "open-" + "domain" is "open-domain". Which
one a hyphen is cannot be told from the page alone; the joined form counts as a word when
it appears elsewhere in the document (a :class:`Vocabulary` the caller keeps across
pages, bounded), or when the second half is a suffix that never stands alone ("-tion").
A page's breaks are decided when it is laid out, knowing the pages read so far and its own;
each decision is kept (:data:`Hyphen`) and taken again (:mod:`.late_hyphens`) once the
stream has read the pages after it, so the first pages' breaks know what later pages write.
"""

from __future__ import annotations

import re

from omnireader.formats.word_lists import load_word_list

__all__ = ["HYPHENS", "Hyphen", "Vocabulary", "join_hyphenated", "reflow"]

_WORD = re.compile(r"[^\W\d_]{2,}")
# For ASCII text the same words at C speed: every character but a letter made a space, then
# split (the regular expression took ~25 ns a character, the most of a page's learning).
_ASCII_SPACES = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha()})
_ONE_LETTER = frozenset("abcdefghijklmnopqrstuvwxyz")
# One character of a word (_WORD's class), and one outside ASCII: most pages outside ASCII
# hold only marks there (quotes, dashes, bullets), which part words as a space does.
_LETTER = re.compile(r"[^\W\d_]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# A compound inside a line (not at its end, where the hyphen may be a break).
_COMPOUND = re.compile(r"[^\W\d_]+-[^\W\d_]+(?=[^\w-]|$)")
#: The hyphens a line may end with when it breaks a word (hyphen-minus, hyphen, non-breaking).
HYPHENS = "-\u2010\u2011"
# Word endings that are not words on their own: a line-end hyphen before them is a break
# (data: ``formats/data/unbound_suffixes.txt``).
_SUFFIXES = load_word_list("unbound_suffixes").words
_MAX_VOCABULARY = 200_000
#: A line-end hyphen decided in a text: where the word starts, the word written there, and
#: the line's last word (with its hyphen) and the next line's first, to decide it again.
Hyphen = tuple[int, str, str, str]


class Vocabulary:
    """The lower-cased words seen so far in a document, capped so memory stays bounded."""

    __slots__ = ("compounds", "words")

    def __init__(self) -> None:
        self.words: set[str] = set()
        self.compounds: set[str] = set()  # hyphenated forms written within a line

    def add_text(self, text: str) -> None:
        if len(self.words) >= _MAX_VOCABULARY:
            return
        spaced = text
        if not text.isascii():
            # Its marks outside ASCII made spaces, the text is ASCII (the regular expression
            # costs twice that); a letter outside ASCII (é) needs the regular expression.
            for mark in set(_NON_ASCII.findall(text)):
                if _LETTER.match(mark):
                    self.words.update(map(str.lower, _WORD.findall(text)))
                    spaced = ""
                    break
                spaced = spaced.replace(mark, " ")
        if spaced:  # lower case first, once: the same words for ASCII text
            found = set(spaced.lower().translate(_ASCII_SPACES).split())
            self.words.update(found - _ONE_LETTER)  # [^\W\d_]{2,}: two letters or more
        if "-" in text:
            # Only the words with a hyphen: a compound never spans a space, and the scan
            # costs a few steps a letter.
            hyphenated = " ".join(word for word in text.split() if "-" in word)
            self.compounds.update(map(str.lower, _COMPOUND.findall(hyphenated)))

    def __contains__(self, word: str) -> bool:
        return word in self.words


def join_hyphenated(head: str, tail: str, vocabulary: Vocabulary) -> str:
    """``head`` (ending in a hyphen) and ``tail`` (the next line's first word) as one word.

    The hyphen goes when the joined form is a word of the document, or the tail a suffix;
    it stays when the hyphenated form is (``open-domain`` elsewhere), or when both halves
    are words of the document and the joined form is not ("open" and "domain"), or the
    halves are one word twice ("so-so", "pindaan-pindaan": a word broken in two never
    is), or when the head is a compound already ("state-of-the-"). Otherwise — halves
    that are no words, as in "con-" + "firming" — it goes.
    """
    stem = head.rstrip(HYPHENS)
    if not stem or not stem[-1].isalpha() or not tail[:1].islower():
        return head + tail
    match = re.match(r"[^\W\d_]+", tail)
    letters = (match.group(0) if match else "").lower()
    core = re.search(r"[^\W\d_]+$", stem)
    first = (core.group(0) if core else "").lower()
    if stem[: len(stem) - len(first)].endswith(tuple(HYPHENS)):
        return head + tail  # a compound running on ("mixture-of-" + "experts")
    if first + letters in vocabulary or letters in _SUFFIXES:
        return stem + tail
    if f"{first}-{letters}" in vocabulary.compounds or first == letters:  # "so-so"
        return head + tail
    if len(first) > 1 and len(letters) > 1 and first in vocabulary and letters in vocabulary:
        return head + tail
    return stem + tail


def reflow(
    lines: list[str],
    vocabulary: Vocabulary,
    breaks: list[bool] | None = None,
    hyphens: list[Hyphen] | None = None,
) -> str:
    """Lines of one paragraph as one line of text. ``breaks[i]`` says line ``i`` ended
    on purpose (it stops well short of the block's right edge: a list of short lines, an
    address): the break after it is kept. Each line-end hyphen decided is appended to
    ``hyphens``, when given."""
    out = ""
    for i, line in enumerate(lines):
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        if breaks is not None and breaks[i - 1]:
            out = f"{out}\n{line}"
            continue
        if out[-1] in HYPHENS and len(out) > 1 and out[-2].isalpha():
            head_start = out.rfind(" ") + 1
            tail, _, rest = line.partition(" ")
            word = join_hyphenated(out[head_start:], tail, vocabulary)
            if hyphens is not None:
                hyphens.append((head_start, word, out[head_start:], tail))
            out = out[:head_start] + word + (" " + rest if rest else "")
        else:
            out = f"{out} {line}"
    return out
