"""YAML front matter (Jekyll, Hugo, Obsidian, MkDocs): the ``---`` block that opens a
Markdown file.

Its title, date and authors become the document's info (the item's key, timestamp and
persons); the fields a reader would search (tags, description, ...) stay as ``Field: value``
lines above the body; the rest (layout, draft, slug...) is page plumbing and goes. The raw
block never reaches an item. Parsed with ``yaml.safe_load``: no tags, no code.

    >>> info, body = front_matter("---\\ntitle: Azores\\ntags: [travel, hiking]\\n---\\n# Day 1")
    >>> info.title, body
    ('Azores', 'Tags: travel, hiking\\n\\n# Day 1')
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from omnireader.formats.document import DocInfo

__all__ = ["front_matter"]

_BLOCK = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_DATES = ("date", "created", "published", "pubdate")
_AUTHORS = ("author", "authors")
_KEPT = (
    "subtitle",
    "description",
    "summary",
    "tags",
    "categories",
    "keywords",
    "aliases",
    "location",
    "place",
)


def front_matter(text: str) -> tuple[DocInfo, str]:
    """The document info of ``text``'s front matter and the text without it (``text``
    unchanged, with empty info, when it has none or the block is not a YAML mapping)."""
    found = _BLOCK.match(text)
    if found is None:
        return DocInfo(), text
    import yaml

    try:
        data = yaml.safe_load(found.group(1))
    except yaml.YAMLError:
        return DocInfo(), text  # a rule line and a paragraph, not front matter
    if not isinstance(data, dict):
        return DocInfo(), text
    fields = {str(k).lower(): v for k, v in data.items()}
    info = DocInfo(
        title=_text(fields.get("title")) or None,
        created=next((_when(fields[k]) for k in _DATES if _when(fields.get(k))), None),
        authors=[a for k in _AUTHORS for a in _list(fields.get(k))],
    )
    lines = [
        f"{name.capitalize()}: {', '.join(_list(fields[name]))}"
        for name in _KEPT
        if _list(fields.get(name))
    ]
    body = text[found.end() :].lstrip("\n")
    return info, "\n".join(lines) + "\n\n" + body if lines else body


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, (str, int, float)) else ""


def _list(value: Any) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [t for v in values if (t := _text(v))]


def _when(value: Any) -> str | None:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return _text(value) or None
