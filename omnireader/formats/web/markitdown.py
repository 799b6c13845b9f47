"""Office and web formats to Markdown through MarkItDown, with the format already known.

We sniff the format ourselves, so MarkItDown is told what it gets (extension, MIME type,
charset) instead of guessing from nothing. CSV is decoded by :mod:`.text` first (MarkItDown
would mis-guess short Shift-JIS files). HTML does not go through MarkItDown at all: its
converter is BeautifulSoup plus markdownify, which :mod:`.html_markdown` uses directly
(cut to the main content, hidden content and layout tables handled), so a web page or an
HTML mail never pays for importing MarkItDown.

>>> convert_with_markitdown(Blob(data=b"a,b\\n1,2\\n", filename="t.csv"), "csv")
'| a | b |\\n| --- | --- |\\n| 1 | 2 |'
"""

from __future__ import annotations

import csv
import io
import os
import re
from functools import lru_cache
from typing import Any

from omnireader.errors import CorruptError, EmptyInputError, ReadError, UnsupportedFormatError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.plain.text import decode_text
from omnireader.formats.plain.xml import is_stylesheet
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.formats.web.converted import Converted
from omnireader.formats.web.html_meta import dated_info
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = [
    "Converted",
    "clean_markdown",
    "convert_with_markitdown",
    "markitdown_convert",
    "MARKITDOWN_KINDS",
]

