"""Small real PDFs for the tests, made on the spot.

* :func:`text_pdf` — lines of text in DejaVu Sans, embedded by PDFium itself (with the
  ToUnicode map every sane writer adds); :func:`without_tounicode` drops that map, which
  leaves a PDF that renders fine and whose text layer decodes to garbage.
* :func:`raw_pdf` — a PDF written object by object, for what no library here writes:
  AcroForm fields, annotations, a CJK font named by a predefined CMap.
"""

from __future__ import annotations

import ctypes
import io
from pathlib import Path

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def text_pdf(pages: list[list[str]], size: float = 14) -> bytes:
    """One page per list of lines, drawn top-down in DejaVu Sans (a CID font PDFium embeds)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    doc = pdfium.PdfDocument.new()
    data = DEJAVU.read_bytes()
    buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    font = pdfium_c.FPDFText_LoadFont(doc, buffer, len(data), pdfium_c.FPDF_FONT_TRUETYPE, True)
    for lines in pages:
        page = doc.new_page(612, 792)
        for i, line in enumerate(lines):
            obj = pdfium_c.FPDFPageObj_CreateTextObj(doc, font, size)
            wide = ctypes.create_string_buffer((line + "\0").encode("utf-16-le"))
            pdfium_c.FPDFText_SetText(obj, ctypes.cast(wide, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
            pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, 720 - (size + 6) * i)
            pdfium_c.FPDFPage_InsertObject(page, obj)
        pdfium_c.FPDFPage_GenerateContent(page)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def without_tounicode(pdf: bytes) -> bytes:
    """``pdf`` with the ToUnicode maps of its fonts removed: glyphs with no way back to text."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    for page in writer.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            if "/ToUnicode" in font:
                del font[NameObject("/ToUnicode")]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def raw_pdf(objects: list[str | bytes]) -> bytes:
    """A PDF of ``objects`` (numbered from 1; object 1 is the catalog), with its xref."""
    out = bytearray(b"%PDF-1.6\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + (body.encode() if isinstance(body, str) else body)
        out += b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def stream(content: str | bytes, extra: str = "") -> bytes:
    data = content.encode("latin-1") if isinstance(content, str) else content
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra.encode()) + data + b"\nendstream"


def page_with(content: str, annots: str = "", font: str = "3 0 R") -> str:
    """A Letter page (object 2 is its parent) using ``font`` as /F1, content in object 4."""
    annots = f" /Annots [{annots}]" if annots else ""
    return (
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        f" /Resources << /Font << /F1 {font} >> >>{annots} >>"
    )


HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
PAGES = "<< /Type /Pages /Kids [5 0 R] /Count 1 >>"


def lines_op(lines: list[str], y: int = 720) -> str:
    shown = "".join(f"({line}) Tj T* " for line in lines)
    return f"BT /F1 12 Tf 16 TL 72 {y} Td {shown}ET"


def annotated_page(lines: list[str], annots: list[str]) -> bytes:
    """One Helvetica page (object 5) of ``lines``, carrying the annotation dictionaries
    ``annots`` as objects 6, 7, …"""
    refs = " ".join(f"{6 + i} 0 R" for i in range(len(annots)))
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", PAGES, HELVETICA, stream(lines_op(lines))]
    return raw_pdf([*objects, page_with("", annots=refs), *annots])
