"""Content lines, the text format vCard (RFC 2425 / 2426 / 6350, and the older 2.1) and
iCalendar (RFC 5545) share: ``NAME;PARAM=value:value`` lines inside ``BEGIN:X`` /
``END:X`` blocks.

    [calendar] = parse_components(text)      # text: the decoded file
    event = calendar.children[0]
    event.text("SUMMARY"), event.first("DTSTART").param("TZID")

What the formats leave to the reader is undone here, so the renderers see plain values:

* folded lines are unfolded (a line break followed by a space or a tab continues the line);
* quoted-printable values (vCard 2.1) are decoded in their ``CHARSET``, soft line breaks
  (``=`` at the end of a line) included, whether or not the next line is indented;
* inline binary values (``ENCODING=BASE64`` / ``b``, ``data:`` URIs), photos mostly, are
  never kept as text: only their size is, so a base64 blob never becomes a memory;
* group prefixes (``item1.EMAIL``) are split off, and vCard 2.1's bare parameters
  (``TEL;CELL``) are read as the ``TYPE`` they stand for.

Backslash escapes (``\\,`` ``\\;`` ``\\n`` ``\\\\``) are left in ``Property.value``:
structured values (a name, an address) are split on unescaped ``;`` first, see
:func:`split_value`. Anything that is not a content line, or a block that is not closed,
raises :class:`ContentLineError` naming the line, never a half-read result.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import quopri
import re
from dataclasses import dataclass, field

__all__ = [
    "ContentLineError",
    "Property",
    "Component",
    "decode_content",
    "parse_components",
    "unescape",
    "split_value",
    "iso_date",
]

_NAME = re.compile(r"(?:([A-Za-z0-9-]+)\.)?([A-Za-z0-9-]+)")
_QP = re.compile(r"[^:]*;\s*(?:ENCODING\s*=\s*)?QUOTED-PRINTABLE\s*[;:]", re.I)
_B64 = re.compile(r"[^:]*;\s*(?:ENCODING\s*=\s*)?(?:BASE64|B)\s*[;:]", re.I)
_B64_LINE = re.compile(r"[A-Za-z0-9+/=]+")
_ESCAPE = re.compile(r"\\(.)", re.S)
_CARET = re.compile(r"\^([n^'])")  # RFC 6868 escapes in parameter values
# RFC 5545 folds lines at 75 octets, which can cut a UTF-8 character in two. Such folds
# are undone on the bytes, before decoding, so the halves meet again (removing a fold is
# what unfolding does anyway; quoted-printable values are ASCII and never match).
_SPLIT_FOLD = re.compile(rb"([\x80-\xff])\r?\n[ \t](?=[\x80-\xbf])")
_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2}):?(\d{2})?(Z)?)?")


class ContentLineError(ValueError):
    """The text is not well-formed content lines; the message names the line."""


@dataclass
class Property:
    name: str  # upper case, without its group
    value: str  # decoded from QP / charset, still backslash-escaped; "" for binary data
    params: dict[str, list[str]] = field(default_factory=dict)  # upper-case names
    group: str | None = None
    binary: int | None = None  # bytes of inline binary data (a photo), when it had any

    def param(self, name: str) -> str | None:
        values = self.params.get(name.upper())
        return values[0] if values else None

    @property
    def types(self) -> list[str]:
        """TYPE values in lower case, however they were written (``TYPE=a,b``, 2.1 bare)."""
        return [t.lower() for v in self.params.get("TYPE", []) for t in v.split(",") if t]


@dataclass
class Component:
    name: str  # upper case: VCARD, VCALENDAR, VEVENT, ...
    line: int  # where its BEGIN is, 1-based
    properties: list[Property] = field(default_factory=list)
    children: list[Component] = field(default_factory=list)

    def first(self, name: str) -> Property | None:
        return next((p for p in self.properties if p.name == name), None)

    def all(self, name: str) -> list[Property]:
        return [p for p in self.properties if p.name == name]

    def text(self, name: str) -> str | None:
        """The first ``name`` property's value, unescaped and stripped; None if absent."""
        prop = self.first(name)
        value = unescape(prop.value).strip() if prop else ""
        return value or None


def decode_content(data: bytes, label: str) -> str:
    """The text of a vCard / iCalendar file in whatever encoding it was written."""
    from omnireader.formats.plain.text import decode_text

    return decode_text(_SPLIT_FOLD.sub(rb"\1", data), label).lstrip("\ufeff")


