"""Recognise a file by its content (magic bytes, then structure), not by its extension alone."""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import PurePath

from pydantic import BaseModel

__all__ = ["Sniffed", "sniff", "family"]


class Sniffed(BaseModel):
    kind: str  # pdf, docx, pptx, xlsx, xls, msg, epub, zip, html, xml, rss, json, ipynb,
    #            csv, markdown, text, image, audio, unknown
    mime: str
    format: str | None = None  # image / audio format name: jpeg, png, wav, mp3, m4a, ...


_IMAGE_MAGIC: list[tuple[bytes, str, str]] = [
    (b"\xff\xd8\xff", "jpeg", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png", "image/png"),
    (b"GIF87a", "gif", "image/gif"),
    (b"GIF89a", "gif", "image/gif"),
    (b"BM", "bmp", "image/bmp"),
    (b"II*\x00", "tiff", "image/tiff"),
    (b"MM\x00*", "tiff", "image/tiff"),
]

_AUDIO_MAGIC: list[tuple[bytes, str, str]] = [
    (b"ID3", "mp3", "audio/mpeg"),
    (b"fLaC", "flac", "audio/flac"),
    (b"OggS", "ogg", "audio/ogg"),
]

_TEXT_EXT = {
    ".md": ("markdown", "text/markdown"),
    ".markdown": ("markdown", "text/markdown"),
    ".csv": ("csv", "text/csv"),
    ".tsv": ("csv", "text/tab-separated-values"),
    ".json": ("json", "application/json"),
    ".jsonl": ("json", "application/jsonl"),
    ".ipynb": ("ipynb", "application/x-ipynb+json"),
    ".html": ("html", "text/html"),
    ".htm": ("html", "text/html"),
    ".xml": ("xml", "application/xml"),
    ".rss": ("rss", "application/rss+xml"),
    ".atom": ("rss", "application/atom+xml"),
}

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _sniff_zip(data: bytes) -> Sniffed:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                with zf.open("mimetype") as f:  # bounded: the member may be a bomb
                    mt = f.read(100).decode("ascii", "replace").strip()
                if mt == "application/epub+zip":
                    return Sniffed(kind="epub", mime=mt)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
            RuntimeError, NotImplementedError):  # EOFError, zlib.error: a damaged member
        # Not an error to hide: it starts like a ZIP, so it is routed as one, and the archive
        # reader then reports exactly what is wrong with it (corrupt, encrypted, ...).
        return Sniffed(kind="zip", mime="application/zip")
    if "word/document.xml" in names:
        return Sniffed(
            kind="docx",
            mime="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        )
    if "ppt/presentation.xml" in names:
        return Sniffed(
            kind="pptx",
            mime="application/vnd.openxmlformats-officedocument.presentationml.presentation",
        )
    if "xl/workbook.xml" in names:
        return Sniffed(
            kind="xlsx", mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
    return Sniffed(kind="zip", mime="application/zip")


def _sniff_ole(data: bytes, ext: str) -> Sniffed:
    # OLE2 compound files: legacy XLS / DOC / PPT and Outlook MSG. Look at stream names.
    if b"_\x00_\x00s\x00u\x00b\x00s\x00t\x00g\x00" in data[:1 << 20] or ext == ".msg":
        return Sniffed(kind="msg", mime="application/vnd.ms-outlook")
    if b"W\x00o\x00r\x00k\x00b\x00o\x00o\x00k" in data or b"B\x00o\x00o\x00k" in data:
        return Sniffed(kind="xls", mime="application/vnd.ms-excel")
    if ext == ".xls":
        return Sniffed(kind="xls", mime="application/vnd.ms-excel")
    return Sniffed(kind="unknown", mime="application/x-ole-storage")


def _decodes_as_text(head: bytes) -> bool:
    if b"\x00" in head:
        # UTF-16 text has NULs; everything else with NULs is binary.
        return head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if not head:
        return True
    try:
        head.decode("utf-8")
        return True
    except UnicodeDecodeError as e:
        if e.start >= len(head) - 4:  # a multi-byte char cut at the end of the sample
            return True
    # Legacy encodings (cp932, gb18030, latin-1...): mostly printable bytes, few controls.
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    return controls / len(head) < 0.01


def sniff(data: bytes, filename: str | None = None) -> Sniffed:
    """What ``data`` is. ``filename`` only breaks ties between text formats."""
    ext = PurePath(filename).suffix.lower() if filename else ""
    head = data[:4096]
    if head.startswith(b"%PDF-") or b"%PDF-" in head[:1024]:
        return Sniffed(kind="pdf", mime="application/pdf")
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _sniff_zip(data)
    if head.startswith(_OLE_MAGIC):
        return _sniff_ole(data, ext)
    for magic, fmt, mime in _IMAGE_MAGIC:
        if head.startswith(magic):
            return Sniffed(kind="image", mime=mime, format=fmt)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return Sniffed(kind="image", mime="image/webp", format="webp")
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return Sniffed(kind="audio", mime="audio/wav", format="wav")
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in (b"M4A ", b"M4B ", b"mp42", b"isom", b"dash") and ext not in (".mp4", ".mov"):
            return Sniffed(kind="audio", mime="audio/mp4", format="m4a")
        if brand in (b"heic", b"heix", b"mif1"):
            return Sniffed(kind="image", mime="image/heic", format="heic")
        return Sniffed(kind="unknown", mime="video/mp4")
    for magic, fmt, mime in _AUDIO_MAGIC:
        if head.startswith(magic):
            return Sniffed(kind="audio", mime=mime, format=fmt)
    if len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0 and ext in ("", ".mp3"):
        return Sniffed(kind="audio", mime="audio/mpeg", format="mp3")
    if not _decodes_as_text(head):
        return Sniffed(kind="unknown", mime="application/octet-stream")
    return _sniff_text(head, ext)


def _sniff_text(head: bytes, ext: str) -> Sniffed:
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if ext in (".ipynb",) or (lowered.startswith(b"{") and b'"nbformat"' in head):
        return Sniffed(kind="ipynb", mime="application/x-ipynb+json")
    if lowered.startswith((b"<!doctype html", b"<html")) or b"<html" in lowered[:1024]:
        return Sniffed(kind="html", mime="text/html")
    if lowered.startswith(b"<?xml") or lowered.startswith((b"<rss", b"<feed")):
        if b"<rss" in lowered or b"<feed" in lowered:
            return Sniffed(kind="rss", mime="application/rss+xml")
        return Sniffed(kind="xml", mime="application/xml")
    if ext in _TEXT_EXT:
        kind, mime = _TEXT_EXT[ext]
        return Sniffed(kind=kind, mime=mime)
    if lowered.startswith((b"{", b"[")):
        return Sniffed(kind="json", mime="application/json")
    return Sniffed(kind="text", mime="text/plain")


def family(s: Sniffed) -> str:
    """The parser family: ``image``, ``audio`` or ``file``."""
    return s.kind if s.kind in ("image", "audio") else "file"
