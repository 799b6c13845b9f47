"""A PDF's document info: title, authors, dates and the rest of the Info dict, with XMP's
values (read by pypdf) where the Info dict lacks one."""

from __future__ import annotations

import io
import logging
import mmap
import warnings
from datetime import UTC
from typing import TYPE_CHECKING, Any

from omnireader.formats.document import DocInfo, pdf_date_to_iso
from omnireader.formats.people import people
from omnireader.formats.word_lists import load_word_list
from omnireader.payloads import Blob

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["doc_info"]

# The root element of an XMP packet ("xapmeta" in the first versions of XMP).
_XMP_ROOTS = (b"<x:xmpmeta", b"<x:xapmeta")


def doc_info(doc: pypdfium2.PdfDocument, blob: Blob, password: str | None) -> DocInfo:
    import pypdfium2.raw as pdfium_c

    # PDFium's Info dict costs nothing; pypdf parses the whole cross-reference table (a few
    # ms a file: more than reading a short PDF's pages) and is asked only for the XMP
    # packet, when the Info dict lacks something and the file holds a packet at all.
    fields = {
        key: text for key, value in doc.get_metadata_dict().items() if (text := _clean(value))
    }
    xmp: dict[str, Any] = {}
    if not _complete(fields) and _has_xmp(blob):
        more, xmp = _pypdf_metadata(blob, password)
        fields = more or fields
    title = _meaningful(fields.get("Title")) or _meaningful(xmp.get("title"))
    # Only people: "Microsoft Office User" or a tool's name in /Author is no author.
    authors = people(_split_authors(fields.get("Author"))) or people(
        _meaningful(a) for a in xmp.get("creators", [])
    )
    created = pdf_date_to_iso(fields.get("CreationDate")) or xmp.get("created")
    modified = pdf_date_to_iso(fields.get("ModDate")) or xmp.get("modified")
    extra: dict[str, Any] = {
        key.lower(): value
        for key in ("Subject", "Keywords", "Creator", "Producer")
        if (value := _meaningful(fields.get(key)))
    }
    extra["encrypted"] = pdfium_c.FPDF_GetSecurityHandlerRevision(doc) != -1
    extra["extractor"] = "pypdfium2"
    return DocInfo(
        title=title,
        authors=authors,
        created=created,
        modified=modified,
        page_count=len(doc),
        extra=extra,
    )


def _complete(fields: dict[str, str]) -> bool:
    """The Info dict has everything XMP could add: a title, people, both dates."""
    return bool(
        _meaningful(fields.get("Title"))
        and people(_split_authors(fields.get("Author")))
        and pdf_date_to_iso(fields.get("CreationDate"))
        and pdf_date_to_iso(fields.get("ModDate"))
    )


def _has_xmp(blob: Blob) -> bool:
    """An XMP packet's root element is in the file. The PDF reference advises leaving
    metadata streams unfiltered, so that tools which do not read PDF find them; a search
    of the bytes (mapped, not read) is far cheaper than parsing the file."""
    if blob.data is not None:
        return any(blob.data.find(root) >= 0 for root in _XMP_ROOTS)
    try:
        with (
            open(blob.path or "", "rb") as stream,
            mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data,
        ):
            return any(data.find(root) >= 0 for root in _XMP_ROOTS)
    except (OSError, ValueError):
        return True  # cannot tell (an empty or special file): let pypdf look


def _pypdf_metadata(blob: Blob, password: str | None) -> tuple[dict[str, str], dict[str, Any]]:
    """The Info dict and a few XMP values via pypdf; ``({}, {})`` when pypdf cannot read it.

    pypdf reads only the trailer, the Info dict and the catalog's /Metadata here. It gets a
    file handle, not a path: given a path it would read the whole file into memory.
    """
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    # Malformed files make pypdf log and warn; the outcome is reported by our flags / errors.
    pypdf_log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), _open_stream(blob) as stream:
            warnings.simplefilter("ignore")
            reader = PdfReader(stream, strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                return {}, {}
            fields: dict[str, str] = {}
            for key, value in (reader.metadata or {}).items():
                if isinstance(value, IndirectObject):
                    value = value.get_object()
                if isinstance(value, str) and (text := _clean(value)):
                    fields[str(key).lstrip("/")] = text
            return fields, _xmp(reader)
    except Exception:  # noqa: BLE001 - any pypdf failure just means "use PDFium's info"
        return {}, {}
    finally:
        pypdf_log.setLevel(level)


def _open_stream(blob: Blob) -> io.BufferedIOBase:
    if blob.data is not None:
        return io.BytesIO(blob.data)  # shares the bytes' buffer until written, no copy
    return open(blob.path or "", "rb")  # noqa: SIM115 - closed by the caller's with-block


def _xmp(reader: Any) -> dict[str, Any]:
    try:
        xmp = reader.xmp_metadata
        if xmp is None:
            return {}
        titles = xmp.dc_title or {}
        out: dict[str, Any] = {
            "title": titles.get("x-default") or next(iter(titles.values()), None),
            "creators": [str(name) for name in xmp.dc_creator or []],
        }
        for key, attr in (("created", "xmp_create_date"), ("modified", "xmp_modify_date")):
            moment = getattr(xmp, attr)
            if moment is not None and moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)  # pypdf gives naive UTC times
            out[key] = moment.isoformat() if moment is not None else None
        return out
    except Exception:  # noqa: BLE001 - malformed XMP is common and never fatal
        return {}


def _clean(value: str) -> str:
    return value.replace("\x00", "").strip()


def _meaningful(value: str | None) -> str | None:
    """``value`` unless it is empty or names nothing ("unknown", "(Anonymous)": the bundled
    ``placeholder_names`` list). A placeholder title ("Untitled") is the parser's to drop:
    it then titles the document by its first heading."""
    if not value:
        return None
    value = _clean(value)
    return (
        value
        if value and not load_word_list("placeholder_names").match(value.strip("()"))
        else None
    )


def _split_authors(value: str | None) -> list[str]:
    # Only ";" separates people reliably; "Doe, John" is one person.
    names = [_meaningful(part) for part in (value or "").split(";")]
    return list(dict.fromkeys(name for name in names if name))
