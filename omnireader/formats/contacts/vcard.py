"""vCard files (.vcf, versions 2.1, 3.0 and 4.0) as readable contact cards, one section
(so one memory item) per contact.

    doc = extract_vcard(Blob(path="contacts.vcf"))
    [s.heading for s in doc.sections]      # ["Jürgen Müller", "Ann Lee"]

A contact reads as one line per field, labelled in words rather than property names::

    Name: Jürgen Müller
    Phone (cell): +49 170 1234567
    Email (work): jm@example.com
    Organization: Acme GmbH, Sales
    Address (home): Hauptstr. 1, 50667 Köln, Germany
    Note: met at the café in Köln

Embedded photos, logos and keys are noted with their size, never dumped as base64.
Bookkeeping (VERSION, PRODID, UID, REV) and vendor extensions (``X-...``) are left out;
an Apple ``X-ABLabel`` names the field of its group (``item1.EMAIL`` -> ``Email (Gym)``).
Parsing is :mod:`.contentlines`'; a file that is not well-formed vCard raises
:class:`CorruptError` naming it and the line.
"""

from __future__ import annotations

import re

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.contacts.contentlines import (
    Component,
    ContentLineError,
    Property,
    decode_content,
    iso_date,
    parse_components,
    split_value,
    unescape,
)
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_vcard", "render_vcard"]

# Property -> label, in the order fields are shown. Multi-valued ones are read every time.
_LABELS = {
    "NICKNAME": "Nickname",
    "TEL": "Phone",
    "EMAIL": "Email",
    "IMPP": "Chat",
    "ORG": "Organization",
    "TITLE": "Title",
    "ROLE": "Role",
    "ADR": "Address",
    "URL": "Website",
    "BDAY": "Birthday",
    "ANNIVERSARY": "Anniversary",
    "GENDER": "Gender",
    "RELATED": "Related",
    "MEMBER": "Member",
    "CATEGORIES": "Categories",
    "GEO": "Location",
    "TZ": "Time zone",
    "LANG": "Language",
    "NOTE": "Note",
    "PHOTO": "Photo",
    "LOGO": "Logo",
    "SOUND": "Sound",
    "KEY": "Public key",
}
# TYPE values that say nothing a reader needs ("internet" e-mail, a "pref" flag, ...).
_QUIET_TYPES = {"internet", "pref", "voice", "x400", "text", "uri"}
_URI_SCHEME = re.compile(r"^(?:tel|mailto|geo|sip|xmpp):", re.I)
_APPLE_LABEL = re.compile(r"^_\$!<(.*)>!\$_$")  # Apple's built-in labels: _$!<Mobile>!$_


def _labels(card: Component) -> dict[str, str]:
    """Apple groups: ``item1.X-ABLabel:Gym`` names ``item1.EMAIL``'s kind."""
    out = {}
    for prop in card.all("X-ABLABEL"):
        if prop.group:
            label = unescape(prop.value).strip()
            match = _APPLE_LABEL.match(label)
            out[prop.group.lower()] = (match.group(1) if match else label).lower()
    return out


def _kinds(prop: Property, labels: dict[str, str]) -> list[str]:
    kinds = [t for t in prop.types if t not in _QUIET_TYPES and not t.startswith("x-")]
    if prop.group and prop.group.lower() in labels:
        kinds.append(labels[prop.group.lower()])
    return list(dict.fromkeys(kinds))


def _binary(prop: Property, what: str) -> str:
    # TYPE=JPEG (2.1, 3.0) or a data: URI's media type (4.0): image/jpeg.
    kind = (prop.param("TYPE") or prop.param("MEDIATYPE") or "").split("/")[-1].upper()
    size = prop.binary or 0
    amount = f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} bytes"
    return f"embedded {kind + ' ' if kind else ''}{what.lower()} ({amount}, not shown)"


