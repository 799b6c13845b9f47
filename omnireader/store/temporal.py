"""Dates a query names, and the boost that hits from those dates get.

A question like "What did Maria donate in December 2023?" names a period; the messages of
that period hold the answer far more often than other messages that share its words. Only
*absolute* dates are read: a year ("2023"), a month ("June", "May 2023", "2023-05"), a day
("7 May 2023", "May 7, 2023", "2023-05-07"). Relative times ("last week", "yesterday") are
left alone: relative to what, the query does not say.

A month named without a year means that month in any year. "May" and "March" alone are
ordinary English words, so a month name standing alone counts only when capitalised; next to
a day or a year, case does not matter. Alone, an abbreviation ("Jan") is too often a name.

    >>> [str(p) for p in periods("What did Maria donate on 7 July, 2023 and in May 2022?")]
    ['2023-07-07', '2022-05']
    >>> periods("You may march on.")
    []

:func:`boost` adds ``weight`` (in units of the best hit's score) to every hit whose item's own
time falls in a named period, then re-ranks. A file's modification time is not the time of
what it says, so items dated only by ``mtime`` are never boosted. Nor is a document's own
creation date (a PDF's, a DOCX's): a 10-K made in 2022 is about 2021, and "in 2022" in a
question about it names a period of its content (FinanceBench dev over the whole store:
page@6k 0.235 without the boost on documents, 0.191 with it). Messages read from files
(e-mail, calendars) keep their date: it is the time of what they say.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omnireader.models import MemoryItem
    from omnireader.store.context import Hit

from omnireader.errors import ConfigError

__all__ = ["TIME_WEIGHT", "Period", "periods", "item_date", "boost"]

#: The default boost, in units of the best hit's score. At 1 every candidate from a named
#: period ranks above every other (so larger weights change nothing); below 1 a much better
#: match from another time can still come first. Chosen by leave-one-conversation-out on
#: LoCoMo dev (bench/bench_retrieval.py tries 0, 0.1, 0.3, 0.5 and 1, picks on four
#: conversations and scores on the fifth, for each of the five, and prints every held-out
#: figure). Full run of 2026-12-01: the held-out picks were 0.5, 0.5, 1, 0.5 and 0.3, and on
#: all five 0.5 and 1 tied (ties go to the smaller weight), so 0.5.
TIME_WEIGHT = 0.5

_FULL = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = r"(?P<{}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<{}>(?:19|20)\d\d)"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_PATTERNS = [
    # 2023-05-07, 2023-05
    re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]\d)(?:-(?P<d>[0-3]\d))?\b"),
    # 7 May 2023, 7 May, 2023, 7th of May 2023, 7 May
    re.compile(
        r"\b"
        + _DAY.format("d")
        + r"\s+(?:of\s+)?"
        + _MONTH.format("mn")
        + r"(?:,?\s+"
        + _YEAR.format("y")
        + r")?\b",
        re.IGNORECASE,
    ),
    # May 7, 2023, May 7 2023, May 7
    re.compile(
        r"\b"
        + _MONTH.format("mn")
        + r"\s+"
        + _DAY.format("d")
        + r"(?:,?\s+"
        + _YEAR.format("y")
        + r")?\b(?!\d)",
        re.IGNORECASE,
    ),
    # May 2023, May, 2023
    re.compile(r"\b" + _MONTH.format("mn") + r",?\s+" + _YEAR.format("y") + r"\b", re.IGNORECASE),
    # June (capitalised; not "May" opening a sentence, as in "May I ..."), 2023
    re.compile(
        r"(?<![.!?]\s)(?<=[\s(])(?P<mn>May)\b|(?<!\w)(?P<mn2>"
        + "|".join(n.capitalize() for n in _FULL if n != "may")
        + r")\b"
    ),
    re.compile(r"\b" + _YEAR.format("y") + r"\b"),
]


@dataclass(frozen=True)
class Period:
    """A year, a month (of a year or of any year) or a day."""

    year: int | None = None
    month: int | None = None
    day: int | None = None

    def __contains__(self, when: date) -> bool:
        return (
            (self.year is None or when.year == self.year)
            and (self.month is None or when.month == self.month)
            and (self.day is None or when.day == self.day)
        )

    def __str__(self) -> str:
        parts = [f"{self.year:04d}" if self.year else "*"]
        if self.month:
            parts.append(f"{self.month:02d}")
        if self.day:
            parts.append(f"{self.day:02d}")
        return "-".join(parts)


def periods(query: str) -> list[Period]:
    """The absolute periods ``query`` names, in order of appearance (none: an empty list)."""
    found: list[tuple[int, Period]] = []
    taken: list[tuple[int, int]] = []  # spans already read by a more specific pattern
    for pattern in _PATTERNS:
        for m in pattern.finditer(query):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            period = _period(m.groupdict())
            if period is not None:
                found.append((m.start(), period))
                taken.append(m.span())
    return list(dict.fromkeys(p for _, p in sorted(found, key=lambda f: f[0])))


def _period(groups: dict[str, str | None]) -> Period | None:
    year = int(groups["y"]) if groups.get("y") else None
    name = groups.get("mn") or groups.get("mn2")
    month = (
        _MONTHS[name.lower().rstrip(".")]
        if name
        else (int(groups["m"]) if groups.get("m") else None)
    )
    day = int(groups["d"]) if groups.get("d") else None
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None:
        try:  # a day that does not exist (31 June) is no date; 29 February of any year is
            date(year or 2000, month or 1, day)
        except ValueError:
            return None
    return Period(year=year, month=month, day=day)


#: file formats whose items' time is the time of what they say (others: authoring dates)
DATED_FORMATS = frozenset({"eml", "mbox", "msg", "ole", "icalendar", "vcard"})


def item_date(item: MemoryItem) -> date | None:
    """The calendar date of what ``item`` says (its own time, as written), or None."""
    meta, src = item.metadata, item.source
    fmt = meta.extra.get("format")  # what the file parser read it as
    if (
        src is not None
        and src.kind == "file"
        and not src.chat_time
        and fmt is not None
        and fmt not in DATED_FORMATS
    ):
        return None  # a document's creation date is not the time of its content
    if meta.timestamp and meta.time_source != "mtime":
        stamp: str | None = meta.timestamp
    else:
        stamp = src.chat_time if src is not None else None
    if not stamp:
        return None
    try:  # the local date the time was written in, not converted to UTC
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def boost(hits: Sequence[Hit], query: str, weight: float) -> list[Hit]:
    """``hits`` re-ranked with ``weight`` x the best score added to those in a named period.

    A query that names no period (or a weight of 0) leaves the ranking as it was. Scores
    are changed in place.
    """
    if weight < 0:
        raise ConfigError(f"time weight must be at least 0, not {weight}")
    named = periods(query) if weight > 0 else []
    if not named or not hits:
        return list(hits)
    top = max((h.score for h in hits), default=0.0)
    bonus = weight * (top if top > 0 else 1.0)
    for h in hits:
        when = item_date(h.item) if h.present() else None
        if when is not None and any(when in p for p in named):
            h.score += bonus
    # sorted() is stable: hits with equal scores keep their fused order
    return sorted(hits, key=lambda h: -h.score)
