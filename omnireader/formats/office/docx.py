"""DOCX → document info and Markdown sections (headings, lists, tables, text boxes).

    doc = extract_docx(Blob(path="notes.docx"))
    doc.info.authors                   # creator and last editor who are people (core.xml)
    [s.heading for s in doc.sections]  # one section per top-level heading

python-docx opens the package and :mod:`.docx_markdown` renders its body. Files python-docx
cannot open (Strict OOXML, a macro-enabled document named .docx, ...) go through MarkItDown;
anything that is not a Word package is ``CorruptError``. Images are never inlined.
"""

from __future__ import annotations

import io
import os
import re
import zipfile

from omnireader.errors import CorruptError, ReadError
from omnireader.formats.alt_text import picture
from omnireader.formats.archives.zip import PACKAGE_ERRORS, zip_member
from omnireader.formats.document import EMPTY, Extraction, Section
from omnireader.formats.office.docx_markdown import docx_sections
from omnireader.formats.office.docx_parts import docx_part_sections
from omnireader.formats.office.properties import core_info
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_docx"]

# MarkItDown shortens embedded images to "data:image/png;base64..."; keep only their alt text.
_DATA_URI_IMAGE = re.compile(r"!\[([^\]]*)\]\(data:[^)]*\)")


def extract_docx(blob: Blob) -> Extraction:
    """Read a DOCX into its info and Markdown sections (one per top-level heading).

    Raises ``CorruptError`` when the input is not a readable Word package. A document with
    no text yields one empty section flagged ``empty``.
    """
    label = blob.label
    try:
        data = blob.data if blob.data is not None else blob.read_bytes()
    except (OSError, ValueError) as exc:
        raise ReadError(label, f"cannot read the file ({type(exc).__name__})") from None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = set(package.namelist())
            rels = package.read("_rels/.rels") if "_rels/.rels" in names else b""
            core = package.read("docProps/core.xml") if "docProps/core.xml" in names else b""
    except PACKAGE_ERRORS:
        raise CorruptError(label, "not a readable DOCX (not a valid zip package)") from None
    if not rels and "word/document.xml" not in names:
        raise CorruptError(label, "not a Word document (no main document part)")
    info = core_info(core)
    if b"purl.oclc.org/ooxml" in rels:  # Strict OOXML: python-docx would read nothing
        sections, why = None, "Strict OOXML"
    else:
        sections, why = _read_with_python_docx(data)
    if sections is None:
        sections = _read_with_markitdown(data, label)
        info.extra.update(extractor="markitdown", fallback_reason=why)
    else:
        info.extra["extractor"] = "python-docx"
    if not any(s.text for s in sections):
        sections = [Section(text="", flags=[EMPTY])]
    return Extraction(info=info, sections=iter(sections))


def _read_with_python_docx(data: bytes) -> tuple[list[Section] | None, str]:
    """The sections, or None and why python-docx could not read this package."""
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
        return docx_sections(document) + docx_part_sections(document), ""
    except Exception as exc:  # noqa: BLE001 - any python-docx failure means "try MarkItDown"
        return None, f"python-docx: {type(exc).__name__}: {exc}"[:300]


def _read_with_markitdown(data: bytes, label: str) -> list[Section]:
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # before markitdown pulls onnxruntime
    from markitdown import MarkItDown

    try:
        converter = MarkItDown(enable_plugins=False)
        result = converter.convert_stream(io.BytesIO(data), file_extension=".docx")
    except Exception as exc:  # noqa: BLE001 - any converter failure is a corrupt input here
        raise CorruptError(label, f"not a readable DOCX ({type(exc).__name__})") from None
    # Never let an embedded image's bytes into the text, only its alt text.
    text = _DATA_URI_IMAGE.sub(lambda m: picture(m.group(1)), result.markdown)
    return [Section(text=text.strip())]


def _read_docx(blob: Blob, options: ReadOptions) -> Extraction:
    doc = extract_docx(blob)
    if options.ocr == "always":
        from itertools import chain

        from omnireader.formats.office.docx_ocr import docx_picture_sections

        doc.sections = chain(doc.sections, docx_picture_sections(blob))
    return doc


FORMATS = (
    Format(
        name="docx",
        rank=2,
        display="DOCX",
        extensions=(".docx", ".docm"),
        mimes=("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
        magic=(Magic(20, lambda p: p.zip_has("word/document.xml"), layer="zip"),),
        extract=_read_docx,
        zip_package=True,
        find_member=zip_member,
        readme="Markdown (headings, lists numbered as Word numbers them: `2.`, `- II.`, `- "
        "A)`, nested tables, text boxes) via python-docx; a footnote or endnote (`[^1]`, "
        "`[^e1]`) after the paragraph citing it; page headers, footers and comments as "
        "their own sections, marked `section: header` / `footer` / `comments`",
    ),
)
