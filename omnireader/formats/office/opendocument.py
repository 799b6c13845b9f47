"""OpenDocument (.odt, .ods, .odp) → Markdown sections, read with odfdo (Apache-2.0).

    doc = extract_odf(Blob(path="minutes.odt"), "odt")
    [(s.part, s.heading) for s in doc.sections]   # body, then header / footer / comments

A text document is one body section (headings, paragraphs, lists, tables; a footnote
or endnote after the block citing it, :mod:`.odf_notes`); a spreadsheet one section per sheet (page N is sheet N); a
presentation one section per slide (page N is slide N). Page headers and footers live in
the styles (master pages), not in the content, and come as their own sections marked
``header`` / ``footer``; comments (annotations) are a ``comments`` section, each with its
author and the words it is on (:mod:`.odf_comments`), never glued into the paragraph. The
package is checked for ZIP bombs before it is opened
(:func:`omnireader.formats.archives.zip.check_package`, called by ``extract``).
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from omnireader.errors import CorruptError, EmptyInputError, TooLargeError
from omnireader.formats.alt_text import picture
from omnireader.formats.archives.zip import zip_member
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.office.note_places import place_notes
from omnireader.formats.office.odf_comments import comment_sections
from omnireader.formats.office.odf_headings import mark_headings
from omnireader.formats.office.odf_notes import cite_notes, take_notes
from omnireader.formats.office.odf_objects import fill_objects, mark_objects
from omnireader.formats.office.properties import iso_date, template_dated
from omnireader.formats.people import people
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_odf"]

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_PADDING = re.compile(r" {2,}(?=\|)")
# Inside a table row: a cell's own runs of spaces ("row            0 of           10", a
# fixed-width export), one space as the XLSX, DOCX and CSV readers write a cell.
_CELL_SPACES = re.compile(r"(?<=\S) {2,}(?=\S)")
_RULE = re.compile(r"\|-{3,}(?=\|)")
_BLANK_LINES = re.compile(r"\n\s*\n\s*\n+")
_SPACES = re.compile(r"[ \t]+")
# odfdo's Markdown escapes these characters wherever they are in the text ("01\-01\-1960",
# "draft\_v1"): a memory would keep the backslashes and search would miss the words.
_ESCAPED = re.compile(r"\\([#*_\-`~|+])")
# Where an escape still matters: a line that would otherwise open a heading or a list item.
_HARD_BREAK = re.compile(r"(?<!\\)\\$")
_LINE_START = re.compile(r"^(\s*)\\([#*\-+])(?=\s|$)")
_MASTER_PARTS = {
    "style:header": "header",
    "style:header-left": "header",
    "style:header-first": "header",
    "style:footer": "footer",
    "style:footer-left": "footer",
    "style:footer-first": "footer",
}


def _unescape(line: str) -> str:
    """A line of odfdo's Markdown without the escapes that only hide characters: kept
    where one stops a line reading as a heading or a list item, or a ``|`` inside a table
    row from splitting a cell."""
    keep = _LINE_START.match(line)
    head, rest = (line[: keep.end()], line[keep.end() :]) if keep else ("", line)
    in_row = line.lstrip().startswith("|")
    return head + _ESCAPED.sub(
        lambda m: m.group(0) if in_row and m.group(1) == "|" else m.group(1), rest
    )


def _tidy(text: str) -> str:
    text = _IMAGE.sub(lambda m: picture(m.group(1)), text)
    # A line break is Markdown's hard break, a "\\" ending the line: the line ends anyway.
    lines = [
        _RULE.sub("| --- ", _PADDING.sub(" ", _unescape(_HARD_BREAK.sub("", line.rstrip()))))
        for line in text.split("\n")
    ]
    lines = [_CELL_SPACES.sub(" ", line) if line.startswith("|") else line for line in lines]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def _plain(element: Any) -> str:
    """The text of an element, one line per paragraph, spaces collapsed."""
    text = ""
    if hasattr(element, "get_formatted_text"):
        text = element.get_formatted_text() or ""
    if not text.strip():  # header and footer elements format to nothing: take their text
        text = element.text_recursive or ""
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


# Fields whose text in a template is a placeholder, not content ("Page 1 / 99", "???").
_FIELDS = (
    "text:page-number",
    "text:page-count",
    "text:sheet-name",
    "text:date",
    "text:time",
    "text:file-name",
    "text:chapter",
    "presentation:date-time",
    "presentation:footer",
    "presentation:header",
)


_FIELD = "\ue000"  # where a field was: its label ("Page", "of") goes with it
# "Page <n> / <count>", "Seite <n> von <count>": words that only label a field's value.
_FIELD_LABEL = re.compile(
    r"(?:\b(?:page|pages|pg|p|seite|página|pagina|pagine|страница|sheet|blatt|feuille|hoja"
    r"|foglio)\b\.?\s*)?" + _FIELD + r"(?:\s*(?:/|of|von|de|sur|di|van|из|\|)?\s*" + _FIELD + ")*",
    re.IGNORECASE,
)


def _without_fields(element: Any) -> Any:
    clone = element.clone
    for field in clone.get_elements("|".join(f"descendant::{f}" for f in _FIELDS)):
        for child in list(field.children):
            child.delete()
        field.text = _FIELD
    return clone


def _field_free(text: str) -> str:
    """``text`` without its fields and the words that label them: "Page / " is what a
    footer "Page 3 / 12" leaves when its numbers (template placeholders) are dropped."""
    lines = (
        _SPACES.sub(" ", _FIELD_LABEL.sub("", line)).strip(" -–—|,;:/") for line in text.split("\n")
    )
    return "\n".join(line for line in lines if line)


def _master_sections(doc: Any) -> list[Section]:
    """Page headers and footers from the master pages in styles.xml."""
    found: dict[tuple[str, str], None] = {}
    for master in doc.styles.get_elements("//style:master-page"):
        for child in master.children:
            part = _MASTER_PARTS.get(child.tag)
            if part is None and child.tag == "draw:frame":  # a slide master's footer box
                kind = child.get_attribute("presentation:class")
                part = kind if kind in ("header", "footer") else None
            if part:
                text = _field_free(_plain(_without_fields(child)))
                if any(ch.isalnum() for ch in text):  # "???": a field never rendered
                    found[(part, text)] = None
    return [Section(text=text, part=part, heading=part.capitalize()) for part, text in found]


# Paragraphs inside drawings (text boxes, shapes) and a drawing's title and description:
# odfdo writes them with nothing between, "Box oneBox twoTail" for two paragraphs in a
# text box followed by the paragraph's own text.
_DRAWN_TEXT = "//draw:*//text:p|//draw:*//text:h|//draw:*/svg:title|//draw:*/svg:desc"


def _text_sections(doc: Any, package: zipfile.ZipFile) -> list[Section]:
    from odfdo import LineBreak

    objects = mark_objects(doc, package)  # before the drawings: an object is one
    notes = take_notes(doc)  # before the drawings too: a note's paragraphs are its own
    mark_headings(doc)  # Title / Heading paragraphs: headings, as in a DOCX
    for element in doc.body.get_elements(_DRAWN_TEXT):
        element.append(LineBreak())
    text = cite_notes(_tidy(fill_objects(doc.to_markdown(), objects)))
    return [Section(text=place_notes([text], notes)[0])]


def _sheet_sections(doc: Any, package: zipfile.ZipFile) -> list[Section]:
    sections = []
    for n, table in enumerate(doc.body.get_tables(), 1):
        name = table.name or f"Sheet{n}"
        body = _tidy(table.to_markdown())
        if body:
            sections.append(Section(text=f"## {name}\n{body}", page=n, heading=name))
    return sections


def _slide_sections(doc: Any, package: zipfile.ZipFile) -> list[Section]:
    from omnireader.formats.office.odf_slides import slide_text

    sections = []
    for n, page in enumerate(doc.body.get_draw_pages(), 1):
        text, notes = slide_text(page, package)
        if text:
            title = text.split("\n", 1)[0].removeprefix("# ")
            sections.append(Section(text=text, page=n, heading=title[:200]))
        if notes:
            sections.append(Section(text=notes, page=n, part="notes", heading="Notes"))
    return sections


_READERS = {"odt": _text_sections, "ods": _sheet_sections, "odp": _slide_sections}


def _info(doc: Any) -> DocInfo:
    meta = doc.meta
    info = DocInfo(extra={"extractor": "odfdo"})
    try:
        info.title = (meta.title or "").strip() or None
        # meta.xml: the first author and the last editor, the document's own dates.
        info.authors = people([meta.initial_creator, meta.creator])
        info.created = iso_date(meta.creation_date)
        info.modified = iso_date(meta.date)
    except (AttributeError, ValueError, TypeError):
        pass  # damaged metadata is no reason not to read the document
    return template_dated(info)


def extract_odf(blob: Blob, kind: str) -> Extraction:
    """Sections of an OpenDocument ``kind`` (``odt``, ``ods`` or ``odp``) file.

    Raises :class:`CorruptError` for a package odfdo cannot open, :class:`TooLargeError`
    for a table past odfdo's row limit, :class:`EmptyInputError` for a document with no
    text anywhere (body, sheets, slides, headers, footers or comments).
    """
    from odfdo import Document

    try:
        data = blob.read_bytes()
        doc = Document(io.BytesIO(data))
        comments = comment_sections(doc, _plain)  # before the readers change the tree
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            sections = _READERS[kind](doc, package)
        sections += _master_sections(doc) + comments
        info = _info(doc)
    except RecursionError:
        raise TooLargeError(blob.label, "elements nested too deeply to read") from None
    except ValueError as e:
        if "exceeds limit" in str(e):
            raise TooLargeError(blob.label, f"a table is too large to read ({e})") from None
        raise CorruptError(blob.label, f"cannot be read as {kind.upper()} ({e})"[:300]) from None
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        raise CorruptError(
            blob.label, f"cannot be read as {kind.upper()} ({type(e).__name__}: {e})"[:300]
        ) from None
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        raise EmptyInputError(blob.label, f"the {kind.upper()} document holds no text")
    if kind == "odp":
        info.page_count = len({s.page for s in sections if s.page is not None})
    return Extraction(info=info, sections=iter(sections))


def _odf(kind: str, display: str, mime: str, ext: str) -> Format:
    mimes = (mime, mime + "-template")

    def read(blob: Blob, options: ReadOptions) -> Extraction:
        return extract_odf(blob, kind)

    return Format(
        name=kind,
        rank={"odt": 8, "ods": 9, "odp": 10}[kind],
        display=display,
        extensions=(ext,),
        mimes=mimes,
        magic=(Magic(11, lambda p: p.zip_mimetype if p.zip_mimetype in mimes else None, "zip"),),
        extract=read,
        zip_package=True,
        find_member=zip_member,
        readme_group="ODT, ODS, ODP",
        readme="odfdo: a document like a DOCX, one section per sheet / slide (the title a "
        "heading, outlines as lists, speaker notes as `notes`), master-page headers and "
        "footers, comments apart; embedded objects (a sheet, chart or formula) read where "
        "they stand, text boxes and shapes line by line",
    )


_ODF = "application/vnd.oasis.opendocument."
FORMATS = (
    _odf("odt", "ODT", _ODF + "text", ".odt"),
    _odf("ods", "ODS", _ODF + "spreadsheet", ".ods"),
    _odf("odp", "ODP", _ODF + "presentation", ".odp"),
)
