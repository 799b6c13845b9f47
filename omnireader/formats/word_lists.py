"""Lists of words and phrases the readers consult, kept as data a user can read and replace.

One entry a line, compared without regard to case or runs of spaces; a line starting with
``re:`` is a regular expression that must match the whole value; ``#`` starts a comment.
The bundled lists live in ``omnireader/formats/data/``; a caller may give its own file
instead (``ReadOptions(placeholder_titles=...)`` does for titles).

    >>> load_word_list("placeholder_names").match("  Administrator ")
    True
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from omnireader.errors import ConfigError

__all__ = ["WordList", "load_word_list"]


class WordList:
    """Whole values (folded) and patterns; :meth:`match` tells whether a value is listed."""

    def __init__(self, words: frozenset[str], patterns: tuple[re.Pattern[str], ...]) -> None:
        self.words, self.patterns = words, patterns

    def match(self, value: str) -> bool:
        folded = " ".join(value.split()).casefold()
        return folded in self.words or any(p.fullmatch(folded) for p in self.patterns)


@lru_cache(maxsize=16)
def load_word_list(name: str, path: str | None = None) -> WordList:
    """The bundled list ``data/<name>.txt``, or the file at ``path`` instead of it.

    Raises :class:`ConfigError` naming the file and line when it cannot be read or a
    ``re:`` line is not a valid regular expression."""
    if path is None:
        raw = resources.files("omnireader.formats").joinpath(f"data/{name}.txt").read_text("utf-8")
        where = f"the bundled {name}.txt"
    else:
        try:
            raw = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ConfigError(
                f"{name}: cannot read {path!r} ({getattr(e, 'strerror', None) or e}); give a "
                "text file with one entry a line"
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
                    f"{name}: {where} line {n}: {line[3:]!r} is not a regular expression ({e})"
                ) from None
        else:
            words.add(" ".join(line.split()).casefold())
    return WordList(frozenset(words), tuple(patterns))
