"""Small normalisers shared by parsers and fine mode: language and message times."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

__all__ = ["guess_lang", "normalize_time"]


def guess_lang(text: str) -> str:
    """The language of ``text`` (ISO 639-1 where there is one, ``"und"`` when it has no
    words to tell): :func:`omnireader.text.language.detect_language`, offline.

    Cheap for what most text is (scripts that name their language, plain English); the
    language model is loaded only for other Latin, Cyrillic or Arabic text, once.
    """
    from omnireader.text.language import detect_language

    return detect_language(text)


_EPOCH = re.compile(r"^\d{9,13}(\.\d+)?$")
_FALLBACK_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y/%m/%d", "%Y:%m:%d %H:%M:%S")


def normalize_time(value: str | int | float | None) -> str | None:
    """A message time as ISO 8601, or None when it does not read as a date and time.

    Accepts ISO 8601 (``T`` or space, with ``Z`` or an offset, or naive), ``2025/01/15
    10:00`` and epoch seconds (or milliseconds). Naive times stay naive: the message did
    not say its zone, and guessing one would move the event.

    >>> normalize_time("2025-01-15 10:00"), normalize_time("2025-01-15T10:00:00Z")
    ('2025-01-15T10:00:00', '2025-01-15T10:00:00+00:00')
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return _normalize_text_time(value)
    return _normalize(value)


@lru_cache(maxsize=4096)
def _normalize_text_time(value: str) -> str | None:
    # Cached: fine mode formats every message of a chat window, twice, before its call.
    return _normalize(value)


def _normalize(value: str | int | float) -> str | None:
    raw = str(value).strip()
    if not raw:
        return None
    if isinstance(value, (int, float)) or _EPOCH.match(raw):
        seconds = float(raw)
        if seconds > 1e11:  # milliseconds: no one chats in the year 5138
            seconds /= 1000
        try:
            return datetime.fromtimestamp(seconds, UTC).isoformat()
        except (OverflowError, OSError, ValueError):
            return None
    try:
        return datetime.fromisoformat(raw).isoformat()
    except ValueError:
        pass
    for fmt in _FALLBACK_FORMATS:
        try:
            return datetime.strptime(raw, fmt).isoformat()
        except ValueError:
            continue
    return None
