"""Blobs from what a content part carries: a ``data:`` URL, an http(s) URL (fetched through
the address guard, :mod:`omnireader.net.fetch`), or bare base64 of a file."""

from __future__ import annotations

from typing import Any

from omnireader.errors import InvalidInputError
from omnireader.formats.sniff import sniff
from omnireader.net.dataurl import bare_base64, decode_data_url, is_data_url
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["blob_from_url", "file_base64"]


def file_base64(text: str, filename: str | None) -> bytes | None:
    """The file in ``text`` when it is bare base64 of a file, else None (it is the text).

    Decoded bytes count as a file when they sniff as a known non-text format (PDF, office,
    image, audio, archive...), or when they are readable UTF-8 text: a string of base64
    alphabet only, in whole 4-character groups, that decodes to text is not prose.
    """
    data = bare_base64(text)
    if data is None:
        return None
    kind = sniff(data[: 1 << 20], filename or "").kind
    if kind not in ("text", "unknown", "markdown", "csv"):
        return data
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(c.isprintable() or c in "\n\r\t" for c in decoded)
    return data if decoded and printable / len(decoded) > 0.95 else None


def blob_from_url(url: str, options: ReadOptions, **fields: Any) -> Blob:
    if is_data_url(url):
        data, mime = decode_data_url(url, fields.get("filename") or "<data URL>")
        return Blob(data=data, mime=mime, **fields)
    if url.startswith(("http://", "https://")):
        from omnireader.net.fetch import fetch_for  # httpx only when a URL is really fetched

        got = fetch_for(url, options)
        return Blob(
            data=got.data,
            url=url,
            mime=got.mime,
            **{**fields, "filename": fields.get("filename") or got.filename},
        )
    raise InvalidInputError(f"cannot read URL {url[:80]!r}: use http(s):// or a base64 data: URL")
