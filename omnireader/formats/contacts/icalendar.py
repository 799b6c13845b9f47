"""iCalendar files (.ics, .ifb; RFC 5545) as readable entries, one section (so one memory
item) per event, to-do, journal entry or free/busy block.

    doc = extract_icalendar(Blob(path="invite.ics"))
    next(doc.sections).text

An event reads as one line per field::

    Event: Budget review, Q2 planning
    Start: 2024-03-12T09:00:00 (Europe/Berlin)
    End: 2024-03-12T10:00:00 (Europe/Berlin)
    Repeats: FREQ=WEEKLY;BYDAY=TU
    Location: Raum 3.14; München
    Organizer: Ann Lee <ann@example.com>
    Attendee: Bo Chen <bo@example.com> (accepted)
    Description: Agenda: review the numbers ...

Times are ISO 8601 with the time zone they were written in (``Z`` for UTC, a ``TZID`` in
brackets, "local time" for floating ones); an all-day event shows its dates, its last day
inclusive (iCalendar's end date is the day after). Recurrence rules are shown as written.
Time zone definitions and alarms are bookkeeping and left out; embedded attachments are
noted with their size, never dumped. Parsing is :mod:`.contentlines`'; a file that is not
well-formed iCalendar raises :class:`CorruptError` naming it and the line.
"""

from __future__ import annotations

from datetime import date, timedelta

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.contacts.contentlines import (
    Component,
    ContentLineError,
    Property,
    decode_content,
    iso_date,
    parse_components,
    split_value,
    unescape,
)
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_icalendar", "render_entry"]

# Component -> how its entry is introduced. Others (VTIMEZONE, VALARM, X-...) are not read.
_ENTRIES = {
    "VEVENT": "Event",
    "VTODO": "To-do",
    "VJOURNAL": "Journal entry",
    "VFREEBUSY": "Free/busy",
}
# Property -> label, in the order shown (SUMMARY, times and people are handled first).
_FIELDS = {
    "DURATION": "Duration",
    "RRULE": "Repeats",
    "RDATE": "Also on",
    "EXDATE": "Except on",
    "RECURRENCE-ID": "Changes the occurrence of",
    "LOCATION": "Location",
    "STATUS": "Status",
    "PRIORITY": "Priority",
    "PERCENT-COMPLETE": "Progress (%)",
    "COMPLETED": "Completed",
    "CATEGORIES": "Categories",
    "URL": "Link",
    "RESOURCES": "Resources",
    "CONTACT": "Contact",
    "ATTACH": "Attachment",
    "DESCRIPTION": "Description",
    "COMMENT": "Comment",
}
_DATES = {"RDATE", "EXDATE", "RECURRENCE-ID", "COMPLETED"}


def _day(value: str) -> date | None:
    try:
        return date(int(value[:4]), int(value[4:6]), int(value[6:8]))
    except ValueError:
        return None


def _when(prop: Property, *, end: bool = False) -> str:
    """A DATE or DATE-TIME value (or a comma list of them) with the zone it is in."""
    values = [v.strip() for v in prop.value.split(",") if v.strip()]
    if not values:
        return ""
    if prop.param("VALUE") == "DATE" or all(len(v) == 8 and v.isdigit() for v in values):
        if end and len(values) == 1 and (day := _day(values[0])):
            # An all-day event ends the morning after its last day: show the last day.
            values = [(day - timedelta(days=1)).strftime("%Y%m%d")]
        return ", ".join(iso_date(v) for v in values) + " (all day)"
    if "/" in prop.value:  # PERIOD values (free/busy, RDATE): start/end or start/duration
        values = [" – ".join(iso_date(x) for x in v.split("/", 1)) for v in values]
    else:
        values = [iso_date(v) for v in values]
    zone = prop.param("TZID")
    if zone:
        return f"{', '.join(values)} ({zone})"
    times = [t for v in prop.value.split(",") for t in v.split("/") if t[:1].isdigit()]
    floating = any("T" in t and not t.strip().endswith("Z") for t in times)
    return ", ".join(values) + (" (local time)" if floating else "")


def _person(prop: Property) -> str:
    """``CN="Ann Lee":mailto:ann@x`` -> ``Ann Lee <ann@x>``, with how they answered."""
    address = unescape(prop.value).strip()
    if address.lower().startswith("mailto:"):
        address = address[7:]
    name = prop.param("CN")
    who = f"{name} <{address}>" if name and address and name != address else name or address
    notes = []
    status = prop.param("PARTSTAT")
    if status:
        notes.append(status.lower().replace("-", " "))
    role = (prop.param("ROLE") or "").upper()
    if role in ("OPT-PARTICIPANT", "NON-PARTICIPANT", "CHAIR"):
        notes.append(
            {"OPT-PARTICIPANT": "optional", "NON-PARTICIPANT": "for information", "CHAIR": "chair"}[
                role
            ]
        )
    return f"{who} ({', '.join(notes)})" if notes else who