def _value(prop: Property) -> str:
    if prop.name in ("N", "ADR", "ORG", "GENDER"):
        parts = split_value(prop.value)
        if prop.name == "ADR":
            # PO box; extended; street; locality; region; postal code; country, read the
            # way an envelope is: "Hauptstr. 1, 50667 Köln, Germany".
            box, extended, street, city, region, code, country = (parts + [""] * 7)[:7]
            parts = [box, extended, street, f"{code} {city}".strip(), region, country]
        return ", ".join(p.replace("\n", ", ") for p in parts if p)
    if prop.name in ("NICKNAME", "CATEGORIES"):
        return ", ".join(p for p in split_value(prop.value, ",") if p)
    if prop.name in ("BDAY", "ANNIVERSARY"):
        return iso_date(unescape(prop.value))
    return _URI_SCHEME.sub("", unescape(prop.value).strip())


def _name(card: Component) -> str | None:
    if card.text("FN"):
        return " ".join((card.text("FN") or "").split())
    n = card.first("N")
    if n is not None:
        # Family; given; additional; prefixes; suffixes -> "prefix given additional family suffix".
        family, given, additional, prefix, suffix = (split_value(n.value) + [""] * 5)[:5]
        name = " ".join(p for p in (prefix, given, additional, family, suffix) if p)
        if name:
            return name
    return None


def render_vcard(card: Component) -> tuple[str | None, str]:
    """The contact's name (None when it has none) and its fields as labelled lines."""
    name = _name(card)
    labels = _labels(card)
    lines = [f"Name: {name}"] if name else []
    has_adr = card.first("ADR") is not None
    for prop_name, label in _LABELS.items():
        props = card.all(prop_name)
        if prop_name == "ADR" and not has_adr:
            props = card.all("LABEL")  # 2.1 / 3.0: a formatted address without the parts
        for prop in props:
            if prop.binary is not None:
                lines.append(f"{label}: {_binary(prop, label)}")
                continue
            media = prop.name in ("PHOTO", "LOGO", "SOUND", "KEY")
            if media and not prop.value.startswith(("http:", "https:")):
                continue  # a key's text or a vendor's reference: nothing to read
            text = _value(prop)
            if not text:
                continue
            kinds = _kinds(prop, labels)
            lines.append(f"{label} ({', '.join(kinds)}): {text}" if kinds else f"{label}: {text}")
    return name, "\n".join(lines)


def extract_vcard(blob: Blob) -> Extraction:
    """One section per contact of a .vcf file, headed by the contact's name."""
    text = decode_content(blob.read_bytes(), blob.label)
    if not text.lstrip("\ufeff \t\r\n")[:11].upper().startswith("BEGIN:VCARD"):
        raise CorruptError(blob.label, "not a vCard file (it does not start with BEGIN:VCARD)")
    try:
        components = parse_components(text)
    except ContentLineError as e:
        raise CorruptError(blob.label, f"not a well-formed vCard: {e}") from None
    sections = []
    for card in components:
        if card.name != "VCARD":
            raise CorruptError(
                blob.label,
                f"not a well-formed vCard: line {card.line} opens "
                f"BEGIN:{card.name} where a BEGIN:VCARD belongs",
            )
        name, body = render_vcard(card)
        if body:
            sections.append(Section(text=body, heading=name))
    if not sections:
        raise EmptyInputError(blob.label, "the vCard file holds no contact details")
    info = DocInfo(extra={"extractor": "vcard", "contacts": len(sections)})
    if len(sections) == 1:  # one contact: the file is that person's card
        info.title = sections[0].heading
    return Extraction(info=info, sections=iter(sections))


def _read_vcard(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_vcard(blob)


FORMATS = (
    Format(
        name="vcard",
        rank=21,
        display="VCF",
        extensions=(".vcf", ".vcard"),
        mimes=("text/vcard",),
        # before mail: "BEGIN:" looks like a header
        magic=(
            Magic(20, lambda p: p.lowered.startswith(b"begin:vcard"), "text"),
            Magic(80, by_extension(".vcf", ".vcard"), "text"),
        ),
        extract=_read_vcard,
        readme_group="vCard (.vcf), iCalendar (.ics)",
        readme="one item per contact / event: labelled fields (name, phones, e-mails, address; "
        "summary, start and end, place, attendees), folded lines, quoted-printable and escapes "
        "undone, embedded photos noted by size",
    ),
)
