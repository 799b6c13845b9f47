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
from functools import lru_cache
from importlib import resources
from pathlib import Path, PurePath

from omnireader.errors import ConfigError

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
HEAD_LINES = 60  # a heading further down than this is not the document's title


class _Placeholders:
    def __init__(self, words: frozenset[str], patterns: tuple[re.Pattern[str], ...]) -> None:
        self.words, self.patterns = words, patterns

    def match(self, title: str) -> bool:
        folded = " ".join(title.split()).casefold()
        return folded in self.words or any(p.fullmatch(folded) for p in self.patterns)


@lru_cache(maxsize=8)
def load_placeholders(path: str | None = None) -> _Placeholders:
    """The placeholder list: the bundled one, or the file at ``path`` instead of it.

    Raises :class:`ConfigError` naming the file and line when it cannot be read or a
    ``re:`` line is not a valid regular expression."""
    if path is None:
        text = resources.files("omnireader.formats").joinpath("data/placeholder_titles.txt")
        raw = text.read_text(encoding="utf-8")
        where = "the bundled placeholder_titles.txt"
    else:
        try:
            raw = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ConfigError(
                f"placeholder_titles: cannot read {path!r} ({getattr(e, 'strerror', None) or e}); give a text "
                "file with one placeholder title a line"
            ) from None
        where = repr(path)
    words: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for n, line in enumerate(raw.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("re:"):
            try:
                patterns.append(re.compile(line[3:].strip(), re.IGNORECASE))
            except re.error as e:
                raise ConfigError(
                    f"placeholder_titles: {where} line {n}: {line[3:]!r} is not a regular "
                    f"expression ({e})"
                ) from None
        else:
            words.add(" ".join(line.split()).casefold())
    return _Placeholders(frozenset(words), tuple(patterns))


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


def title_from_text(*texts: str) -> str | None:
    """The first Markdown heading near the top of ``texts`` (a document's first sections,
    in order), or else the first line of prose of the first one; list marks and emphasis
    stripped, cut at a word past :data:`MAX_TITLE` characters. A heading counts only in
    the first :data:`HEAD_LINES` lines: further down it titles a part, not the document."""
    lines = [line.strip() for text in texts for line in text.splitlines()][:HEAD_LINES]
    for line in lines:
        if (heading := _HEADING.match(line)) and (cleaned := _clean(heading.group(1))):
            return cleaned
    for line in (line.strip() for line in (texts[0] if texts else "").splitlines()):
        if line and not _NOT_TITLE.match(line) and (cleaned := _clean(line)):
            return cleaned
    return None


def _clean(line: str) -> str | None:
    line = _EMPHASIS.sub("", _LINK.sub(r"\1", _MARKS.sub("", line)))
    line = " ".join(line.split()).strip()
    if len(line) > MAX_TITLE:
        line = line[:MAX_TITLE].rsplit(" ", 1)[0] + "…"
    return line or None