# Sniffed kind -> (extension, MIME type) MarkItDown's converters select on.
MARKITDOWN_KINDS: dict[str, tuple[str, str]] = {
    "pptx": (
        ".pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    "html": (".html", "text/html"),
    "csv": (".csv", "text/csv"),
    "ipynb": (".ipynb", "application/x-ipynb+json"),
    "epub": (".epub", "application/epub+zip"),
    "msg": (".msg", "application/vnd.ms-outlook"),
    "rss": (".xml", "application/rss+xml"),
}

# MarkItDown truncates data URIs to "data:image/png;base64..." already; an image that is
# only a data URI says nothing, so keep its alt text and drop the link.
_DATA_IMAGE = re.compile(r"!\[([^\]]*)\]\(data:[^)]*\)")
_DATA_LINK = re.compile(r"\(data:[^)]*\)")
# python-pptx gives a soft line break (Shift+Enter, <a:br/>) as a vertical tab, and Office
# text can carry form feeds (page / column breaks): control characters, not Markdown.
_BREAKS = re.compile(r"[\v\f]")


@lru_cache(maxsize=1)
def _markitdown() -> Any:
    # magika loads an onnxruntime model that phones home unless told not to; set it before
    # the first import. markitdown itself costs ~0.7 s to import, so only when needed.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    from markitdown import MarkItDown

    return MarkItDown(enable_plugins=False)


def _prepare(blob: Blob, kind: str, data: bytes) -> tuple[bytes, str | None]:
    """The bytes to hand MarkItDown and their charset, after our own decoding."""
    if kind == "csv":
        text = decode_text(data, blob.label).lstrip("\ufeff")
        if (blob.mime or "").endswith("tab-separated-values"):
            # MarkItDown's CSV converter only knows commas: re-write TSV as CSV.
            out = io.StringIO()
            csv.writer(out).writerows(csv.reader(io.StringIO(text), delimiter="\t"))
            text = out.getvalue()
        return text.encode("utf-8"), "utf-8"
    return data, None


def markitdown_convert(blob: Blob, kind: str, data: bytes | None = None) -> Converted:
    """Convert ``blob`` (already sniffed as ``kind``) to Markdown with MarkItDown.

    Raises :class:`UnsupportedFormatError` when MarkItDown cannot read that kind (or lacks
    an optional dependency) and :class:`CorruptError` when the file is damaged; both name
    the input.
    """
    if kind not in MARKITDOWN_KINDS:
        raise UnsupportedFormatError(blob.label, f"MarkItDown is not used for {kind} files")
    data = blob.read_bytes() if data is None else data
    if kind == "html":
        from omnireader.formats.web.html_markdown import html_markdown

        converted = html_markdown(data, blob.label)
        return converted.model_copy(update={"text": clean_markdown(converted.text)})
    payload, charset = _prepare(blob, kind, data)
    ext, mime = MARKITDOWN_KINDS[kind]
    md = _markitdown()
    from markitdown import StreamInfo

    info = StreamInfo(
        extension=ext, mimetype=mime, charset=charset, filename=blob.display_name, url=blob.url
    )
    try:
        result = md.convert_stream(io.BytesIO(payload), stream_info=info)
    except ReadError:
        raise
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        raise _map_error(blob.label, kind, e) from e
    return Converted(
        text=clean_markdown(result.markdown or ""), title=(result.title or "").strip() or None
    )


def clean_markdown(markdown: str) -> str:
    """Markdown with data-URI images and links dropped (their alt text kept) and vertical
    tabs / form feeds as line breaks."""
    return _line_breaks(_DATA_LINK.sub("", _DATA_IMAGE.sub(r"\1", markdown))).strip()


def _line_breaks(text: str) -> str:
    """Vertical tabs and form feeds as line breaks, or as spaces in a table row or a
    heading, which a line break would cut short."""
    if "\v" not in text and "\f" not in text:
        return text
    return "\n".join(  # split on "\n" only: splitlines() would split on \v and \f too
        _BREAKS.sub(" " if line.lstrip().startswith(("|", "#")) else "\n", line)
        for line in text.split("\n")
    )


def convert_with_markitdown(blob: Blob, kind: str) -> str:
    """The Markdown text of ``blob``; see :func:`markitdown_convert`."""
    return markitdown_convert(blob, kind).text


def _map_error(label: str, kind: str, e: Exception) -> ReadError:
    from markitdown import (
        FileConversionException,
        MissingDependencyException,
        UnsupportedFormatException,
    )

    name = kind.upper()
    if isinstance(e, UnsupportedFormatException):
        return UnsupportedFormatError(label, f"MarkItDown found no converter for this {name} file")
    causes: list[BaseException] = [e]
    if isinstance(e, FileConversionException) and e.attempts:
        causes = [a.exc_info[1] for a in e.attempts if a.exc_info and a.exc_info[1]] or causes
    for cause in causes:
        if isinstance(cause, MissingDependencyException):
            return UnsupportedFormatError(
                label, f"reading {name} files needs an optional dependency: {_first_line(cause)}"
            )
    cause = causes[0]
    return CorruptError(
        label, f"cannot be read as {name} ({type(cause).__name__}: {_first_line(cause)})"
    )


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return (lines[0] if lines else type(e).__name__)[:200]


def _reader(kind: str):  # noqa: ANN202 - a reader for one kind
    def read(blob: Blob, options: ReadOptions) -> Extraction:
        converted = markitdown_convert(blob, kind)
        text = converted.text
        extractor = "html" if kind == "html" else "markitdown"  # HTML: without MarkItDown
        info = DocInfo(title=converted.title, extra={"extractor": extractor})
        dated_info(info, converted.page)  # a web page's own date and authors
        if converted.lang:  # the page's own <html lang>, which items take as theirs
            info.extra["lang"] = converted.lang
        sections = [Section(text=text)]
        if not sections:
            raise EmptyInputError(blob.label, f"the {kind.upper()} file holds no text")
        return Extraction(info=info, sections=iter(sections))

    return read


def _is_html(p: Probe) -> bool:
    low = p.lowered
    if is_stylesheet(low):
        return False  # an XSLT stylesheet holds <html> templates; it is code, not a page
    return low.startswith((b"<!doctype html", b"<html")) or b"<html" in low[:1024]


FORMATS = (
    Format(
        name="html",
        rank=12,
        display="HTML",
        extensions=(".html", ".htm"),
        mimes=("text/html",),
        magic=(Magic(60, _is_html, "text"), Magic(80, by_extension(".html", ".htm"), "text")),
        extract=_reader("html"),
        readme="BeautifulSoup + markdownify (MarkItDown's HTML converter, without importing "
        "MarkItDown): the main content only; hidden content dropped (`display:none`, "
        "`visibility:hidden`, `hidden`, `<template>`, inline XBRL `ix:header`); layout tables "
        "(cells holding blocks or tables, one column of text between spacer cells and images, "
        "prose or `<br>` lines in a table with no header row, `role=presentation`) read as "
        "paragraphs, data tables as Markdown tables; list items, cells and paragraphs a page "
        "leaves open closed as a browser closes them (lxml), line breaks in the markup read "
        "as spaces; the declared charset weighed against the bytes; `<html lang>` → `lang`",
    ),
)
