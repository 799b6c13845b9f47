"""Message times as chat exports write them (epoch seconds, milliseconds, ISO), as ISO 8601."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from omnireader.normalize import normalize_time

__all__ = ["message_time"]

_NUMBER = re.compile(r"^\d+(\.\d+)?$")


def message_time(value: Any) -> str | None:
    """``value`` as an ISO 8601 time, or None when it is not one.

    Epoch times come with fractions (ChatGPT ``1700000000.123456``, Slack ``"1710000100.000200"``)
    that name a message, not a moment anyone cares about: they are cut to the second, so a
    chat line reads ``[2023-11-14T22:13:20+00:00]``.

    >>> message_time(1700000000.5), message_time("2024-02-01T09:00:00Z"), message_time("soon")
    ('2023-11-14T22:13:20+00:00', '2024-02-01T09:00:00+00:00', None)
    """
    if value is None or isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    number = isinstance(value, (int, float)) or bool(_NUMBER.match(value.strip()))
    if number and float(value) < 1e8:  # a count or a duration, not seconds since 1970
        return None
    iso = normalize_time(value)
    if iso is None:
        return None
    if number:
        return datetime.fromisoformat(iso).replace(microsecond=0).isoformat()
    return iso
