"""Contacts and calendars: vCard and iCalendar."""

__all__: list[str] = []
