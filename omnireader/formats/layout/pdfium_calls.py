"""PDFium's C functions as ctypes prototypes on plain ints, for the layout's hot loops.

A call through ``pypdfium2.raw`` checks and converts each argument and wraps a returned
handle in a pointer object: about a microsecond, more than PDFium's own work for a
character or a path segment. The layout stage makes thousands of calls a page, so the ones
it makes in loops are bound once here on plain ints: handles as ``c_void_p`` ints (None
for NULL), out-parameters as the addresses of buffers reused from call to call (PDFium is
not thread-safe: a process reads one page at a time).

The hottest loops (a text page's words, a page's paths, the table finder's lines, runs of
words and grid lines, and the hidden-text check's walk over the text objects) also exist
compiled, in the optional C module ``_loops`` that ``setup.py``
builds where a compiler is: :data:`loops` is that module, or None when it was not built
(set it to None to run the Python loops, as the layout benchmark does to report both). It
takes the same PDFium functions by address.
"""

from __future__ import annotations

import ctypes
from typing import Any

__all__ = ["Calls", "calls", "compiled", "handle", "loops"]

try:
    from omnireader.formats.layout import _loops as loops
except ImportError:  # built without a C compiler: the Python loops run
    loops = None


def compiled(name: str, use: bool = True) -> Any:
    """The compiled loop ``name`` of :data:`loops`, or None: not built, switched off (set
    ``loops`` to None, or ``use`` false), or a build from an older ``_loops.c`` without it
    (the Python loop then runs)."""
    return getattr(loops, name, None) if use else None


def handle(pointer: Any) -> int | None:
    """A pypdfium2 raw handle (a ctypes pointer) as the int the prototypes take."""
    return ctypes.cast(pointer, ctypes.c_void_p).value


class Calls:
    """The bound prototypes, and the out-buffers they write into."""

    def __init__(self) -> None:
        import pypdfium2.raw as c

        vp, ci, dbl = ctypes.c_void_p, ctypes.c_int, ctypes.c_double

        #: The functions' addresses by name, for the compiled loops.
        self.address: dict[str, int] = {}
        self._tuples: dict[tuple[str, ...], tuple[int, ...]] = {}

        def bind(fn: Any, restype: Any, *argtypes: Any) -> Any:
            self.address[fn.__name__] = address = handle(fn) or 0
            return ctypes.CFUNCTYPE(restype, *argtypes)(address)

        # Text page: characters.
        self.loose_box = bind(c.FPDFText_GetLooseCharBox, ci, vp, ci, vp)
        self.text_object = bind(c.FPDFText_GetTextObject, vp, vp, ci)
        self.font_of = bind(c.FPDFTextObj_GetFont, vp, vp)
        self.font_size = bind(c.FPDFText_GetFontSize, dbl, vp, ci)
        self.font_weight = bind(c.FPDFText_GetFontWeight, ci, vp, ci)
        self.char_box = bind(c.FPDFText_GetCharBox, ci, vp, ci, vp, vp, vp, vp)
        self.object_font_size = bind(c.FPDFTextObj_GetFontSize, ci, vp, vp)
        self.char_unicode = bind(c.FPDFText_GetUnicode, ctypes.c_uint, vp, ci)
        self.char_angle = bind(c.FPDFText_GetCharAngle, ctypes.c_float, vp, ci)
        self.is_generated = bind(c.FPDFText_IsGenerated, ci, vp, ci)
        self.map_error = bind(c.FPDFText_HasUnicodeMapError, ci, vp, ci)
        # Page objects.
        self.count_objects = bind(c.FPDFPage_CountObjects, ci, vp)
        self.get_object = bind(c.FPDFPage_GetObject, vp, vp, ci)
        self.form_count = bind(c.FPDFFormObj_CountObjects, ci, vp)
        self.form_object = bind(c.FPDFFormObj_GetObject, vp, vp, ctypes.c_ulong)
        self.object_type = bind(c.FPDFPageObj_GetType, ci, vp)
        self.matrix = bind(c.FPDFPageObj_GetMatrix, ci, vp, vp)
        self.bounds = bind(c.FPDFPageObj_GetBounds, ci, vp, vp, vp, vp, vp)
        self.fill_color = bind(c.FPDFPageObj_GetFillColor, ci, vp, vp, vp, vp, vp)
        self.stroke_color = bind(c.FPDFPageObj_GetStrokeColor, ci, vp, vp, vp, vp, vp)
        # Paths.
        self.draw_mode = bind(c.FPDFPath_GetDrawMode, ci, vp, vp, vp)
        self.count_segments = bind(c.FPDFPath_CountSegments, ci, vp)
        self.segment = bind(c.FPDFPath_GetPathSegment, vp, vp, ci)
        self.segment_point = bind(c.FPDFPathSegment_GetPoint, ci, vp, vp, vp)
        self.segment_type = bind(c.FPDFPathSegment_GetType, ci, vp)
        self.segment_close = bind(c.FPDFPathSegment_GetClose, ci, vp)
        # Text objects and their clip paths (hidden_text's loops; only compiled).
        for fn in (
            c.FPDFTextObj_GetTextRenderMode,
            c.FPDFPageObj_GetClipPath,
            c.FPDFClipPath_CountPaths,
            c.FPDFClipPath_CountPathSegments,
            c.FPDFClipPath_GetPathSegment,
            c.FPDFText_CountChars,
        ):
            self.address[fn.__name__] = handle(fn) or 0
        self.PATH, self.FORM = c.FPDF_PAGEOBJ_PATH, c.FPDF_PAGEOBJ_FORM
        self.TEXT = c.FPDF_PAGEOBJ_TEXT
        self.MOVETO, self.BEZIERTO = c.FPDF_SEGMENT_MOVETO, c.FPDF_SEGMENT_BEZIERTO
        # Out-buffers: four floats (a box, a point), four uints (a colour), two ints (a
        # draw mode), six floats (a matrix, FS_MATRIX's layout); with their addresses.
        self.floats = (ctypes.c_float * 6)()
        self.uints = (ctypes.c_uint * 4)()
        self.ints = (ctypes.c_int * 2)()
        f, u, i = (ctypes.addressof(b) for b in (self.floats, self.uints, self.ints))
        self.float_at = tuple(f + 4 * k for k in range(6))
        self.uint_at = tuple(u + 4 * k for k in range(4))
        self.int_at = (i, i + 4)
        # Four doubles (a char's tight box: left, right, bottom, top).
        self.doubles = (ctypes.c_double * 4)()
        d = ctypes.addressof(self.doubles)
        self.double_at = tuple(d + 8 * k for k in range(4))

    def addresses(self, names: tuple[str, ...]) -> tuple[int, ...]:
        """The addresses of the functions ``names``, in that order, as a compiled loop takes
        them (made once per tuple of names: a loop asks for them every page)."""
        got = self._tuples.get(names)
        if got is None:
            got = self._tuples[names] = tuple(self.address[name] for name in names)
        return got


_CALLS: Calls | None = None


def calls() -> Calls:
    """The prototypes, bound on first use (binding imports pypdfium2)."""
    global _CALLS
    if _CALLS is None:
        _CALLS = Calls()
    return _CALLS
