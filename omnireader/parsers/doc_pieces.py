"""A long plain text's items a piece at a time, each final when made.

:meth:`.file.FileParser.parse_fast` makes a document's items in one pass and then settles
what depends on all of them: a chunk's language may come from its neighbours or from the
document's majority (:mod:`.doc_languages`), a title from its first lines
(:mod:`.doc_titles`). For a document whose text is one section without structure (a plain
text file, a Markdown file without headings or tables), both are known from the chunks'
texts before any item is made (:func:`.doc_languages.planned_languages`,
:func:`.doc_titles.doc_title`), and no item links to another (:mod:`.doc_chunks` links only
a page's chunks and a structured section's). So its items can be made ``size`` at a time:
an ingest writes the first piece while the worker makes the next (``batch/file_task.py``),
instead of waiting ~1 s for the last of a 50 MB file's 30,000 items. Each item equals the
one the single pass makes, field for field (``tests/test_doc_pieces.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from omnireader.formats.document import Section
from omnireader.models import MemoryItem
from omnireader.parsers.doc_chunks import Chunked
from omnireader.parsers.doc_languages import planned_languages
from omnireader.parsers.doc_titles import title_items
from omnireader.text.chunking import Chunk

__all__ = ["Piece", "in_pieces", "section_pieces"]


class Piece(NamedTuple):
    """Some of a document's items, in order, final; ``last``: no more follow."""

    items: list[MemoryItem]
    last: bool


def in_pieces(section: Section, chunked: Chunked, size: int) -> bool:
    """Whether the section's items may come ``size`` at a time: more chunks than that, no
    structure (headings, tables: their chunks link to each other), no page (a page's chunks
    are linked too) and no layout blocks."""
    chunks, structs = chunked
    return len(chunks) > size and structs is None and section.page is None and not section.blocks


def section_pieces(
    parser: Any,
    reading: Any,
    held: tuple[int, Section],
    chunks: list[Chunk],
    size: int,
    title: str | None,
    declared: str | None,
) -> Iterator[Piece]:
    """The section's items, ``size`` at a time (``parser`` a FileParser, ``reading`` what
    its items share), titled ``title`` when it has one; each chunk's language is the one the
    document lends it unless ``declared`` (an HTML ``lang``) stands for all of them."""
    n, section = held
    langs = planned_languages([c.text for c in chunks]) if declared is None else None
    for start in range(0, len(chunks), size):
        part = chunks[start : start + size]
        items: list[MemoryItem] = parser._chunk_items(reading, section, n, (part, None))
        if langs is not None:
            for item, lang in zip(items, langs[start : start + size]):
                item.metadata.sources[0].lang = lang
        title_items(items, title)
        yield Piece(items, last=start + size >= len(chunks))
