"""A person's name written "Surname, Given", turned to the order it is said in.

Directories (Exchange, Active Directory) display people as "Bottema, Benny", and a message
from Benny Bottema's private address shows "Benny Bottema": two spellings of one person,
and a search for persons=["Benny Bottema"] would miss the first. A name is turned when it
holds one comma with one to three words on each side, no digit and no "@", and the part
after the comma is no suffix or company form ("Jr.", "PhD", "Inc.": ``data/
name_suffixes.txt``).

    >>> natural_order("Bottema, Benny"), natural_order("King, Jr."), natural_order("Ana Lima")
    ('Benny Bottema', 'King, Jr.', 'Ana Lima')

Where it could misfire: a group mailbox named "Sales, Marketing" reads "Marketing Sales".
"""

from __future__ import annotations

import re

from omnireader.formats.word_lists import load_word_list

__all__ = ["natural_order"]

_WORD = re.compile(r"[^\W\d_][\w'’.\-]*")


def _words(part: str) -> list[str] | None:
    words = part.split()
    if not 1 <= len(words) <= 3 or not all(_WORD.fullmatch(w) for w in words):
        return None
    return words


def natural_order(name: str) -> str:
    """``name`` as "Given Surname" when it is written "Surname, Given"; else unchanged."""
    if name.count(",") != 1 or "@" in name:
        return name
    surname, given = (part.strip() for part in name.split(","))
    if _words(surname) is None or _words(given) is None:
        return name
    if load_word_list("name_suffixes").match(given.rstrip(".")):
        return name
    return f"{given} {surname}"
