"""Placeholder titles: a document's title field that does not name it.

Applications fill the title field when nobody names a document ("PowerPoint Presentation",
"Untitled document", "Slide 1"), and converters copy the file name there
(``glxz-10k_20211231.htm``). Used as the title, key and topic, such a value makes every
deck from one template look alike. A placeholder is dropped and the document is titled by
its first heading, or else its first line of text.

The list of placeholders is data (``data/placeholder_titles.txt``), not code: a user
replaces it with ``ReadOptions(placeholder_titles="my_list.txt")``.

    >>> is_placeholder_title("Slide 1", "deck.pptx")
    True
    >>> is_placeholder_title("Quarterly results 2023", "deck.pptx")
    False
    >>> title_from_text("| a | b |\\n\\n## Revenue by region\\n\\nNorth grew.")
    'Revenue by region'
"""

from __future__ import annotations

import re
from pathlib import PurePath

from omnireader.formats.word_lists import WordList, load_word_list

__all__ = [
    "is_placeholder_title",
    "title_from_text",
    "load_placeholders",
    "MAX_TITLE",
    "HEAD_LINES",
]

MAX_TITLE = 200  # a first line longer than this is a paragraph, cut at a word
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
# Lines that are not prose: table rows and rules, images, fences, horizontal rules.
_NOT_TITLE = re.compile(r"^(\||!\[|```|~~~|[-*_=]{3,}\s*$|<!--)")
_MARKS = re.compile(r"^(?:[-*+>]\s+|\d{1,3}[.)]\s+)+")
_EMPHASIS = re.compile(r"\*\*|__|`|\\(?=[\\`*_{}\[\]()#+\-.!|])")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A note's mark glued to the word it follows: the Markdown readers' "[^2]" ("[^e1]" for an
# endnote) anywhere, a bare "[1]" at the end ("Footnote appears here[1]"). It points at a
# note; it is no word of the title.
_NOTE_MARK = re.compile(r"(?<=[^\s\[])\[\^[a-z]{0,2}[0-9]{1,3}\]|(?<=[^\W\d_])\[[0-9]{1,3}\]$")
HEAD_LINES = 60  # a heading further down than this is not the document's title


def load_placeholders(path: str | None = None) -> WordList:
    """The placeholder list: the bundled one, or the file at ``path`` instead of it
    (:func:`.word_lists.load_word_list` says the file's form and its errors)."""
    return load_word_list("placeholder_titles", path)


def is_placeholder_title(title: str | None, file_name: str = "", path: str | None = None) -> bool:
    """Whether ``title`` names nothing: a listed placeholder, or the document's own file
    name with its extension."""
    title = (title or "").strip()
    if not title:
        return False
    # The file's own name, extension and all, copied into the title field (a title that
    # is the name without its extension, "Orchard" of orchard.ics, is often the real one).
    name = PurePath(file_name.rsplit("!", 1)[-1]).name if file_name else ""
    if name and title.casefold() == name.casefold():
        return True
    return load_placeholders(path).match(title)


def title_from_text(*texts: str, first_line: bool = True) -> str | None:
    """The first Markdown heading near the top of ``texts`` (a document's first sections,
    in order) that names no mere section ("Introduction": ``data/section_names.txt``) and,
    below the top level, asks no question ("## Why?"), or else (``first_line``) the first
    line of prose of the first one; list marks and emphasis
    stripped, cut at a word past :data:`MAX_TITLE` characters. A heading counts only in the
    first :data:`HEAD_LINES` lines: further down it titles a part, not the document."""
    lines = [line.strip() for text in texts for line in text.splitlines()][:HEAD_LINES]
    sections = load_word_list("section_names")
    for line in lines:
        heading = _HEADING.match(line)
        if heading and (cleaned := _clean(heading.group(1))) and not sections.match(cleaned):
            if not _asks(line, cleaned):
                return cleaned
    if not first_line:
        return None
    for line in (line.strip() for line in (texts[0] if texts else "").splitlines()):
        if line and not _NOT_TITLE.match(line) and not _HEADING.match(line):
            if cleaned := _clean(line):
                return cleaned
    return None


def _asks(line: str, heading: str) -> bool:
    """Whether a heading below the top level asks a question ("## Why?", "## How do I
    install it?"): a README or a FAQ laid out as questions, each titling its part. A
    top-level ``#`` question ("# Why Rust?") is the document's own title."""
    level = len(line) - len(line.lstrip("#"))
    return level > 1 and heading.endswith(("?", "？"))


def _clean(line: str) -> str | None:
    line = _EMPHASIS.sub("", _LINK.sub(r"\1", _NOTE_MARK.sub("", _MARKS.sub("", line))))
    line = " ".join(line.split()).strip()
    if len(line) > MAX_TITLE:
        line = line[:MAX_TITLE].rsplit(" ", 1)[0] + "…"
    return line or None
