"""A document's own properties: title, authors, created / modified, from the format itself.

The item's time is the document's date when it has one, not the file's mtime (a copy, a
download or an unzip resets that). Each format keeps its properties somewhere else:

- OOXML (DOCX, XLSX, PPTX): ``docProps/core.xml`` (:func:`core_info`, :func:`package_info`);
- OLE compound files (DOC, XLS, PPT, MSG): the SummaryInformation stream
  (:func:`ole_info`, through olefile's ``get_metadata``).

Authors go through :func:`omnireader.formats.people.people`, so a tool or a default account
name is never a person.

    info = package_info(open("deck.pptx", "rb").read())
    info.created, info.authors          # '2024-03-01T09:30:00+00:00', ['Ana Lima']
"""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime, timedelta
from typing import Any

from omnireader.formats.archives.zip import PACKAGE_ERRORS
from omnireader.formats.document import DocInfo
from omnireader.formats.people import people

__all__ = [
    "core_info",
    "iso_date",
    "ole_info",
    "package_info",
    "template_dated",
    "with_ole_dates",
]

_CORE = {
    "cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
    "dc": "http://purl.org/dc/elements/1.1/",
    "dcterms": "http://purl.org/dc/terms/",
}
# Office writes 1601-01-01 (FILETIME zero) or 1899/1900 (OLE date zero) for "no date".
_EARLIEST_YEAR = 1971
# A document saved this long after it was created was made from an older file: a template,
# last year's report. Its content is the later save's; a tool's template (the creator is a
# program, not a person) dates nothing once a person has saved the document a month later.
_TEMPLATE_GAP = timedelta(days=365)
_TOOL_TEMPLATE_GAP = timedelta(days=30)


def template_dated(info: DocInfo, creator_is_tool: bool = False) -> DocInfo:
    """``info`` marked ``dated_by_modified`` when its creation date is a template's: the
    document was last saved over a year after it was created (a month, when a tool, not a
    person, created it). A creation date kept for what it is, and used, otherwise."""
    if not (info.created and info.modified):
        return info
    try:
        created = datetime.fromisoformat(info.created)
        modified = datetime.fromisoformat(info.modified)
        gap = modified - created
    except (TypeError, ValueError):  # naive against aware, or not a date
        return info
    info.dated_by_modified = gap > (_TOOL_TEMPLATE_GAP if creator_is_tool else _TEMPLATE_GAP)
    return info


