"""RTF → text with striprtf (BSD-3): paragraphs as lines, tables as Markdown tables.

    doc = extract_rtf(Blob(path="menu.rtf"))
    doc.info.title, next(doc.sections).text

``\\'xx`` escapes are decoded in the document's code page (``\\ansicpg1250``, ``932``, ...),
``\\uN`` escapes as Unicode; control words, font tables and embedded pictures are dropped.
The title and author come from the ``{\\info ...}`` group when the document has one.
Page headers and footers and comments are sections of their own (``part``), footnotes are
cited in the body, each after the paragraph citing it, like the DOCX reader's (see :mod:`.rtf_parts`).
Tables (``\\cell``, ``\\row``) are Markdown tables, their cells one line each, as DOCX
and ODT write them (see :mod:`.rtf_tables`).
"""

from __future__ import annotations

import codecs
import re

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.office.docx_comments import comment_line
from omnireader.formats.office.note_places import place_notes
from omnireader.formats.office.properties import iso_date
from omnireader.formats.office.rtf_parts import split_parts
from omnireader.formats.office.rtf_tables import mark_tables, tables_markdown
from omnireader.formats.people import people
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_rtf", "rtf_text", "rtf_sections"]

_CODEPAGE = re.compile(rb"\\ansicpg(\d{3,5})")
# Embedded pictures and objects are long runs of hex digits: cut them before the tokenizer
# walks them one character at a time (they hold no text).
_HEX_RUN = re.compile(r"[0-9a-fA-F\r\n]{512,}")
_INFO = re.compile(r"{\\(title|author|operator)\s+([^{}\\]*)}")
# {\creatim\yr2004\mo3\dy5\hr10\min30}: the document's own creation / revision time.
_TIME = re.compile(r"{\\(creatim|revtim)((?:\\(?:yr|mo|dy|hr|min|sec)-?\d+\s*)+)}")
_TIME_PART = re.compile(r"\\(yr|mo|dy|hr|min|sec)(-?\d+)")
_BLANK_LINES = re.compile(r"\n\s*\n\s*\n+")
_TRAILING = re.compile(r"[ \t]+\n")
_END = "\ue000"  # \u57344: where one part ends when parts are read together


def _codec(data: bytes) -> str:
    match = _CODEPAGE.search(data[:4096])
    if match:
        name = f"cp{int(match.group(1))}"
        try:
            codecs.lookup(name)
            return name
        except LookupError:
            pass
    return "cp1252"


def _tidy(text: str) -> str:
    return _BLANK_LINES.sub("\n\n", _TRAILING.sub("\n", text.replace("\r", ""))).strip()


def _to_text(source: str) -> str:
    from striprtf.striprtf import rtf_to_text

    return _tidy(tables_markdown(rtf_to_text(mark_tables(source), errors="replace")))


def _parts_text(prelude: str, sources: list[str]) -> list[str]:
    """The text of each part's source, read in one pass: a document with thousands of
    footnotes is not thousands of reads of its font table. Each part is its own group,
    followed by a private-use character that marks where it ends."""
    from striprtf.striprtf import rtf_to_text

    if not sources:
        return []
    joined = "".join("{" + mark_tables(source) + "}\\uc1\\u57344?" for source in sources)
    pieces = rtf_to_text(prelude + joined + "}", errors="replace").split(_END)
    if len(pieces) != len(sources) + 1:  # the mark was in the text itself: one at a time
        return [_to_text(prelude + "{" + source + "}}") for source in sources]
    return [_tidy(tables_markdown(piece)) for piece in pieces[:-1]]


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def _rtf_time(value: str) -> str | None:
    from datetime import datetime

    parts = {k: int(v) for k, v in _TIME_PART.findall(value)}
    try:
        moment = datetime(
            parts["yr"],
            parts.get("mo", 1),
            parts.get("dy", 1),
            parts.get("hr", 0),
            parts.get("min", 0),
            parts.get("sec", 0),
        )
    except (KeyError, ValueError, OverflowError):
        return None
    return iso_date(moment)


