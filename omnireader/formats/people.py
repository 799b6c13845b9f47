"""Which document authors are people: a creator property often names a tool or a default.

Office, PDF and e-book properties carry an author, but writers fill it with whatever they
have: the library that made the file ("python-docx", "openpyxl"), the account's default
name ("Microsoft Office User", "Administrator", "user"), or the licensee company
("Acme Corp"). Those are not persons, and listing them makes every file of a tool look
written by one man. The rules are here, in one place, so every format uses the same ones.

    >>> people(["python-docx", "Ana Lima", "Administrator", "Ana Lima"])
    ['Ana Lima']

Only document properties go through these rules; an e-mail's sender is a person by what
the message says (its address can name a company domain without being a company).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from omnireader.formats.name_order import natural_order
from omnireader.formats.word_lists import load_word_list

__all__ = ["is_person", "people"]

# The lists are data (``data/placeholder_names.txt``: whole values such as "Administrator"
# or "User1"; ``data/not_person_words.txt``: words such as "python", "office", "inc").
_WORD = re.compile(r"[^\W_]+")
# A version number ("1.2.3", "v3") is a program's, never a person's.
_VERSION = re.compile(r"\d+\.\d+|\bv\d+\b", re.IGNORECASE)
_LONGEST = 80  # a longer value is a sentence or a list someone pasted, not one name
# A directory's qualifier after the name, "Yuzhong Zhang (SSE,123090848)", "Ana Lima [EXT]":
# a department, an account or staff number, no part of the name a search would use.
_QUALIFIER = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\])\s*$")


def is_person(name: str | None) -> bool:
    """Whether the author property ``name`` names a person (not a tool, default or company).

    >>> is_person("Shay Hill"), is_person("python-docx"), is_person("Microsoft Office User")
    (True, False, False)
    """
    if not name:
        return False
    text = " ".join(name.split())
    folded = text.casefold()
    if not text or len(text) > _LONGEST or load_word_list("placeholder_names").match(text):
        return False
    if _VERSION.search(text):
        return False
    words = _WORD.findall(folded)
    if not words or all(w.isdigit() for w in words):
        return False
    not_person = load_word_list("not_person_words").words
    return not any(w in not_person for w in words)


def people(names: Iterable[str | None]) -> list[str]:
    """The values of ``names`` that are persons, whitespace tidied, a trailing qualifier in
    brackets dropped ("Ana Lima (Sales)" is Ana Lima) and "Lima, Ana" turned to "Ana Lima"
    (:func:`.name_order.natural_order`), each once, in order."""
    out: dict[str, None] = {}
    for name in names:
        name = _QUALIFIER.sub("", name or "")
        if name and is_person(name):
            out.setdefault(natural_order(" ".join(name.split())), None)
    return list(out)
