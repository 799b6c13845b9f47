"""Where a document chunk sits: the ``metadata.extra`` keys the file parser writes
(:mod:`omnireader.parsers.doc_chunks`) and search reads (:mod:`omnireader.store.doc_passages`,
:mod:`omnireader.store.headings`). Here, apart from both, so the store never imports a parser.
"""

from __future__ import annotations

__all__ = [
    "HEADING_PATH",
    "SECTION_TITLES",
    "PAGE_HEAD",
    "SECTION",
    "INDEX",
    "PREV",
    "NEXT",
    "TABLE",
    "TABLE_IDS",
    "MAX_TABLE_LINKS",
]

HEADING_PATH = "heading_path"  # the chunk's heading path, outermost first (capped)
#: a chunk of small sections merged: their own titles, below the heading path they share
SECTION_TITLES = "section_titles"
PAGE_HEAD = "page_head"  # a page without marked headings: its first short lines
SECTION = "doc_section"  # the key of the chunk's section (file, page or part, heading path)
INDEX = "doc_index"  # the chunk's place in its section (0-based)
PREV = "doc_prev"  # the item id of the chunk before it in the section
NEXT = "doc_next"  # the one after it
TABLE = "table"  # the key of the table the chunk holds a piece of
TABLE_IDS = "table_ids"  # every piece's item id, for a table of few pieces
#: a table of more pieces than this is larger than any passage budget: not linked whole
MAX_TABLE_LINKS = 8
