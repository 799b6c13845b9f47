"""The values filled into a PDF form (AcroForm), as readable ``Name: value`` lines.

A form's values live in its fields, not in the page's text: extracting the text layer gives
the labels ("Full name:") and loses what was typed next to them. PDFium reads each widget's
field through the document's form environment (``PdfDocument.init_forms()``), which resolves
what plain dictionary reads would miss: values inherited from a parent field, fully
qualified names, checkbox states, the selected entries of a list.

    fields = [f for annot in widgets if (f := form_field(formenv, annot))]
    text += "\\n\\n" + form_block(fields, text)   # "Form fields:\\nCity: Lisbon"
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

__all__ = ["FormField", "form_field", "form_block", "utf16_value"]

# A value at least this long that the page's text already shows is a field the PDF writer
# also printed (a flattened copy): not repeated. Shorter values ("Yes", "42") occur in text
# by chance, so they are always listed.
_MIN_DEDUP = 4


class FormField(NamedTuple):
    name: str
    value: str


def utf16_value(getter: Callable[..., int], *args: Any) -> str:
    """A PDFium string out-parameter (UTF-16LE with a NUL, size asked for first) as ``str``."""
    import pypdfium2.raw as pdfium_c

    size = getter(*args, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    getter(*args, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


def form_field(formenv: Any, annot: Any) -> FormField | None:
    """The field behind one widget annotation, or None when it holds no value to show
    (a push button, a signature, an unchecked box, an empty text box)."""
    import pypdfium2.raw as pdfium_c

    kind = pdfium_c.FPDFAnnot_GetFormFieldType(formenv, annot)
    if kind in (pdfium_c.FPDF_FORMFIELD_PUSHBUTTON, pdfium_c.FPDF_FORMFIELD_SIGNATURE):
        return None
    # The tooltip name (/TU) is what a form shows its users; /T is often "field_12".
    name = utf16_value(pdfium_c.FPDFAnnot_GetFormFieldAlternateName, formenv, annot)
    name = name or utf16_value(pdfium_c.FPDFAnnot_GetFormFieldName, formenv, annot)
    if kind in (pdfium_c.FPDF_FORMFIELD_CHECKBOX, pdfium_c.FPDF_FORMFIELD_RADIOBUTTON):
        # Unchecked boxes are left out: a form with fifty options would list fifty "Off"s.
        if not pdfium_c.FPDFAnnot_IsChecked(formenv, annot):
            return None
        export = utf16_value(pdfium_c.FPDFAnnot_GetFormFieldExportValue, formenv, annot)
        value = "Yes" if kind == pdfium_c.FPDF_FORMFIELD_CHECKBOX else export or "Yes"
    elif kind == pdfium_c.FPDF_FORMFIELD_LISTBOX:
        value = ", ".join(_selected_options(formenv, annot))
    else:  # text fields, combo boxes, and anything newer with a /V
        value = utf16_value(pdfium_c.FPDFAnnot_GetFormFieldValue, formenv, annot)
    value = " ".join(value.split())
    return FormField(" ".join(name.split()) or "Field", value) if value else None


def _selected_options(formenv: Any, annot: Any) -> list[str]:
    import pypdfium2.raw as pdfium_c

    return [
        utf16_value(pdfium_c.FPDFAnnot_GetOptionLabel, formenv, annot, i)
        for i in range(max(0, pdfium_c.FPDFAnnot_GetOptionCount(formenv, annot)))
        if pdfium_c.FPDFAnnot_IsOptionSelected(formenv, annot, i)
    ]


def form_block(fields: Iterable[FormField], page_text: str) -> str:
    """``Form fields:`` and one ``Name: value`` line per field, or ``""`` when none is left.

    A field shown by several widgets (a radio group, a name repeated on every page) is
    listed once; a long value the page's text already has is not repeated.
    """
    shown = " ".join(page_text.split())
    lines: list[str] = []
    seen: set[FormField] = set()
    for field in fields:
        if field in seen or (len(field.value) >= _MIN_DEDUP and field.value in shown):
            continue
        seen.add(field)
        lines.append(f"{field.name}: {field.value}")
    return "Form fields:\n" + "\n".join(lines) if lines else ""
