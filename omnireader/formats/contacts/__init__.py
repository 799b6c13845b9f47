"""Contacts and calendars: vCard and iCalendar."""
