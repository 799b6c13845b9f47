"""A document section's chunks as items that know their structure and their neighbours.

What :class:`omnireader.parsers.file.FileParser` adds to a section's chunk items:

- ``extra["heading_path"]``: the chunk's heading path (outermost first, capped by
  :func:`omnireader.text.structure.cap_path`), when it has one;
- ``extra["section_titles"]``: for a chunk of small sections merged (whose heading path is
  the one they share), the sections' own titles, searched with the headings;
- links to the chunks before and after it *in the same section* (same page and heading
  path): ``doc_section`` (the section's key), ``doc_index`` (the chunk's place in it),
  ``doc_prev`` / ``doc_next`` (their item ids), so search can return a hit with its
  neighbours (:mod:`omnireader.store.doc_passages`);
- for the chunks of a page without headings, ``page_head``: the page's first short lines
  (:func:`page_head`), searched with the headings;
- for a chunk of a table: ``table`` (the table's key) and, for a table split into at most
  :data:`MAX_TABLE_LINKS` pieces, ``table_ids`` (every piece's item id), so a hit on one piece
  can bring the whole table.

A section with neither headings nor tables (and no heading path) is chunked exactly as
before (:func:`omnireader.text.chunking.chunk_text`), and only a page's chunks are linked: a
plain text file's items stay as they were (``tests/test_text_path_pinned.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omnireader.doc_links import (
    HEADING_PATH,
    INDEX,
    MAX_TABLE_LINKS,
    NEXT,
    PAGE_HEAD,
    PREV,
    SECTION,
    SECTION_TITLES,
    TABLE,
    TABLE_IDS,
)
from omnireader.formats.document import Section
from omnireader.models import MemoryItem
from omnireader.text.chunking import Chunk, chunk_text
from omnireader.text.structure import StructChunk, cap_path, has_structure, structured_chunks

__all__ = ["Chunked", "section_chunks", "link_chunks", "page_head"]

_MD_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_HEAD_LINES = 3  # a page's first lines that may be its title ("Consolidated Balance Sheets")
_HEAD_CHARS = 100  # a longer line is prose, not a title


#: A section's chunks, and their structure (None when it has none).
Chunked = tuple[list[Chunk], list[StructChunk] | None]


def section_chunks(section: Section, chunk_size: int) -> Chunked:
    """The section's chunks, and their structure (None when it has none: chunked as before)."""
    base, levels = list(section.heading_path), list(section.heading_levels)
    if len(levels) != len(base):
        # A laid-out PDF page's path ends with the headings printed on the page itself,
        # which its text has as Markdown headings: the chunks start from the trail above
        # them. (With their levels, each heading of the text takes its own place instead.)
        here = {m.group(1) for m in _MD_HEADING.finditer(section.text)} if base else set()
        while base and base[-1] in here:
            base.pop()
        levels = []
    if not base and section.heading and f"# {section.heading}" not in section.text:
        base = [section.heading]  # a DOCX part's heading not written into its text
    if not base and not has_structure(section.text):
        return chunk_text(section.text, chunk_size), None
    structs = structured_chunks(section.text, chunk_size, base, levels)
    return [s.chunk for s in structs], structs


def link_chunks(items: Sequence[MemoryItem], structs: list[StructChunk] | None, key: str) -> None:
    """Heading paths, section links and table links for one section's items (in order), in
    place. ``key`` names the section (its file and page or part)."""
    if structs is None:
        if ":p" in key:  # a page without headings (not plain text, which stays as it was)
            head = page_head(items[0].memory) if items else []
            for item in items if head else []:
                item.metadata.extra[PAGE_HEAD] = head
            if len(items) > 1:
                _link(items, key)
        return
    runs: dict[str, list[MemoryItem]] = {}
    tables: dict[str, list[MemoryItem]] = {}
    for item, s in zip(items, structs):
        extra = item.metadata.extra
        path = cap_path(s.heading_path)
        if path:
            extra[HEADING_PATH] = path
        else:  # sections merged under no common heading: not the page's path either
            extra.pop(HEADING_PATH, None)
        if s.titles:
            extra[SECTION_TITLES] = list(s.titles)
        runs.setdefault(f"{key}>" + "\x1f".join(path), []).append(item)
        if s.table is not None:
            table = f"{key}#t{s.table}"
            extra[TABLE] = table
            tables.setdefault(table, []).append(item)
    for thread, run in runs.items():
        if len(run) > 1:
            _link(run, thread)
    for run in tables.values():
        if 1 < len(run) <= MAX_TABLE_LINKS:
            ids = [i.id for i in run]
            for item in run:
                item.metadata.extra[TABLE_IDS] = ids


def page_head(text: str) -> list[str]:
    """A page's first short lines, up to the first long one: where a page without marked
    headings names what it holds (a statement's title, a running header). Searched with the
    headings (:mod:`omnireader.store.headings`), never shown as a heading path."""
    out: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            continue
        if len(line) > _HEAD_CHARS or len(out) == _HEAD_LINES:
            break
        out.append(line)
    return out


def _link(items: Sequence[MemoryItem], thread: str) -> None:
    for n, item in enumerate(items):
        extra = item.metadata.extra
        extra[SECTION] = thread
        extra[INDEX] = n
        if n:
            extra[PREV] = items[n - 1].id
        if n + 1 < len(items):
            extra[NEXT] = items[n + 1].id
