"""A PDF character's font: its size, whether it is bold, and its name, read from PDFium once
per text object (a page has a few hundred; a text object has one font at one size).

Boldness is the font's weight, else its name: PDF fonts often carry no weight, and TeX's
bold faces not even "Bold" in their names (CMBX12, SFBX1200; URW's NimbusRomNo9L-Medi).
The compiled words loop (``_loops.c``) keeps the same caches and calls
:meth:`FontStyle.describe` for a font it has not seen.
"""

from __future__ import annotations

import ctypes
import math
import re
from typing import Any

from omnireader.formats.layout.pdfium_calls import Calls

__all__ = ["FontStyle", "INFLATED"]

#: A loose box this many ems (an em's box is ~1.15 em tall) taller than its text object's
#: size, with the ink inside one em, comes from a font whose ascent and descent are wrong:
#: the size is the object's, and a word's box is cut to an em around the loose box's middle.
INFLATED = 2.5
_BOLD_WEIGHT = 600
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")
# TeX's bold faces carry no weight and no "Bold" in their names: CMBX12, CMB10, CMSSBX10,
# SFBX1200 (EC), and URW's Times bold is NimbusRomNo9L-Medi.
_BOLD_TEX = re.compile(r"^(?:cm|sf|lm|ec)(?:ss|tt)?bx?(?:ti|sl|i)?\d|-medi$")


class FontStyle:
    """Font size, boldness and name of a char, cached per text object (a page has a few
    hundred; a PDF text object has one font at one size)."""

    def __init__(self, raw: Any, handle: int | None, calls: Calls) -> None:
        import pypdfium2.raw as pdfium_c

        self._raw = raw
        self._handle = handle
        self._c = calls
        self._pdfium = pdfium_c
        self.by_object: dict[int | None, tuple[float, bool, str]] = {}
        self.by_font: dict[int, tuple[bool, str]] = {}

    def of(self, index: int, height: float) -> tuple[float, bool, str]:
        """(size in points, bold, font name) of char ``index``, whose loose box is
        ``height`` tall."""
        obj = self._c.text_object(self._handle, index)
        known = self.by_object.get(obj) if obj else None
        if known is None:
            known = self.known(index, obj)
        size = known[0]
        # Tf size times 1 is often 1 with the scale in the text matrix: the loose box
        # (ascent to descent, ~1.15 em) is then the better measure.
        if height > 0 and not 0.5 < size / height < 1.5:
            em = self.inflated_em(index, obj, height)
            return (round(em if em > 0 else height / 1.15, 2), known[1], known[2])
        return known

    def inflated_em(self, index: int, obj: int | None, height: float) -> float:
        """The text object's size (Tf times its matrix's scale) when char ``index``'s loose box (``height`` tall) is far
        taller than that size's em and its ink fits in one (see :data:`INFLATED`); else 0."""
        c = self._c
        if not obj or not c.object_font_size(obj, c.float_at[0]):
            return 0.0
        tf = float(c.floats[0])
        if not c.matrix(obj, c.float_at[0]):
            return 0.0
        ma, mb, mc, md = (float(v) for v in c.floats[:4])
        em = tf * math.sqrt(abs(ma * md - mb * mc))
        if not (em > 1.0 and height > INFLATED * 1.15 * em):
            return 0.0
        if not c.char_box(self._handle, index, *c.double_at):
            return 0.0
        ink = c.doubles[3] - c.doubles[2]
        if not (0 < ink and ink <= 1.2 * em):
            return 0.0
        return em

    def known(self, index: int, obj: int | None) -> tuple[float, bool, str]:
        """(Tf size, bold, font name) of char ``index`` of text object ``obj``, read from
        PDFium and kept for the object (the compiled loop does the same in C, and calls
        :meth:`describe` for a font it has not seen)."""
        size = float(self._c.font_size(self._handle, index))
        font = self._c.font_of(obj) if obj else None
        face = self.by_font.get(font) if font else None
        if face is None:
            face = self.describe(font, index)
            if font:
                self.by_font[font] = face
        known = (round(size, 2), *face)
        if obj:
            self.by_object[obj] = known
        return known

    def describe(self, font: int | None, index: int) -> tuple[bool, str]:
        c = self._pdfium
        name = ""
        if font:
            handle = ctypes.cast(font, c.FPDF_FONT)
            length = c.FPDFFont_GetBaseFontName(handle, None, 0)
            if length > 0:
                buffer = ctypes.create_string_buffer(length)
                c.FPDFFont_GetBaseFontName(handle, buffer, length)
                name = buffer.value.decode("utf-8", "replace")
        weight = self._c.font_weight(self._handle, index)
        # Subset fonts carry a "ABCDEF+" prefix; the style is in the rest of the name.
        base = name.split("+", 1)[-1]
        lowered = base.lower()
        bold = (
            weight >= _BOLD_WEIGHT
            or any(part in lowered for part in _BOLD_NAMES)
            or bool(_BOLD_TEX.search(lowered))
        )
        return bold, base