def unescape(value: str) -> str:
    """``\\n`` / ``\\N`` become line breaks; any other escaped character is itself."""
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def split_value(value: str, sep: str = ";") -> list[str]:
    """A structured value's components, each unescaped: ``Doe;John\\, Jr.`` -> two."""
    parts, current, escaped = [], [], False
    for ch in value:
        if escaped:
            current.append("\\" + ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == sep:
            parts.append(unescape("".join(current)).strip())
            current = []
        else:
            current.append(ch)
    parts.append(unescape("".join(current)).strip())
    return parts


def iso_date(value: str) -> str:
    """``20240312T090000Z`` -> ``2024-03-12T09:00:00Z``, ``19800412`` -> ``1980-04-12``;
    anything else (``--0412``, a period, free text) comes back as written."""
    match = _DATE.fullmatch(value.strip())
    if not match:
        return value.strip()
    year, month, day, hour, minute, second, utc = match.groups()
    if hour is None:
        return f"{year}-{month}-{day}"
    return f"{year}-{month}-{day}T{hour}:{minute}:{second or '00'}{utc or ''}"


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Unfolded lines with the number of the physical line each starts on."""
    # Pieces are joined at the end: a photo folded over 10,000 lines would make repeated
    # string concatenation quadratic.
    out: list[tuple[int, list[str]]] = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        if out:
            head, pieces = out[-1][1][0], out[-1][1]
            if pieces[-1].endswith("=") and _QP.match(head):
                # A quoted-printable soft break: the next line continues the value as it
                # stands (2.1 writers may or may not indent it; the indent is text then).
                pieces[-1] = pieces[-1][:-1]
                pieces.append(line)
                continue
            if line[:1] in (" ", "\t"):
                pieces.append(line[1:])
                continue
            if _B64_LINE.fullmatch(line) and _B64.match(head):
                # vCard 2.1 base64 runs on unindented lines until a blank line.
                pieces.append(line)
                continue
        out.append((number, [line]))
    return [(number, "".join(pieces)) for number, pieces in out]


def _split_params(head: str) -> list[str]:
    """``;``-separated pieces of the part before the value, respecting quoted strings."""
    pieces, current, quoted = [], [], False
    for ch in head:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            pieces.append("".join(current))
            current = []
        else:
            current.append(ch)
    pieces.append("".join(current))
    return pieces


def _value_start(line: str) -> int:
    """Where the value starts: after the first ``:`` that is outside a quoted parameter."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            return i + 1
    return -1


def _decode(prop: Property) -> None:
    encoding = (prop.param("ENCODING") or "").upper()
    if encoding in ("BASE64", "B"):
        try:
            prop.binary = len(base64.b64decode(re.sub(r"\s+", "", prop.value)))
        except (binascii.Error, ValueError):
            prop.binary = len(prop.value) * 3 // 4  # broken base64 is still not text
        prop.value = ""
    elif prop.value[:5].lower() == "data:" and "," in prop.value:
        meta, data = prop.value[5:].split(",", 1)
        prop.binary = len(data) * 3 // 4 if meta.endswith(";base64") else len(data)
        prop.params.setdefault("MEDIATYPE", [meta.split(";")[0]])
        prop.value = ""
    elif encoding == "QUOTED-PRINTABLE":
        raw = quopri.decodestring(prop.value.encode("utf-8"))
        charset = prop.param("CHARSET") or "utf-8"
        try:
            codecs.lookup(charset)
        except LookupError:
            charset = "utf-8"
        # Phones label Latin-1 text as UTF-8 now and then: read stray bytes as cp1252.
        try:
            prop.value = raw.decode(charset)
        except UnicodeDecodeError:
            prop.value = raw.decode("cp1252", errors="replace")


def _property(line: str, number: int) -> Property:
    start = _value_start(line)
    if start < 0:
        raise ContentLineError(f"line {number} is not a content line (no ':'): {line[:60]!r}")
    pieces = _split_params(line[: start - 1])
    match = _NAME.fullmatch(pieces[0].strip())
    if not match:
        raise ContentLineError(f"line {number} has no valid property name: {line[:60]!r}")
    prop = Property(name=match.group(2).upper(), value=line[start:], group=match.group(1))
    for piece in pieces[1:]:
        name, eq, value = piece.partition("=")
        if not eq:  # vCard 2.1: "TEL;CELL;VOICE" and "PHOTO;BASE64" are bare values
            name, value = (
                "ENCODING"
                if piece.strip().upper() in ("BASE64", "QUOTED-PRINTABLE", "8BIT", "7BIT")
                else "TYPE",
                piece,
            )
        values = [
            _CARET.sub(lambda m: {"n": "\n", "^": "^", "'": '"'}[m.group(1)], v.strip('" '))
            for v in re.findall(r'"[^"]*"|[^,]+', value)
        ]
        prop.params.setdefault(name.strip().upper(), []).extend(values)
    _decode(prop)
    return prop


def parse_components(text: str) -> list[Component]:
    """The top-level components of ``text`` with their properties and nested components.

    Raises :class:`ContentLineError` when a line is not a content line, a property stands
    outside any component, or a ``BEGIN`` has no matching ``END``.
    """
    top: list[Component] = []
    stack: list[Component] = []
    for number, line in _logical_lines(text.lstrip("\ufeff")):
        if not line.strip():
            continue  # blank lines between (and, from some writers, inside) blocks
        prop = _property(line, number)
        if prop.name == "BEGIN":
            component = Component(name=prop.value.strip().upper(), line=number)
            (stack[-1].children if stack else top).append(component)
            stack.append(component)
        elif prop.name == "END":
            name = prop.value.strip().upper()
            if not stack or stack[-1].name != name:
                open_name = f"BEGIN:{stack[-1].name} of line {stack[-1].line}" if stack else "none"
                raise ContentLineError(
                    f"line {number}: END:{name} does not close the open block ({open_name})"
                )
            stack.pop()
        elif not stack:
            raise ContentLineError(f"line {number}: {prop.name} stands outside any BEGIN/END block")
        else:
            stack[-1].properties.append(prop)
    if stack:
        raise ContentLineError(
            f"the file ends inside BEGIN:{stack[-1].name} of line "
            f"{stack[-1].line} (no END:{stack[-1].name}): it is cut short"
        )
    return top
