"""What the PDF and DOCX extractors return: document info and a lazy stream of sections.

A section is one page of a PDF or one heading-led part of a DOCX. Sections come as an
iterator so a 500-page PDF is read page by page; call ``Extraction.close()`` (or use it as
a context manager) when you stop early, so the file behind it is released at once.

    with extract_pdf(blob, password=None) as doc:
        for section in doc.sections:
            print(section.page, section.flags, section.text[:40])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SkipValidation

from omnireader.formats.ocr.base import OcrPage

__all__ = [
    "DocInfo",
    "Section",
    "Extraction",
    "pdf_date_to_iso",
    "NEEDS_OCR",
    "GARBLED",
    "UNREADABLE",
    "EMPTY",
    "LAYOUT_FAILED",
    "ITEM_FIELDS",
]

#: Flag: the page has no usable text layer (a scan, or only images); OCR / vision would help.
NEEDS_OCR = "needs_ocr"
#: Flag (with ``needs_ocr``): the page has a text layer, but it does not decode to text.
GARBLED = "garbled_text"
#: Flag: this page could not be decoded; the rest of the document still was.
UNREADABLE = "unreadable"
#: Flag: the document holds no text at all.
EMPTY = "empty"
#: Flag: the page's layout failed or ran out of time; its text is the plain text layer.
LAYOUT_FAILED = "layout_failed"


class DocInfo(BaseModel):
    """Document-level metadata. Dates are ISO 8601 strings; missing values are None."""

    title: str | None = None
    authors: list[str] = Field(default_factory=list)
    created: str | None = None
    modified: str | None = None
    page_count: int | None = None
    # Everything else worth keeping: subject, keywords, producer, the extractor used, ...
    extra: dict[str, Any] = Field(default_factory=dict)
    # The creation date is a template's (set by the office readers, see
    # formats/office/properties.py: template_dated): the modification date dates the content.
    dated_by_modified: bool = False

    @property
    def time(self) -> str | None:
        """The document's own time: its creation date, or its modification date when there
        is none or the creation date is a template's."""
        if self.dated_by_modified and self.modified:
            return self.modified
        return self.created or self.modified


#: DocInfo.extra keys every item of the document carries in its metadata (a message's
#: ids and thread, so search can show a conversation; its sender, recipients and Reply-To
#: as written;
#: the quoted history cut off a reply's text, formats/mail/quotes.py; the images its HTML
#: shows inline, not read, formats/mail/related.py; the message a bounce returns,
#: formats/mail/returned.py; which of a web page's fields its own date came from,
#: formats/web/html_meta.py).
ITEM_FIELDS = (
    "message_id",
    "in_reply_to",
    "references",
    "thread",
    "sender",
    "recipients",
    "cc",
    "reply_to",
    "quoted",
    "inline_images",
    "returned_subject",
    "returned_to",
    "returned_message_id",
    "time_source",
)


class Section(BaseModel):
    """One page of a PDF (``page`` is 1-based) or one part of a DOCX (``page`` is None).

    ``part`` says which part of the document the text is when it is not the body:
    ``header``, ``footer``, ``footnotes``, ``endnotes``, ``comments``, ``notes`` (a slide's
    speaker notes), so search can filter or weight it.
    """

    text: str
    page: int | None = None
    flags: list[str] = Field(default_factory=list)
    heading: str | None = None
    part: str | None = None
    # What OCR read (flag "ocr"), or why it read nothing (flag "needs_ocr" / "empty").
    ocr: OcrPage | None = None
    # The section trail (outermost first) in force where the section's body starts: set
    # by the PDF layout stage, carried across pages; at most 6 titles.
    heading_path: list[str] = Field(default_factory=list, max_length=6)
    # Their heading levels (1 outermost), one a title, where the layout knows them: a
    # heading further down the page replaces those of its level and below in the path.
    heading_levels: list[int] = Field(default_factory=list, max_length=6)
    # The printed page number, when the page shows one ("iv", "12").
    page_label: str | None = None
    # The page's blocks in reading order: kind, box (page fractions), heading level.
    blocks: list[dict[str, Any]] = Field(default_factory=list)
    # Between a page's reading and the layout stream only (formats/layout/stream.py): its
    # PageLayout, and the plain text it was laid out beside. Never serialized.
    layout: SkipValidation[Any] = Field(None, exclude=True, repr=False)
    layout_source: str | None = Field(None, exclude=True, repr=False)
    # The page's link targets (formats/link_text.PageLink), placed in its text once the
    # layout stream has written it. Never serialized.
    links: SkipValidation[list[Any]] = Field(default_factory=list, exclude=True, repr=False)


class Extraction(BaseModel):
    """Document info plus its sections, produced lazily.

    ``sections`` is consumed once. It is not validated item by item (the extractors build
    ``Section`` objects themselves), which keeps it a plain generator that can be closed.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    info: DocInfo
    sections: SkipValidation[Iterator[Section]]
    _closer: Callable[[], None] | None = PrivateAttr(default=None)

    @classmethod
    def lazy(
        cls, info: DocInfo, sections: Iterator[Section], closer: Callable[[], None] | None
    ) -> Extraction:
        """An extraction whose ``close()`` also runs ``closer`` (frees the open document)."""
        out = cls(info=info, sections=sections)
        out._closer = closer
        return out

    def close(self) -> None:
        """Stop reading and free the file behind the sections; safe to call twice."""
        close = getattr(self.sections, "close", None)
        if close is not None:
            close()
        if self._closer is not None:
            closer, self._closer = self._closer, None
            closer()

    def __enter__(self) -> Extraction:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


# D:YYYYMMDDHHmmSSOHH'mm' — every part after the year is optional (PDF 32000-1, 7.9.4).
_PDF_DATE = re.compile(
    r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?"
    r"(?:([Zz+\-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?"
)


def pdf_date_to_iso(value: str | None) -> str | None:
    """A PDF date string as ISO 8601, or None when it is missing or not a date.

    >>> pdf_date_to_iso("D:20240101120000+01'00'")
    '2024-01-01T12:00:00+01:00'
    >>> pdf_date_to_iso("D:20231005000756Z")
    '2023-10-05T00:07:56+00:00'
    >>> pdf_date_to_iso("D:2022")
    '2022-01-01T00:00:00'
    """
    if not value:
        return None
    match = _PDF_DATE.match(value.strip().strip("\x00"))
    if match is None:
        return None
    year, month, day, hour, minute, second, sign, tz_h, tz_m = match.groups()
    try:
        moment = datetime(
            int(year),
            int(month or 1),
            int(day or 1),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
        )
        if sign in ("Z", "z"):
            # Some writers put "Z00'00'"; Z means UTC whatever follows.
            moment = moment.replace(tzinfo=UTC)
        elif sign in ("+", "-"):
            offset = timedelta(hours=int(tz_h or 0), minutes=int(tz_m or 0))
            moment = moment.replace(tzinfo=timezone(offset if sign == "+" else -offset))
    except ValueError:  # month 13, hour 25, offset of 30 hours, ...
        return None
    return moment.isoformat()