def rtf_sections(data: bytes) -> tuple[list[Section], DocInfo]:
    """The body (its footnotes cited as ``[^n]``, each after the paragraph citing it, as
    the DOCX reader places them), then the page headers and footers (each once), then the comments, as sections
    marked with ``part``; and what the ``\\info`` group says."""
    from striprtf.striprtf import remove_pict_groups

    # Raw 8-bit bytes (not \'xx escapes) are in the document's code page as well.
    source = _HEX_RUN.sub("", data.decode(_codec(data), errors="replace"))
    info = DocInfo(extra={"extractor": "striprtf"})
    for field, value in _INFO.findall(source[:65536]):
        value = " ".join(value.split())
        if field == "title" and value:
            info.title = value
        elif field in ("author", "operator") and value:
            info.authors.append(value)
    info.authors = people(info.authors)  # "Administrator" or a tool is no author
    for field, value in _TIME.findall(source[:65536]):
        moment = _rtf_time(value)
        if field == "creatim":
            info.created = info.created or moment
        else:
            info.modified = info.modified or moment
    # Binary picture data (\binN) may hold braces: gone before braces are matched.
    split = split_parts(remove_pict_groups(source))
    body = _to_text(split.body)
    notes: dict[str, str] = {}
    footnotes = 0
    pages: dict[tuple[str, str], None] = {}  # (part, text), in order, each once
    comments: list[str] = []
    texts = _parts_text(
        split.prelude, [p.source for p in split.parts] + [p.author or "" for p in split.parts]
    )
    for part, text, author in zip(split.parts, texts, texts[len(split.parts) :]):
        if part.kind == "footnote":
            footnotes += 1
            if text:
                notes[str(footnotes)] = _one_line(text)
            else:  # nothing to cite: no dangling marker in the body either
                body = body.replace(f"[^{footnotes}]", "", 1)
        elif part.kind == "comment" and text:
            author = _one_line(author)
            comments.append(f"- {comment_line(author, '', _one_line(text))}")
        elif text:
            pages[(part.kind, text)] = None
    # Each note after the paragraph citing it, as the DOCX reader places them.
    body = place_notes([body.strip()], notes, by_line=True)[0].strip()
    sections = [Section(text=body)] if body else []
    sections += [Section(text=text, part=kind, heading=kind.capitalize()) for kind, text in pages]
    if comments:
        sections.append(Section(text="\n".join(comments), part="comments", heading="Comments"))
    return sections, info


def rtf_text(data: bytes) -> tuple[str, DocInfo]:
    """The text of an RTF document's body (with its footnotes) and what its ``\\info``
    group says; headers, footers and comments are :func:`rtf_sections`'."""
    sections, info = rtf_sections(data)
    return next((s.text for s in sections if s.part is None), ""), info


def extract_rtf(blob: Blob) -> Extraction:
    """The body, headers, footers and comments as sections; raises
    :class:`EmptyInputError` when the document has no text and :class:`CorruptError` when
    it is not RTF."""
    data = blob.read_bytes()
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        raise CorruptError(blob.label, "not an RTF document (it does not start with {\\rtf)")
    try:
        sections, info = rtf_sections(data)
    except (ValueError, IndexError, KeyError, LookupError, TypeError) as e:
        # TypeError: striprtf on a control word missing its number ("\\uc" alone).
        raise CorruptError(blob.label, f"cannot be read as RTF ({type(e).__name__}: {e})") from None
    if not sections:
        raise EmptyInputError(blob.label, "the RTF document holds no text")
    return Extraction(info=info, sections=iter(sections))


def _read_rtf(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_rtf(blob)


FORMATS = (
    Format(
        name="rtf",
        rank=11,
        display="RTF",
        extensions=(".rtf",),
        mimes=("application/rtf",),
        magic=(Magic(10, lambda p: p.lowered.startswith(b"{\\rtf"), "text"),),  # before JSON
        extract=_read_rtf,
        readme="striprtf: text in the document's code page, tables as Markdown tables; headers "
        "and footers as their own sections, footnotes as `[^n]` notes, comments apart",
    ),
)
