"""iCalendar files: one readable entry per event / to-do, with times in ISO 8601 and their
time zone, never raw content lines."""

from __future__ import annotations

import base64
from pathlib import Path

from omnireader import Reader
from omnireader.formats.sniff import sniff

TIMEZONE = (
    "BEGIN:VTIMEZONE\nTZID:Europe/Berlin\nBEGIN:STANDARD\nDTSTART:19701025T030000\n"
    "TZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\n"
    "END:STANDARD\nEND:VTIMEZONE\n"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    return path


def test_an_invitation_reads_as_one_event(tmp_path: Path) -> None:
    # Escaped commas and semicolons, a description folded over two lines (the fold cuts
    # "ü" in two at the byte level), people with names and answers, a weekly rule, an alarm.
    description = "Agenda: review the numbers\\nbring the draft. Für alle, die es verpasst haben"
    folded = description.encode()[:47] + b"\r\n " + description.encode()[47:]
    assert b"\xc3\r\n \xbc" in folded
    head = (
        (
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Orchard//EN\nMETHOD:REQUEST\n"
            + TIMEZONE
            + "BEGIN:VEVENT\nUID:zq90@example.com\nDTSTAMP:20240301T120000Z\n"
            "DTSTART;TZID=Europe/Berlin:20240312T090000\nDTEND;TZID=Europe/Berlin:20240312T100000\n"
            "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4\nSUMMARY:Budget review\\, Q2 planning\n"
            "LOCATION:Raum 3.14\\; München\n"
            'ORGANIZER;CN="Lee, Ann":mailto:ann@example.com\n'
            "ATTENDEE;CN=Bo Chen;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:bo@example.com\n"
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;ROLE=OPT-PARTICIPANT:mailto:cy@example.com\n"
            "DESCRIPTION:"
        )
        .replace("\n", "\r\n")
        .encode()
    )
    tail = (
        (
            "\nBEGIN:VALARM\nTRIGGER:-PT15M\nACTION:DISPLAY\nDESCRIPTION:Reminder\nEND:VALARM\n"
            "END:VEVENT\nEND:VCALENDAR\n"
        )
        .replace("\n", "\r\n")
        .encode()
    )
    path = tmp_path / "invite.ics"
    path.write_bytes(head + folded + tail)
    [item] = Reader().read(path)
    assert item.memory == (
        "Event: Budget review, Q2 planning\n"
        "Start: 2024-03-12T09:00:00 (Europe/Berlin)\n"
        "End: 2024-03-12T10:00:00 (Europe/Berlin)\n"
        "Organizer: Lee, Ann <ann@example.com>\n"
        "Attendee: Bo Chen <bo@example.com> (accepted)\n"
        "Attendee: cy@example.com (needs action, optional)\n"
        "Repeats: FREQ=WEEKLY;BYDAY=TU;COUNT=4\n"
        "Location: Raum 3.14; München\n"
        "Description: Agenda: review the numbers\n"
        "bring the draft. Für alle, die es verpasst haben"
    )
    assert item.metadata.key == "Budget review, Q2 planning"
    assert item.metadata.tags == ["icalendar"] and item.source.mime == "text/calendar"


def test_each_entry_of_a_calendar_is_its_own_item(tmp_path: Path) -> None:
    attachment = base64.b64encode(b"%PDF-1.4 agenda" * 100).decode()
    path = write(
        tmp_path,
        "orchard.ics",
        (
            "BEGIN:VCALENDAR\nVERSION:2.0\nX-WR-CALNAME:Orchard\n"
            "BEGIN:VEVENT\nUID:1\nDTSTART;VALUE=DATE:20240501\nDTEND;VALUE=DATE:20240502\n"
            "SUMMARY:Blossom day\nCATEGORIES:Farm,Festival\nEND:VEVENT\n"
            "BEGIN:VEVENT\nUID:2\nDTSTART;VALUE=DATE:20240610\nDTEND;VALUE=DATE:20240613\n"
            "SUMMARY:Harvest\nSTATUS:TENTATIVE\n"
            f"ATTACH;FMTTYPE=application/pdf;ENCODING=BASE64;VALUE=BINARY:{attachment}\n"
            "END:VEVENT\n"
            "BEGIN:VEVENT\nUID:3\nDTSTART:20240701T080000\nDURATION:PT2H\n"
            "DESCRIPTION:Walk the rows.\nEND:VEVENT\n"
            "BEGIN:VTODO\nUID:4\nSUMMARY:Order crates\nDUE:20240420T170000Z\nPRIORITY:1\n"
            "STATUS:NEEDS-ACTION\nEND:VTODO\nEND:VCALENDAR\n"
        ),
    )
    items = Reader().read(path)
    assert [i.memory for i in items] == [
        "Event: Blossom day\nStart: 2024-05-01 (all day)\nCategories: Farm, Festival",
        "Event: Harvest\nStart: 2024-06-10 (all day)\nEnd: 2024-06-12 (all day)\n"
        "Status: TENTATIVE\nAttachment: embedded file application/pdf (1.5 KB, not shown)",
        "Event (no title)\nStart: 2024-07-01T08:00:00 (local time)\nDuration: PT2H\n"
        "Description: Walk the rows.",
        "To-do: Order crates\nDue: 2024-04-20T17:00:00Z\nStatus: NEEDS-ACTION\nPriority: 1",
    ]
    assert [i.metadata.extra["heading"] for i in items] == [
        "Blossom day",
        "Harvest",
        "Event on 2024-07-01T08:00:00 (local time)",
        "Order crates",
    ]
    assert {i.metadata.key for i in items} == {"Orchard"}  # the calendar's name


def test_a_free_busy_file_lists_its_periods(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "ann.ifb",
        (
            "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VFREEBUSY\n"
            "ORGANIZER:mailto:ann@example.com\nDTSTART:20240312T000000Z\nDTEND:20240313T000000Z\n"
            "FREEBUSY:20240312T090000Z/20240312T100000Z,20240312T140000Z/PT30M\n"
            "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20240312T160000Z/20240312T170000Z\n"
            "END:VFREEBUSY\nEND:VCALENDAR\n"
        ),
    )
    [item] = Reader().read(path)
    assert item.memory == (
        "Free/busy (no title)\nStart: 2024-03-12T00:00:00Z\nEnd: 2024-03-13T00:00:00Z\n"
        "Organizer: ann@example.com\n"
        "Busy: 2024-03-12T09:00:00Z – 2024-03-12T10:00:00Z, 2024-03-12T14:00:00Z – PT30M\n"
        "Busy (tentative): 2024-03-12T16:00:00Z – 2024-03-12T17:00:00Z"
    )


def test_a_calendar_is_told_by_its_content_and_by_its_name() -> None:
    assert sniff(b"\r\n BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", "invite.txt").kind == "icalendar"
    assert sniff(b"BEGIN:VCALENDAR\r\n", None).mime == "text/calendar"
    assert sniff(b"nothing here", "x.ics").kind == "icalendar"
    assert sniff(b"nothing here", "x.ifb").kind == "icalendar"


def test_malformed_calendars_fail_with_a_typed_error(tmp_path: Path) -> None:
    cut = write(tmp_path, "cut.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Lunch\n")
    stray = write(tmp_path, "stray.ics", "BEGIN:VCALENDAR\nEND:VCALENDAR\nSUMMARY:Lunch\n")
    zones = write(tmp_path, "zones.ics", "BEGIN:VCALENDAR\n" + TIMEZONE + "END:VCALENDAR\n")
    result = Reader().read_report([cut, stray, zones])
    assert not result.items
    failures = {Path(f.input).name: (f.error, f.message) for f in result.failures}
    assert failures["cut.ics"][0] == "corrupt" and "no END:VEVENT" in failures["cut.ics"][1]
    assert failures["stray.ics"][0] == "corrupt"
    assert "line 3: SUMMARY stands outside any BEGIN/END block" in failures["stray.ics"][1]
    assert failures["zones.ics"][0] == "empty"


def test_content_beats_the_name() -> None:
    # A vCard saved as .ics is the vCard it is.
    assert sniff(b"BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n", "card.ics").kind == "vcard"
