"""A document's title when its title field names nothing.

The title field of a deck made from a template says "PowerPoint Presentation", a web page's
``<title>`` may be its file name: :mod:`omnireader.formats.titles` tells such placeholders
(a list a user can replace). The file parser drops them and, once the document is read,
titles its items by the first heading, or the first line, of its body.

A document with no title at all is titled by its first heading the same way, when its
format writes headings from the document's structure (:data:`HEADED_KINDS`): a Word file
saved without a title, a README. Only a heading: without one the file name stays its key,
since a first line of such a document is as often "Dear Anna," or a date as a title. A PDF
is left out: its headings are guessed from fonts, and an untitled filing's first heading is
"UNITED STATES SECURITIES AND EXCHANGE COMMISSION", less telling than
``ACME_2019_10K.pdf``.
"""

from __future__ import annotations

from omnireader.formats.document import DocInfo, Section
from omnireader.formats.titles import HEAD_LINES, is_placeholder_title, title_from_text
from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = [
    "without_placeholder_title",
    "untitled",
    "retitle",
    "doc_title",
    "title_items",
    "wants_more",
    "HEADED_KINDS",
]

#: Formats whose text marks the document's own headings ("#" lines from heading styles,
#: slide titles, ``<h1>``); not plain text, where a "#" line is a comment, nor spreadsheets,
#: whose headings are sheet names.
HEADED_KINDS = frozenset(
    {"docx", "doc", "pptx", "ppt", "odt", "odp", "rtf", "html", "markdown", "epub", "ipynb"}
)


def without_placeholder_title(
    info: DocInfo, blob: Blob, options: ReadOptions
) -> tuple[DocInfo, bool]:
    """The document info without a title that names nothing ("Slide 1", "Untitled
    document", the file's own name), and whether one was dropped. A message's subject is
    typed by a person: it stays whatever it says."""
    if info.extra.get("extractor") == "email" or not is_placeholder_title(
        info.title, blob.display_name, options.placeholder_titles
    ):
        return info, False
    return info.model_copy(update={"title": None}), True


def untitled(info: DocInfo, kind: str) -> bool:
    """Whether the document has no title and its format marks headings to take one from."""
    return not (info.title or "").strip() and kind in HEADED_KINDS


def retitle(
    items: list[MemoryItem],
    top: list[Section],
    blob: Blob,
    options: ReadOptions,
    first_line: bool = True,
) -> None:
    """Title every item by the document's first heading, or (``first_line``) its first
    line of text, in place of the placeholder dropped or the title missing; ``top`` is the
    document's first body sections. The file name stays the key when there is neither."""
    title_items(items, doc_title(top, blob, options, first_line))


def doc_title(
    top: list[Section], blob: Blob, options: ReadOptions, first_line: bool = True
) -> str | None:
    """What :func:`retitle` titles the items by, or None: the file name stays the key."""
    texts = []
    for section in top:
        heading = section.heading
        if heading and not is_placeholder_title(
            heading, blob.display_name, options.placeholder_titles
        ):
            texts.append(f"# {heading}")  # a slide's or a part's title is its heading
        texts.append(section.text)
    return title_from_text(*texts, first_line=first_line) or None


def title_items(items: list[MemoryItem], title: str | None) -> None:
    """Each item titled ``title`` (key, topic and ``extra["title"]``); None changes nothing."""
    if not title:
        return
    for item in items:
        item.metadata.key = item.metadata.topic = title
        item.metadata.extra["title"] = title


def wants_more(top: list[Section]) -> bool:
    """Whether the next body section may still hold the document's title: a heading
    further down than :data:`HEAD_LINES` lines titles a part, not the document."""
    return sum(s.text.count("\n") + 1 for s in top) < HEAD_LINES
