"""What a PDF page carries besides its text layer: reviewers' comments and form values.

Both are annotations, which text extraction never sees. Comments (sticky notes, highlights
and other markup, free-text boxes, stamps, …) become lines like DOCX comments,

    - Page 2, Reviewer Ann: please recheck the totals
    - Page 2, Reviewer Ann, on "the survey covered eleven stations": source needed

which the PDF reader gathers into one ``comments`` section per document (as DOCX does).
Widgets are form fields (``pdf_forms.py``); links give their targets (``links.py``); popups
(a comment's window, repeating its text) are not content. A page without annotations costs
one PDFium call.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

from omnireader.formats.pdf.forms import FormField, form_field, utf16_value
from omnireader.formats.pdf.links import PageLink, covered_text, link_target

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["PageNotes", "page_notes", "NO_NOTES"]

# Marked text quoted in a comment line is cut here: the comment is the point, not the text.
_QUOTE_CHARS = 160
# A popup repeats its parent comment's text.
_SKIPPED = ("POPUP",)
_MARKUP = ("HIGHLIGHT", "UNDERLINE", "SQUIGGLY", "STRIKEOUT")


class PageNotes(NamedTuple):
    comments: list[str]
    fields: list[FormField]
    links: list[PageLink]


NO_NOTES = PageNotes([], [], [])


def page_notes(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    number: int,
    formenv: Any | None,
) -> PageNotes:
    """The comments, filled-in form fields and link targets of one page (``number`` is
    1-based).

    ``formenv`` is the document's form handle (``PdfDocument.formenv.raw``), None when the
    document has no AcroForm: its widgets then have no fields to read.
    """
    import pypdfium2.raw as pdfium_c

    handle = page.raw  # the raw handle: ctypes converts the wrapper on every call
    count = pdfium_c.FPDFPage_GetAnnotCount(handle)
    if count <= 0:
        return NO_NOTES
    notes = PageNotes([], [], [])
    document = page.pdf.raw
    for index in range(count):
        annot = pdfium_c.FPDFPage_GetAnnot(handle, index)
        if not annot:
            continue
        try:
            _read_annot(annot, textpage, number, formenv, notes, document)
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)
    return notes


def _read_annot(
    annot: Any,
    textpage: Any,
    number: int,
    formenv: Any | None,
    notes: PageNotes,
    document: Any,
) -> None:
    import pypdfium2.raw as pdfium_c

    subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
    if subtype in _subtypes(*_SKIPPED):
        return
    if subtype == pdfium_c.FPDF_ANNOT_LINK:
        if (link := link_target(document, annot, textpage)) is not None:
            notes.links.append(link)
        return
    if pdfium_c.FPDFAnnot_GetFlags(annot) & pdfium_c.FPDF_ANNOT_FLAG_HIDDEN:
        return  # not shown to a reader of the document
    if subtype == pdfium_c.FPDF_ANNOT_WIDGET:
        field = form_field(formenv, annot) if formenv is not None else None
        if field is not None:
            notes.fields.append(field)
        return
    contents = _string(annot, b"Contents")
    quote = covered_text(annot, textpage, _QUOTE_CHARS) if subtype in _subtypes(*_MARKUP) else ""
    if not contents and not quote:
        return
    who = f"Page {number}"
    if author := _string(annot, b"T"):
        who += f", {author}"
    if quote:
        who += f', on "{quote}"'
    notes.comments.append(f"- {who}: {contents}" if contents else f"- {who} (marked)")


def _string(annot: Any, key: bytes) -> str:
    import pypdfium2.raw as pdfium_c

    # One line per comment: its own line breaks become spaces, as for DOCX comments.
    return " ".join(utf16_value(pdfium_c.FPDFAnnot_GetStringValue, annot, key).split())


@functools.cache
def _subtypes(*names: str) -> frozenset[int]:
    # Looked up on first use: importing this module must not load PDFium.
    import pypdfium2.raw as pdfium_c

    return frozenset(getattr(pdfium_c, f"FPDF_ANNOT_{name}") for name in names)
