"""Decode base64 ``data:`` URLs (and bare base64 for audio parts)."""

from __future__ import annotations

import base64
import binascii
import re

from omnireader.errors import CorruptError

__all__ = ["is_data_url", "decode_data_url", "bare_base64"]

_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")


def is_data_url(s: str) -> bool:
    return s[:5].lower() == "data:"


def decode_data_url(s: str, label: str, bare_base64: bool = False) -> tuple[bytes, str | None]:
    """The bytes and MIME type of a data URL; with ``bare_base64`` plain base64 is accepted."""
    mime: str | None = None
    payload = s
    if is_data_url(s):
        header, sep, payload = s[5:].partition(",")
        if not sep:
            raise CorruptError(label, "data URL has no ',' between its header and its data")
        params = header.split(";")
        mime = params[0] or None
        if "base64" not in params:
            from urllib.parse import unquote_to_bytes

            return unquote_to_bytes(payload), mime
    elif not bare_base64:
        raise CorruptError(label, "not a data: URL")
    try:
        return base64.b64decode("".join(payload.split()), validate=True), mime
    except (binascii.Error, ValueError) as e:
        raise CorruptError(label, f"invalid base64 data: {e}") from None


def bare_base64(s: str, min_chars: int = 16) -> bytes | None:
    """The bytes of ``s`` when it is plain base64 (no ``data:`` header), else None.

    Only the alphabet, whole 4-character groups and at least ``min_chars`` characters count:
    ordinary text almost always has a space or punctuation outside the alphabet. Whether the
    bytes are really a file is the caller's call (it sniffs them).
    """
    compact = "".join(s.split())
    if len(compact) < min_chars or len(compact) % 4 or not _B64.fullmatch(compact):
        return None
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return None
