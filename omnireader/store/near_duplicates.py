"""Near-duplicate texts: the same paragraph up to whitespace, case, hyphenation and small edits.

Exact duplicates share an id already (ids hash content), so they are one item seen at several
places (``seen_at``). A near duplicate (the same clause in two contracts, re-flowed; a quoted
e-mail with a typo fixed) has another id; :class:`NearIndex` finds the stored text it repeats,
so the writer can link the two (one memory, every source kept; see
:mod:`omnireader.batch.near_links`).

Precision comes first: two texts are near duplicates only when

- they are at least :data:`MIN_CHARS` characters long (canonical), and their canonical
  forms (:func:`canonical`: Unicode-normalised, lower case, hyphenation joined, punctuation
  and whitespace runs made single spaces) are equal, or differ by small edits: a similarity
  ratio of at least :data:`MIN_RATIO`; and
- their numbers (every run of digits) are the same, in the same order, and no word that
  differs between them is a name (written with a capital letter inside a sentence, in either
  text), so "revenue rose 4%" never links to "revenue rose 5%", nor "Alice signed" to
  "Alicia signed", while "the Company" still links to "THE COMPANY".

Candidates come from three buckets per text (its opening, middle and closing words): a small
edit leaves at least one of them intact, and only texts that share one are compared.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from difflib import SequenceMatcher

from omnireader.store.number_words import NUMBER_WORDS

__all__ = ["canonical", "compatible", "NearIndex", "MIN_RATIO", "MIN_CHARS"]

#: the least similarity (difflib ratio of the canonical forms) of two texts linked by edits
MIN_RATIO = 0.96
#: texts shorter than this (canonical) are never linked: a heading or a one-line figure
#: ("Net income: 12") means something else in each document it is in
MIN_CHARS = 80
_BUCKET_WORDS = 6
_VARIANT_RATIO = 0.75  # "wihtin" / "within" 0.83, "four" / "fourth" 0.8 (a number word: guarded)

_HYPHEN_BREAK = re.compile(r"(\w)[-\u00ad\u2010]\s*\n\s*(\w)")
_SOFT = re.compile("[\u00ad\u200b\u200c\u200d\ufeff]")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_NUMBER = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def canonical(text: str) -> str:
    """``text`` as compared: NFKC, hyphenated line breaks joined, lower case, every run of
    punctuation and whitespace one space."""
    text = unicodedata.normalize("NFKC", _SOFT.sub("", text))
    text = _HYPHEN_BREAK.sub(r"\1\2", text)
    return _NON_WORD.sub(" ", text.lower()).strip()


class _Facts:
    """What the guard compares of one text: its numbers in order, its words, its names."""

    __slots__ = ("numbers", "words", "names")

    def __init__(self, text: str, form: str) -> None:
        raw = _HYPHEN_BREAK.sub(r"\1\2", unicodedata.normalize("NFKC", _SOFT.sub("", text)))
        self.numbers = tuple(_NUMBER.findall(raw))
        self.words = Counter(form.split())
        names = set()
        for m in _WORD.finditer(raw):
            word = m.group(0)
            if not word[0].isupper():
                continue
            before = raw[: m.start()].rstrip(" \t\"'([“‘")
            opening = not before or before[-1] in ".!?:;\n•-–—*#|>"
            if not opening:
                names.add(word.lower())
        self.names = frozenset(names)


def compatible(a: _Facts, b: _Facts) -> bool:
    """Whether two nearly equal texts may be linked: the same numbers in the same order, and
    every word that differs between them a spelling variant of one in the other (a typo,
    "colour" / "color"), none of them a name (capitalised inside a sentence, in either text)
    or a number or negation word (:data:`NUMBER_WORDS`). A word added or dropped ("shall
    not") is a change of meaning, not an edit."""
    if a.numbers != b.numbers:
        return False
    only_a, only_b = a.words - b.words, b.words - a.words  # as multisets: "not" twice or once
    if only_a.total() != only_b.total():
        return False
    guarded = a.names | b.names | NUMBER_WORDS
    if guarded.intersection(only_a) or guarded.intersection(only_b):
        return False
    return all(any(_variant(x, y) for y in only_b) for x in only_a)


def _variant(x: str, y: str) -> bool:
    return x[0] == y[0] and SequenceMatcher(None, x, y).ratio() >= _VARIANT_RATIO


def _buckets(words: list[str]) -> list[str]:
    n = _BUCKET_WORDS
    if len(words) <= n:
        return [" ".join(words)]
    mid = max(0, len(words) // 2 - n // 2)
    return [
        "a:" + " ".join(words[:n]),
        "m:" + " ".join(words[mid : mid + n]),
        "z:" + " ".join(words[-n:]),
    ]


class NearIndex:
    """Texts already stored (in one scope), to find the one a new text nearly repeats."""

    def __init__(self) -> None:
        self._exact: dict[str, str] = {}  # canonical text -> id
        self._buckets: dict[str, list[str]] = {}  # bucket -> ids
        self._texts: dict[str, tuple[str, _Facts]] = {}

    def __len__(self) -> int:
        return len(self._texts)

    def add(self, item_id: str, text: str) -> None:
        form = canonical(text)
        if len(form) < MIN_CHARS or item_id in self._texts:
            return
        self._exact.setdefault(form, item_id)
        self._texts[item_id] = (form, _Facts(text, form))
        for b in _buckets(form.split()):
            self._buckets.setdefault(b, []).append(item_id)

    def find(self, item_id: str, text: str) -> str | None:
        """The id of a stored text ``text`` nearly repeats (not ``item_id`` itself), or None."""
        form = canonical(text)
        if len(form) < MIN_CHARS:
            return None
        facts = _Facts(text, form)
        same = self._exact.get(form)
        if same is not None and same != item_id and compatible(self._texts[same][1], facts):
            return same
        seen: set[str] = set()
        for b in _buckets(form.split()):
            for other in self._buckets.get(b, ()):
                if other == item_id or other in seen:
                    continue
                seen.add(other)
                other_form, other_facts = self._texts[other]
                if abs(len(other_form) - len(form)) > len(form) * 0.1:
                    continue
                if not compatible(other_facts, facts):
                    continue
                matcher = SequenceMatcher(None, form, other_form, autojunk=False)
                if matcher.quick_ratio() >= MIN_RATIO and matcher.ratio() >= MIN_RATIO:
                    return other
        return None