def iso_date(value: str | datetime | None) -> str | None:
    """``value`` as an ISO 8601 string with a time zone (UTC when none is given), or None
    when it is missing, not a date, or a placeholder date before 1971."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        text = value.strip()
        try:
            # Python 3.11 parses "Z"; W3CDTF also allows a bare year or year-month.
            moment = datetime.fromisoformat(text)
        except ValueError:
            moment = _partial_date(text)
            if moment is None:
                return None
    if moment.year < _EARLIEST_YEAR:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def _partial_date(text: str) -> datetime | None:
    for layout in ("%Y", "%Y-%m"):
        try:
            return datetime.strptime(text, layout)
        except ValueError:
            continue
    return None


def core_info(core: bytes) -> DocInfo:
    """``docProps/core.xml`` → DocInfo; the same in transitional and Strict OOXML. An empty
    or damaged part gives an empty DocInfo: properties are never a reason not to read."""
    if not core:
        return DocInfo()
    from lxml import etree

    try:
        # Untrusted XML: no entity expansion (billion laughs), no network.
        root = etree.fromstring(core, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return DocInfo()

    def field(name: str) -> str | None:
        el = root.find(name, _CORE)
        text = " ".join((el.text or "").split()) if el is not None else ""
        return text or None

    creator, editor = field("dc:creator"), field("cp:lastModifiedBy")
    extra: dict[str, Any] = {
        key: value
        for key in ("subject", "keywords", "description", "category")
        if (value := field(f"dc:{key}") or field(f"cp:{key}"))
    }
    if creator and not people([creator]):
        extra["creator"] = creator  # kept as written: it names the tool, worth showing
    if language := field("dc:language"):
        extra["language"] = language
    info = DocInfo(
        title=field("dc:title"),
        authors=people([creator, editor]),
        created=iso_date(field("dcterms:created")),
        modified=iso_date(field("dcterms:modified")),
        extra=extra,
    )
    return template_dated(info, creator_is_tool="creator" in extra)


def package_info(package: bytes | str | zipfile.ZipFile) -> DocInfo:
    """The core properties of an OOXML package given as bytes, a path or an open ZIP."""
    try:
        if isinstance(package, zipfile.ZipFile):
            return core_info(_member(package, "docProps/core.xml"))
        source = io.BytesIO(package) if isinstance(package, bytes) else package
        with zipfile.ZipFile(source) as opened:
            return core_info(_member(opened, "docProps/core.xml"))
    except PACKAGE_ERRORS:
        return DocInfo()  # the reader reports a damaged package; properties are optional


def _member(package: zipfile.ZipFile, name: str) -> bytes:
    try:
        info = package.getinfo(name)
    except KeyError:
        return b""
    # A properties part is a few KB; a huge one is not worth inflating.
    return package.read(info) if info.file_size <= 4 << 20 else b""


def ole_info(data: bytes) -> DocInfo:
    """The SummaryInformation of an OLE compound file (DOC, XLS, PPT, MSG) → DocInfo.

    olefile parses the property set; a file without it (or not OLE at all) gives an empty
    DocInfo.
    """
    import olefile

    try:
        if not olefile.isOleFile(data):
            return DocInfo()
        with olefile.OleFileIO(data) as ole:
            meta = ole.get_metadata()
    except Exception:  # noqa: BLE001 - olefile raises anything on a damaged property set
        return DocInfo()

    def text(name: str) -> str | None:
        value = getattr(meta, name, None)
        if isinstance(value, bytes):
            codepage = getattr(meta, "codepage", None)
            value = _decode(value, codepage)
        if not isinstance(value, str):
            return None
        return " ".join(value.replace("\x00", " ").split()) or None

    creator, editor = text("author"), text("last_saved_by")
    extra: dict[str, Any] = {
        key: value
        for key in ("subject", "keywords", "comments", "category")
        if (value := text(key))
    }
    if creator and not people([creator]):
        extra["creator"] = creator
    if company := text("company"):
        extra["company"] = company
    info = DocInfo(
        title=text("title"),
        authors=people([creator, editor]),
        created=_ole_time(getattr(meta, "create_time", None)),
        modified=_ole_time(getattr(meta, "last_saved_time", None)),
        extra=extra,
    )
    return template_dated(info, creator_is_tool="creator" in extra)


def _decode(value: bytes, codepage: int | None) -> str:
    # Code page 1200 is UTF-16; 65001 UTF-8; anything else a Windows code page.
    encoding = {1200: "utf-16-le", 65001: "utf-8"}.get(codepage or 0, f"cp{codepage or 1252}")
    try:
        return value.decode(encoding, "replace").rstrip("\x00")
    except LookupError:
        return value.decode("cp1252", "replace").rstrip("\x00")


def _ole_time(value: object) -> str | None:
    # olefile gives FILETIMEs as naive UTC datetimes; an edit-time duration as a number.
    return iso_date(value) if isinstance(value, datetime) else None


_CORE_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties '
    'xmlns:cp="{cp}" xmlns:dc="{dc}" xmlns:dcterms="{dcterms}" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"></cp:coreProperties>'
).format(**_CORE)


def with_ole_dates(package: bytes, ole: bytes) -> bytes:
    """The OOXML ``package`` a legacy file was converted to, its ``docProps/core.xml``
    given the original's SummaryInformation dates and title when the converter left them
    out; the package unchanged when it has them (or the original has none)."""
    have, source = package_info(package), ole_info(ole)
    missing = {
        "dcterms:created": source.created if not have.created else None,
        "dcterms:modified": source.modified if not have.modified else None,
        "dc:title": source.title if not have.title else None,
    }
    if not any(missing.values()):
        return package
    from lxml import etree

    try:
        with zipfile.ZipFile(io.BytesIO(package)) as src:
            core = _member(src, "docProps/core.xml")
            parser = etree.XMLParser(resolve_entities=False, no_network=True)
            root = etree.fromstring(core or _CORE_XML.encode(), parser)
            for name, value in missing.items():
                if value is None:
                    continue
                prefix, local = name.split(":")
                el = root.find(name, _CORE)
                if el is None:
                    el = etree.SubElement(root, f"{{{_CORE[prefix]}}}{local}")
                el.text = value
                if prefix == "dcterms":
                    el.set("{http://www.w3.org/2001/XMLSchema-instance}type", "dcterms:W3CDTF")
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
                for member in src.infolist():
                    if member.filename != "docProps/core.xml":
                        dst.writestr(member, src.read(member))
                dst.writestr(
                    "docProps/core.xml",
                    etree.tostring(root, xml_declaration=True, encoding="UTF-8"),
                )
        # A package without the part lists it nowhere: readers here find it by name.
        return out.getvalue()
    except (*PACKAGE_ERRORS, etree.XMLSyntaxError):
        return package  # the dates are a nicety; the converted text is what matters
