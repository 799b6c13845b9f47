"""PDFs with text placed where a test needs it, made on the spot with PDFium.

``Text(x, y, text, size, bold)`` is drawn with its baseline ``y`` points below the page's
top edge, in Helvetica (or Helvetica-Bold, or the standard font it names), turned ``turn``
degrees anticlockwise about its start (90: running up the page); ``Rule`` draws a stroked line. An outline can
be added afterwards with pypdf (:func:`with_outline`).
"""

from __future__ import annotations

import ctypes
import io
import math
from dataclasses import dataclass

WIDTH, HEIGHT = 612.0, 792.0


@dataclass
class Text:
    x: float
    y: float
    text: str
    size: float = 10.0
    bold: bool = False
    font: str | None = None  # a standard font by name ("Helvetica-BoldOblique"), else by bold
    turn: int = 0  # degrees anticlockwise: 90 runs up the page, 270 down it
    invisible: bool = False  # drawn in render mode 3: in the text layer, never shown


@dataclass
class Line:
    x0: float
    y0: float
    x1: float
    y1: float


def build_pdf(pages: list[list[Text | Line]], font_file: bytes | None = None) -> bytes:
    """One page per list of items. With ``font_file`` (a TrueType font), text is set in it
    (embedded, with a ToUnicode map) instead of the standard Helvetica."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    doc = pdfium.PdfDocument.new()
    fonts: dict[bool | str, object] = {}
    if font_file is not None:
        buffer = (ctypes.c_uint8 * len(font_file)).from_buffer_copy(font_file)
        loaded = pdfium_c.FPDFText_LoadFont(
            doc, buffer, len(font_file), pdfium_c.FPDF_FONT_TRUETYPE, True
        )
        fonts = {False: loaded, True: loaded}
    else:
        fonts = {
            False: pdfium_c.FPDFText_LoadStandardFont(doc, b"Helvetica"),
            True: pdfium_c.FPDFText_LoadStandardFont(doc, b"Helvetica-Bold"),
        }
    for items in pages:
        page = doc.new_page(WIDTH, HEIGHT)
        for item in items:
            if isinstance(item, Text):
                key: bool | str = item.font or item.bold
                if key not in fonts:
                    fonts[key] = pdfium_c.FPDFText_LoadStandardFont(doc, str(key).encode())
                obj = pdfium_c.FPDFPageObj_CreateTextObj(doc, fonts[key], item.size)
                wide = ctypes.create_string_buffer((item.text + "\0").encode("utf-16-le"))
                pdfium_c.FPDFText_SetText(
                    obj, ctypes.cast(wide, ctypes.POINTER(pdfium_c.FPDF_WCHAR))
                )
                cos = round(math.cos(math.radians(item.turn)), 6)
                sin = round(math.sin(math.radians(item.turn)), 6)
                pdfium_c.FPDFPageObj_Transform(obj, cos, sin, -sin, cos, item.x, HEIGHT - item.y)
                if item.invisible:
                    pdfium_c.FPDFTextObj_SetTextRenderMode(
                        obj, pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE
                    )
            else:
                obj = pdfium_c.FPDFPageObj_CreateNewPath(item.x0, HEIGHT - item.y0)
                pdfium_c.FPDFPath_LineTo(obj, item.x1, HEIGHT - item.y1)
                pdfium_c.FPDFPageObj_SetStrokeColor(obj, 0, 0, 0, 255)
                pdfium_c.FPDFPageObj_SetStrokeWidth(obj, 0.8)
                pdfium_c.FPDFPath_SetDrawMode(obj, pdfium_c.FPDF_FILLMODE_NONE, True)
            pdfium_c.FPDFPage_InsertObject(page, obj)
        pdfium_c.FPDFPage_GenerateContent(page)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def with_outline(pdf: bytes, entries: list[tuple[str, int, int]]) -> bytes:
    """``pdf`` with bookmarks ``(title, level, page index)`` (level 1 = top)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    parents: dict[int, object] = {}
    for title, level, page in entries:
        parent = parents.get(level - 1)
        parents[level] = writer.add_outline_item(title=title, page_number=page, parent=parent)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def paragraph(
    x: float, y: float, lines: list[str], size: float = 10.0, leading: float = 12.0
) -> list[Text]:
    """Lines of one paragraph, ``leading`` points apart."""
    return [Text(x, y + i * leading, line, size) for i, line in enumerate(lines)]


COURIER_ADVANCE = 6.0  # Courier's advance at 10 pt


def courier_line(x: float, y: float, line: str) -> list[Text]:
    """``line`` in Courier, each word at its character column (the spaces are the gaps)."""
    items, column = [], 0
    for part in line.split(" "):
        if part:
            items.append(Text(x + column * COURIER_ADVANCE, y, part, font="Courier"))
        column += len(part) + 1
    return items


def tall_metrics_font(ascent: int = 8000, descent: int = -4000) -> bytes:
    """DejaVu Sans with its ascent, descent and bounding box set ~4× too tall (in font
    units of 2048), as some embedded fonts come: PDFium's loose box of each character is
    then several lines tall."""
    import struct
    from pathlib import Path

    ttf = bytearray(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").read_bytes())
    tables = {}
    for i in range(struct.unpack(">H", ttf[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", ttf[12 + 16 * i : 28 + 16 * i])
        tables[tag] = offset
    struct.pack_into(">hh", ttf, tables[b"hhea"] + 4, ascent, descent)
    struct.pack_into(">hh", ttf, tables[b"OS/2"] + 68, ascent, descent)
    struct.pack_into(">HH", ttf, tables[b"OS/2"] + 74, ascent, -descent)
    struct.pack_into(">h", ttf, tables[b"head"] + 38, descent)
    struct.pack_into(">h", ttf, tables[b"head"] + 42, ascent)
    return bytes(ttf)
