"""Dates in what a model wrote, checked against the source: mentioned there, or resolvable
from the time a message was sent.

A weak model copies the prompt's example date, invents one, or leaves "tomorrow" as it is.
:func:`dates_in` finds the absolute dates a text names (ISO, "12 March 2025", "March 12,
2025", "May 2024", "2025年3月12日") as ``YYYY-MM-DD`` / ``YYYY-MM`` / ``YYYY`` strings;
:func:`relative_days` finds the relative day words ("tomorrow", "next Friday", "in 3 days",
"明天") and resolves them against a message time.

    >>> sorted(dates_in("Due 12 March 2025; paid on 2025-03-20."))
    ['2025', '2025-03', '2025-03-12', '2025-03-20']
    >>> [(w, d.isoformat()) for w, d in relative_days("I fly tomorrow", "2025-11-15T14:30:00")]
    [('tomorrow', '2025-11-16')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

__all__ = [
    "dates_in",
    "relative_days",
    "relative_phrases",
    "resolve_relative",
    "day_of",
    "agrees",
]

_MONTHS = {
    m: n
    for n, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONTH = rf"({_MONTH_NAMES})\.?"
# The letters a month name starts with, looked ahead before trying the names: a position
# that cannot start one is passed over in one test instead of one per name (3x faster on a
# chat window; the matches are the same).
_MONTH_HEAD = "(?=[" + "".join(sorted({m[0] for m in _MONTHS})) + "])"
# A month name standing as a word: every match of the three patterns naming a month has
# one (the name is followed by ".", "," or a space), so a text without one skips them.
_MONTH_WORD = re.compile(rf"\b{_MONTH_HEAD}(?:{_MONTH_NAMES})\b", re.I)
_ISO = re.compile(r"\b(\d{4})[-/.](\d{1,2})(?:[-/.](\d{1,2}))?\b")
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b{_MONTH_HEAD}{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I
)
_MONTH_YEAR = re.compile(rf"\b{_MONTH_HEAD}{_MONTH},?\s+(\d{{4}})\b", re.I)
_NUMERIC = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")  # 03/12/2025: either order
_CJK = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?")
_YEAR = re.compile(r"\b(19\d\d|20\d\d|21\d\d)\b")


def _ymd(y: int, m: int, d: int | None) -> str | None:
    try:
        return date(y, m, d).isoformat() if d else date(y, m, 1).isoformat()[:7]
    except ValueError:
        return None


def dates_in(text: str) -> set[str]:
    """The absolute dates ``text`` names: days as ``YYYY-MM-DD``, months as ``YYYY-MM``
    and bare years as ``YYYY``."""
    found: set[str] = set()

    def add(value: str | None) -> None:
        if value:
            found.add(value)

    for y, m, d in _ISO.findall(text):
        add(_ymd(int(y), int(m), int(d) if d else None))
    if _MONTH_WORD.search(text):
        for d, mon, y in _DAY_MONTH_YEAR.findall(text):
            add(_ymd(int(y), _MONTHS[mon.lower()], int(d)))
        for mon, d, y in _MONTH_DAY_YEAR.findall(text):
            add(_ymd(int(y), _MONTHS[mon.lower()], int(d)))
        for mon, y in _MONTH_YEAR.findall(text):
            add(_ymd(int(y), _MONTHS[mon.lower()], None))
    for a, b, y in _NUMERIC.findall(text):
        add(_ymd(int(y), int(a), int(b)))  # 03/12/2025 read both ways: either may be meant
        add(_ymd(int(y), int(b), int(a)))
    if "年" in text:
        for y, m, d in _CJK.findall(text):
            add(_ymd(int(y), int(m), int(d) if d else None))
    found.update(_YEAR.findall(text))
    return found


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_FIXED = {
    "day after tomorrow": 2,
    "day before yesterday": -2,
    "tomorrow": 1,
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this evening": 0,
    "this afternoon": 0,
    "后天": 2,
    "前天": -2,
    "明天": 1,
    "昨天": -1,
    "今天": 0,
}
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_RELATIVE = re.compile(
    # Lookahead: the characters an expression below can start with (as for _MONTH_HEAD).
    r"(?=[\dadfilnosty后前明昨今])"
    r"(?:(?:the\s+)?(day after tomorrow|day before yesterday|tomorrow|yesterday|today|tonight|"
    r"this (?:morning|evening|afternoon)|后天|前天|明天|昨天|今天)"
    rf"|\b(next|last|this|on)\s+({'|'.join(_WEEKDAYS)})\b"
    r"|\bin\s+(\d+|a|one|two|three|four|five|six|seven)\s+(day|week)s?\b"
    r"|\b(\d+|a|one|two|three|four|five|six|seven)\s+(day|week)s?\s+ago\b"
    r"|\b(next|last)\s+week\b)",
    re.I,
)


def day_of(when: str | None) -> date | None:
    """The calendar day of an ISO time (``2025-11-15T14:30:00`` -> 2025-11-15), or None."""
    if not when:
        return None
    try:
        return datetime.fromisoformat(when.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def relative_phrases(text: str) -> list[re.Match[str]]:
    """The relative day expressions in ``text``, to resolve with :func:`resolve_relative`.

    Finding them is the costly part (one pass of a long pattern over the text); a source
    said at many times is scanned once and its phrases resolved against each time.
    """
    return list(_RELATIVE.finditer(text))


def resolve_relative(found: Sequence[re.Match[str]], said: date) -> list[tuple[str, date]]:
    """Each phrase of :func:`relative_phrases` with the day it means, said on ``said``."""
    out: list[tuple[str, date]] = []
    for m in found:
        phrase = m.group(0)
        if m.group(1):
            day = said + timedelta(days=_FIXED[m.group(1).lower()])
        elif m.group(3):
            target = _WEEKDAYS.index(m.group(3).lower())
            ahead = (target - said.weekday()) % 7
            which = m.group(2).lower()
            if which == "last":
                day = said - timedelta(days=(said.weekday() - target) % 7 or 7)
            else:  # next / this / on: the coming one ("next Friday" said on a Monday)
                day = said + timedelta(days=ahead or 7)
        elif m.group(4):
            step = 7 if m.group(5).lower() == "week" else 1
            day = said + timedelta(days=_count(m.group(4)) * step)
        elif m.group(6):
            step = 7 if m.group(7).lower() == "week" else 1
            day = said - timedelta(days=_count(m.group(6)) * step)
        else:  # next / last week: its Monday
            monday = said - timedelta(days=said.weekday())
            day = monday + timedelta(days=7 if m.group(8).lower() == "next" else -7)
        out.append((phrase, day))
    return out


def relative_days(text: str, when: str | None) -> list[tuple[str, date]]:
    """Each relative day expression in ``text`` with the day it means, said at ``when``."""
    said = day_of(when)
    if said is None:
        return []
    return resolve_relative(relative_phrases(text), said)


def agrees(value: str, allowed: set[str]) -> bool:
    """True when the date ``value`` (``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``) is one of
    ``allowed`` or falls inside a month or year named there; a first day of a month or year
    stands for that month or year ("May 2024" written 2024-05-01)."""
    if value in allowed:
        return True
    if len(value) == 10 and (value[:7] in allowed or value[:4] in allowed):
        # a day inside a named month or year: only its first day (the usual stand-in)
        return value.endswith("-01") and (value[:7] in allowed or value.endswith("-01-01"))
    if len(value) == 7:
        return value[:4] in allowed or any(a.startswith(value) for a in allowed)
    if len(value) == 4:
        return any(a.startswith(value) for a in allowed)
    return False