def _field(prop: Property) -> str:
    if prop.binary is not None:
        size = prop.binary
        amount = f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} bytes"
        name = prop.param("FILENAME") or prop.param("X-FILENAME") or prop.param("FMTTYPE")
        return f"embedded file{' ' + name if name else ''} ({amount}, not shown)"
    if prop.name in _DATES:
        return _when(prop)
    if prop.name in ("RRULE", "DURATION"):
        return prop.value.strip()  # as written: FREQ=WEEKLY;BYDAY=TU is already readable
    if prop.name in ("CATEGORIES", "RESOURCES"):
        return ", ".join(p for p in split_value(prop.value, ",") if p)
    return unescape(prop.value).strip()


def render_entry(entry: Component) -> tuple[str | None, str]:
    """The entry's summary (None when it has none) and its fields as labelled lines."""
    kind = _ENTRIES[entry.name]
    summary = entry.text("SUMMARY")
    lines = [f"{kind}: {' '.join(summary.split())}" if summary else f"{kind} (no title)"]
    start, end = entry.first("DTSTART"), entry.first("DTEND")
    all_day = start is not None and _when(start).endswith("(all day)")
    if start is not None and _when(start):
        lines.append(f"Start: {_when(start)}")
    if end is not None and _when(end):
        shown = _when(end, end=True)
        if not (all_day and start is not None and shown == _when(start)):  # a one-day event
            lines.append(f"End: {shown}")
    due = entry.first("DUE")
    if due is not None and _when(due):
        lines.append(f"Due: {_when(due)}")
    for label, name in (("Organizer", "ORGANIZER"), ("Attendee", "ATTENDEE")):
        lines += [f"{label}: {_person(p)}" for p in entry.all(name) if p.value.strip()]
    for name, label in _FIELDS.items():
        lines += [f"{label}: {text}" for p in entry.all(name) if (text := _field(p))]
    for period in entry.all("FREEBUSY"):
        busy = (period.param("FBTYPE") or "BUSY").lower().replace("-", " (", 1)
        busy = busy + ")" if "(" in busy else busy
        lines.append(f"{busy.capitalize()}: {_when(period)}")
    if len(lines) == 1 and not summary:
        return None, ""  # nothing said about it at all
    if not summary and start is not None and _when(start):
        summary = f"{kind} on {_when(start)}"
    return summary, "\n".join(lines)


def _entries(calendar: Component) -> list[Component]:
    return [c for c in calendar.children if c.name in _ENTRIES]


def extract_icalendar(blob: Blob) -> Extraction:
    """One section per event / to-do / journal entry / free-busy block, headed by its
    summary."""
    text = decode_content(blob.read_bytes(), blob.label)
    if not text.lstrip("\ufeff \t\r\n")[:15].upper().startswith("BEGIN:VCALENDAR"):
        raise CorruptError(
            blob.label, "not an iCalendar file (it does not start with BEGIN:VCALENDAR)"
        )
    try:
        calendars = parse_components(text)
    except ContentLineError as e:
        raise CorruptError(blob.label, f"not a well-formed iCalendar file: {e}") from None
    sections = []
    names = []
    for calendar in calendars:
        if calendar.name != "VCALENDAR":
            raise CorruptError(
                blob.label,
                f"not a well-formed iCalendar file: line "
                f"{calendar.line} opens BEGIN:{calendar.name} outside "
                "BEGIN:VCALENDAR",
            )
        names.append(calendar.text("X-WR-CALNAME") or calendar.text("NAME"))
        for entry in _entries(calendar):
            heading, body = render_entry(entry)
            if body:
                sections.append(Section(text=body, heading=heading))
    if not sections:
        raise EmptyInputError(
            blob.label, "the iCalendar file holds no events, to-dos or journal entries"
        )
    info = DocInfo(extra={"extractor": "icalendar", "entries": len(sections)})
    # One entry: the file is that event (an invitation). Several: the calendar's own name.
    info.title = sections[0].heading if len(sections) == 1 else next(filter(None, names), None)
    return Extraction(info=info, sections=iter(sections))


def _read_icalendar(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_icalendar(blob)


FORMATS = (
    Format(
        name="icalendar",
        rank=22,
        display="ICS",
        extensions=(".ics", ".ifb"),
        mimes=("text/calendar",),
        magic=(
            Magic(21, lambda p: p.lowered.startswith(b"begin:vcalendar"), "text"),
            Magic(80, by_extension(".ics", ".ifb"), "text"),
        ),
        extract=_read_icalendar,
        readme_group="vCard (.vcf), iCalendar (.ics)",
    ),
)
