"""Recognise a file by its content (magic bytes, then structure), not by its extension alone."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from pathlib import PurePath

from pydantic import BaseModel

from omnireader.formats.archives.tar_sniff import TAR_MIMES, looks_like_tar
from omnireader.formats.plain.text import unicode_head

__all__ = ["Sniffed", "sniff", "family", "RESNIFF_WHOLE"]

#: Kinds told from a file's head that may change once the whole file is seen: a ZIP's
#: directory and an OLE file's stream names can sit past the first MiB.
RESNIFF_WHOLE = ("zip", "ole")


class Sniffed(BaseModel):
    kind: str  # pdf, docx, pptx, xlsx, xls, doc, ppt, msg, office-encrypted, ole, epub,
    #            odt, ods, odp, zip, tar, eml, mbox, rtf, html, xml, rss, json, ipynb, csv,
    #            markdown, vcard, icalendar, text, image, audio, unknown
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
    ".eml": ("eml", "message/rfc822"),
    ".mbox": ("mbox", "application/mbox"),
    ".vcf": ("vcard", "text/vcard"),
    ".vcard": ("vcard", "text/vcard"),
    ".ics": ("icalendar", "text/calendar"),
    ".ifb": ("icalendar", "text/calendar"),
}
_MARKDOWN_EXT = (".md", ".markdown", ".mdown", ".mkd")
_ODF = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.text-template": "odt",
    "application/vnd.oasis.opendocument.spreadsheet-template": "ods",
    "application/vnd.oasis.opendocument.presentation-template": "odp",
}
# ISO base media brands of still images (HEIF / HEIC from phones, AVIF).
_HEIF_BRANDS = {
    b"heic": ("heic", "image/heic"), b"heix": ("heic", "image/heic"),
    b"heim": ("heic", "image/heic"), b"heis": ("heic", "image/heic"),
    b"hevc": ("heic", "image/heic-sequence"), b"hevx": ("heic", "image/heic-sequence"),
    b"mif1": ("heif", "image/heif"), b"msf1": ("heif", "image/heif-sequence"),
    b"avif": ("avif", "image/avif"), b"avis": ("avif", "image/avif"),
}
# A mail header line ("Name: value"); continuation lines start with white space.
_HEADER = re.compile(rb"^([A-Za-z0-9][A-Za-z0-9_-]{0,60}):")
# Fields only mail has; one of them (or From with To / Subject / Date) makes it a message.
_MAIL_FIELDS = {
    b"received", b"return-path", b"message-id", b"mime-version", b"delivered-to",
    b"x-mailer", b"in-reply-to", b"references", b"dkim-signature", b"x-original-to",
    b"envelope-to", b"resent-from", b"x-mozilla-status", b"thread-topic", b"thread-index",
}
_MBOX_FROM = re.compile(rb"^From \S+")

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
                if mt in _ODF:  # OpenDocument: never a generic ZIP of XML parts
                    return Sniffed(kind=_ODF[mt], mime=mt)
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


# OLE2 compound files hold legacy Office documents and Outlook messages; which one is
# told by the streams at the top of the file, never by trying a reader. An e-mail holding a
# Word document, or a deck holding a workbook, has the other's streams one level down.
_OLE_KINDS: list[tuple[tuple[str, ...], str, str]] = [
    (("__substg1.0_",), "msg", "application/vnd.ms-outlook"),
    (("EncryptedPackage", "EncryptionInfo"), "office-encrypted", "application/x-ole-storage"),
    (("WordDocument",), "doc", "application/msword"),
    (("PowerPoint Document",), "ppt", "application/vnd.ms-powerpoint"),
    (("Workbook",), "xls", "application/vnd.ms-excel"),
    (("Book",), "xls", "application/vnd.ms-excel"),
]


def _ole_top_names(data: bytes) -> list[str] | None:
    """The names of the streams and storages at the top of an OLE file, or None when the
    bytes are not a whole, readable OLE file (a head cut at 1 MiB, a damaged file)."""
    import olefile

    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return [entry.name for entry in ole.root.kids]
    except Exception:  # noqa: BLE001 - olefile raises many types on cut or broken files
        return None


def _sniff_ole(data: bytes, ext: str) -> Sniffed:
    names = _ole_top_names(data)
    for needs, kind, mime in _OLE_KINDS:
        if names is not None:
            found = all(any(n.startswith(need) for n in names) for need in needs)
        else:  # only a head: look for the names as they are stored (UTF-16-LE)
            found = all(need.encode("utf-16-le") in data for need in needs)
        if found:
            return Sniffed(kind=kind, mime=mime)
    ext_kind = {".msg": "msg", ".xls": "xls", ".doc": "doc", ".ppt": "ppt"}.get(ext)
    if names is None and ext_kind:
        mime = next(m for _, k, m in _OLE_KINDS if k == ext_kind)
        return Sniffed(kind=ext_kind, mime=mime)
    return Sniffed(kind="ole", mime="application/x-ole-storage")


def _decodes_as_text(head: bytes) -> bool:
    if b"\x00" in head:
        # UTF-16 / UTF-32 text has NULs (with a BOM, or in a telling pattern without one).
        # Otherwise a stray NUL or two (a mailer's bug) leave text text; more are binary.
        if unicode_head(head) is not None:
            return True
        if head.count(b"\x00") * 1000 > len(head):
            return False
        head = head.replace(b"\x00", b"")
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
    if head.startswith(b"%PDF-"):
        return Sniffed(kind="pdf", mime="application/pdf")
    # Containers (ZIP, TAR) before the looser PDF test: one that stores a PDF uncompressed
    # has "%PDF-" in its first kilobyte too.
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _sniff_zip(data)
    if (tar := looks_like_tar(data[: 1 << 20], filename or "")) is not None:  # same reason
        return Sniffed(kind="tar", mime=TAR_MIMES[tar])
    if head.startswith(_OLE_MAGIC):
        return _sniff_ole(data, ext)
    if b"%PDF-" in head[:1024]:  # a PDF after some junk, which readers accept
        return Sniffed(kind="pdf", mime="application/pdf")
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
        if brand in _HEIF_BRANDS:
            fmt, mime = _HEIF_BRANDS[brand]
            return Sniffed(kind="image", mime=mime, format=fmt)
        return Sniffed(kind="unknown", mime="video/mp4")
    for magic, fmt, mime in _AUDIO_MAGIC:
        if head.startswith(magic):
            return Sniffed(kind="audio", mime=mime, format=fmt)
    if len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0 and ext in ("", ".mp3"):
        return Sniffed(kind="audio", mime="audio/mpeg", format="mp3")
    if not _decodes_as_text(head):
        return Sniffed(kind="unknown", mime="application/octet-stream")
    # UTF-16 / UTF-32 text is sniffed as the UTF-8 it decodes to (XML, mail, CSV, ...).
    return _sniff_text(unicode_head(head) or head, ext)


def _sniff_text(head: bytes, ext: str) -> Sniffed:
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    lowered = stripped.lower()
    if lowered.startswith(b"{\\rtf"):  # before JSON: RTF starts with "{" too
        return Sniffed(kind="rtf", mime="application/rtf")
    if lowered.startswith(b"begin:vcard"):  # before mail: "BEGIN:" looks like a header
        return Sniffed(kind="vcard", mime="text/vcard")
    if lowered.startswith(b"begin:vcalendar"):
        return Sniffed(kind="icalendar", mime="text/calendar")
    if ext in (".ipynb",) or (lowered.startswith(b"{") and b'"nbformat"' in head):
        return Sniffed(kind="ipynb", mime="application/x-ipynb+json")
    if _MBOX_FROM.match(stripped) and _mail_headers(stripped.split(b"\n", 1)[-1]):
        return Sniffed(kind="mbox", mime="application/mbox")
    if _mail_headers(stripped):
        return Sniffed(kind="eml", mime="message/rfc822")
    if ext in _MARKDOWN_EXT:  # the name breaks the tie: Markdown with HTML stays Markdown
        return Sniffed(kind="markdown", mime="text/markdown")
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
    if _tab_table(head):
        return Sniffed(kind="csv", mime="text/tab-separated-values")
    return Sniffed(kind="text", mime="text/plain")


def _mail_headers(head: bytes) -> bool:
    """True when ``head`` opens with an RFC 822 header block that only mail has."""
    names: list[bytes] = []
    for line in head.split(b"\n")[:200]:
        line = line.rstrip(b"\r")
        if not line:
            break  # the end of the header block
        if line[:1] in (b" ", b"\t") and names:
            continue  # a folded header's continuation
        match = _HEADER.match(line)
        if match is None:
            return False
        names.append(match.group(1).lower())
    fields = set(names)
    if fields & _MAIL_FIELDS:
        return True
    return b"from" in fields and bool(fields & {b"to", b"subject", b"date", b"cc"})


def _tab_table(head: bytes) -> bool:
    """True for tab-separated values under a text name: at least three lines, each with
    the same number of tabs (prose with a stray tab does not line up like that)."""
    lines = [ln for ln in head.split(b"\n")[:50] if ln.strip()]
    if len(head) >= 4096:
        lines = lines[:-1]  # the last line may be cut
    if len(lines) < 3:
        return False
    counts = {ln.count(b"\t") for ln in lines}
    return len(counts) == 1 and counts.pop() >= 1


def family(s: Sniffed) -> str:
    """The parser family: ``image``, ``audio`` or ``file``."""
    return s.kind if s.kind in ("image", "audio") else "file"
