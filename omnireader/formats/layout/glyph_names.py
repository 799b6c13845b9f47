"""Characters PDFium could not map to text, read back from their glyphs' names.

A simple font without a ToUnicode map whose /Encoding names its glyphs in /Differences
(``/f_i``, ``/T_h``, ``/eight.oldstyle`` in a typeset book) gives PDFium no Unicode for
the renamed codes: it reports a map error and returns the code itself, a control
character ("\\x0feld work" for "field work"), which the text then lost. The names are
Adobe's glyph naming (AGL): a ligature joins its parts with "_" and a variant adds a
suffix after ".", so "f_f_i" is "ffi" and "eight.oldstyle" is "8". Only a character that
PDFium itself flags as unmapped and whose font (by base name) has one name for its code in
the document is read back; anything else stays as it was (no guess). PDFium has no call
for a font's encoding, so pypdf reads the document's font dictionaries, once per document
and only when a page has such characters.
"""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING, Any

from omnireader.formats.layout.pdfium_calls import Calls

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["EXPANSIONS", "read_back"]

# Control characters other than the line breaks PDFium generates itself; a "\r" counts only
# when PDFium flags it unmapped (checked per character).
_CONTROL = re.compile(r"[\x01-\x08\x0e-\x1f\r]")
#: Noncharacters standing, index for index, for a read-back of more than one character
#: ("Th"); the word's text expands them (a page has a few distinct ones at most).
EXPANSIONS = "\ufdd1\ufdd2\ufdd3\ufdd4\ufdd5\ufdd6\ufdd7\ufdd8\ufdd9\ufdda\ufddb\ufddc"
_BY_DOCUMENT: weakref.WeakKeyDictionary[Any, dict[str, dict[int, str]]] = (
    weakref.WeakKeyDictionary()
)


def read_back(
    text: str, page: pypdfium2.PdfPage, handle: int | None, c: Calls
) -> tuple[str, dict[str, str]]:
    """``text`` with the unmapped control characters named by their fonts' encodings
    replaced, index for index, and the expansions of the stand-ins it used."""
    found = [m.start() for m in _CONTROL.finditer(text)]
    found = [i for i in found if c.map_error(handle, i) == 1]
    if not found:
        return text, {}
    names = _document_names(page.pdf)
    chars = list(text)
    stand_ins: dict[str, str] = {}
    for index in found:
        obj = c.text_object(handle, index)
        font = _base_name(c.font_of(obj)) if obj else ""
        value = _unicode(names.get(font, {}).get(ord(text[index]), ""))
        if len(value) == 1:
            chars[index] = value
        elif value:
            if value not in stand_ins:
                if len(stand_ins) == len(EXPANSIONS):
                    continue
                stand_ins[value] = EXPANSIONS[len(stand_ins)]
            chars[index] = stand_ins[value]
    return "".join(chars), {mark: value for value, mark in stand_ins.items()}


def _unicode(name: str) -> str:
    """The text of glyph ``name`` by AGL's rules ("" when a part has no known name)."""
    try:  # pypdf's table of Adobe's glyph list; a pypdf that moved it reads nothing back
        from pypdf._codecs import adobe_glyphs
    except ImportError:
        return ""
    if not name:
        return ""
    parts = name.split(".", 1)[0].split("_")
    out = []
    for part in parts:
        value = adobe_glyphs.get("/" + part, "")
        if not value and re.fullmatch(r"uni[0-9A-F]{4}", part):
            value = chr(int(part[3:], 16))
        if not value or not value.isprintable():
            return ""
        out.append(value)
    return "".join(out)


def _base_name(font: int | None) -> str:
    import ctypes

    import pypdfium2.raw as pdfium_c

    if not font:
        return ""
    handle = ctypes.cast(font, pdfium_c.FPDF_FONT)
    length = pdfium_c.FPDFFont_GetBaseFontName(handle, None, 0)
    if length <= 0:
        return ""
    buffer = ctypes.create_string_buffer(length)
    pdfium_c.FPDFFont_GetBaseFontName(handle, buffer, length)
    # A subset's "ABCDEF+" prefix: PDFium drops it, the dictionary keeps it.
    return buffer.value.decode("utf-8", "replace").split("+", 1)[-1]


def _document_names(doc: pypdfium2.PdfDocument) -> dict[str, dict[int, str]]:
    """{base font name (no subset prefix): {code: glyph name}} of the document's simple
    fonts without a ToUnicode map; a base name two such fonts encode differently is left
    out."""
    try:
        known = _BY_DOCUMENT.get(doc)
    except TypeError:
        known = None
    if known is not None:
        return known
    names = _read_names(getattr(doc, "_input", None))
    try:
        _BY_DOCUMENT[doc] = names
    except TypeError:
        pass
    return names


def _read_names(source: object) -> dict[str, dict[int, str]]:
    import io
    import logging
    import warnings
    from pathlib import Path

    from pypdf import PdfReader

    if isinstance(source, (str, Path)):
        stream: Any = source
    elif isinstance(source, (bytes, bytearray)):
        stream = io.BytesIO(source)
    else:
        return {}  # an open file or a raw handle: not read twice
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # a malformed file's complaints are not the reader's
    names: dict[str, dict[int, str]] = {}
    clashes: set[str] = set()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(stream, strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                return {}  # a password PDFium was given: the text stays as PDFium read it
            for page in reader.pages:
                for font in _fonts(page.get("/Resources")):
                    _add(font, names, clashes)
    except Exception:  # noqa: BLE001 - a file pypdf cannot read keeps PDFium's text as it is
        return {}
    finally:
        pypdf_log.setLevel(level)
    for base in clashes:
        names.pop(base, None)
    return names


def _fonts(resources: Any, depth: int = 0) -> list[Any]:
    """The font dictionaries of ``resources`` and of its forms (a few levels deep)."""
    resources = resources.get_object() if resources is not None else None
    if not isinstance(resources, dict) or depth > 3:
        return []
    fonts = [f.get_object() for f in (resources.get("/Font") or {}).values()]
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            fonts.extend(_fonts(xobject.get("/Resources"), depth + 1))
    return fonts


def _add(font: Any, names: dict[str, dict[int, str]], clashes: set[str]) -> None:
    if "/ToUnicode" in font or font.get("/Subtype") not in ("/Type1", "/TrueType", "/MMType1"):
        return
    encoding = font.get("/Encoding")
    encoding = encoding.get_object() if encoding is not None else None
    if not isinstance(encoding, dict):
        return
    differences = encoding.get("/Differences") or []
    codes: dict[int, str] = {}
    code = 0
    for item in differences:
        if isinstance(item, int):
            code = int(item)
        else:
            codes[code] = str(item).lstrip("/")
            code += 1
    base = str(font.get("/BaseFont", "")).lstrip("/").split("+", 1)[-1]
    if base in names and names[base] != codes:
        clashes.add(base)
    names[base] = codes
