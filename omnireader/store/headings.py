"""A document chunk's title and heading path: a full-text field of their own.

A question names what it wants by the words of the section it is in more often than by the
words of the chunk itself ("the cash flow statement" for a table whose rows say "Purchases of
property, plant and equipment"). So every document chunk's title (the document's, or its
file name in words) and heading path are indexed in ``heading_text``, apart from its text;
so are the titles of the small sections merged into one chunk (``section_titles``), whose
heading path is only what those sections share: a chunk holding a balance sheet's
"Consolidated Balance Sheets" and the "Liabilities and equity" after it is about both,
though its path is the "Part II" above them.

BM25 over ``memory``, ``keywords_text`` and ``context_text`` gives each row its best column's
score (:class:`omnireader.store.queries.FtsQuery`). The heading field is not one more column
of that maximum: every chunk of a section shares its headings, so a heading match would tie
them all at the heading's score and rank them by nothing. It is *added*, scaled
(:func:`add_heading_scores`): a row scores its text's BM25 plus :data:`HEADING_WEIGHT` times
its heading's BM25 (each side scaled by its best candidate's), so among the chunks that match
the question's words, those under a heading that matches too come first; chunks whose
heading alone matches are candidates as well.

Chat items have no heading text (the column stays empty, and is not searched while empty,
see :mod:`.text_columns`). A store made before schema version 5 has no such column: its
searches run as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from omnireader.doc_links import HEADING_PATH, PAGE_HEAD, SECTION_TITLES
from omnireader.models import MemoryItem

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["HEADING_COLUMN", "HEADING_WEIGHT", "heading_text", "add_heading_scores"]

HEADING_COLUMN = "heading_text"
#: a heading's BM25 (scaled) relative to the text's, measured in bench/bench_retrieval.py. On
#: FinanceBench dev (filtered / whole store page@6k) and the corpus documents (right file
#: first): 0 -> 0.221 / 0.118, 0.638; 0.25 -> 0.397 / 0.162, 0.630; 0.35 -> 0.412 / 0.221, 0.601;
#: 0.5 -> 0.426 / 0.221, 0.572. 0.35: most of the gain on filings, little of the cost on files.
HEADING_WEIGHT = 0.35
_SEPARATORS = re.compile(r"[_.\-+]+")
_MAX_CHARS = 1000  # a title and six capped headings fit easily


def heading_text(item: MemoryItem) -> str | None:
    """The title and heading path of a document chunk, as words; None for other items."""
    src = item.source
    if src is None or src.kind != "file":
        return None
    meta = item.metadata
    path = meta.extra.get(HEADING_PATH)
    # The file name names the document too (a PDF's own title is often "Document1"), in
    # words: "3M_2018_10K.pdf" says "3M 2018 10K" (the tokenizer keeps "a_b" as one word).
    name = _SEPARATORS.sub(" ", src.filename.rsplit(".", 1)[0]).strip() if src.filename else ""
    titles = meta.extra.get(SECTION_TITLES)  # merged sections' own titles, below the path
    head = meta.extra.get(PAGE_HEAD)  # a page without marked headings: its first lines
    parts = [
        meta.topic or "",
        name,
        *(path if isinstance(path, list) else []),
        *(titles if isinstance(titles, list) else []),
        *(head if isinstance(head, list) else []),
    ]
    text = "\n".join(p for p in parts if isinstance(p, str) and p.strip())
    return text[:_MAX_CHARS] or None


def add_heading_scores(
    main: pa.Table, headings: Sequence[pa.Table], n: int, weight: float
) -> pa.Table:
    """``main``'s rows (best first, one per id) re-scored with their headings' BM25 added,
    and the rows only ``headings`` found; the best ``n``."""
    import pyarrow as pa

    found = [t for t in headings if t.num_rows]
    if not found or weight <= 0:
        return main.slice(0, n)
    extra = pa.concat_tables(found)
    ids = main.column("id").to_pylist()
    scores = main.column("_score").to_pylist()
    top = max(scores, default=0.0) or 1.0
    h_scores: dict[str, float] = {}
    h_rows: dict[str, int] = {}
    for i, (key, s) in enumerate(
        zip(extra.column("id").to_pylist(), extra.column("_score").to_pylist())
    ):
        if s > h_scores.get(key, -1.0):
            h_scores[key], h_rows[key] = s, i
    h_top = max(h_scores.values(), default=0.0) or 1.0
    combined = {
        key: s + weight * top * h_scores.get(key, 0.0) / h_top for key, s in zip(ids, scores)
    }
    only = [key for key in h_scores if key not in combined]
    for key in only:
        combined[key] = weight * top * h_scores[key] / h_top
    rows = (
        pa.concat_tables(
            [
                main,
                extra.take(pa.array([h_rows[k] for k in only], pa.int64())).select(
                    main.column_names
                ),
            ]
        )
        if only
        else main
    )
    order = sorted(
        range(rows.num_rows),
        key=lambda i: (
            -combined[ids[i] if i < len(ids) else only[i - len(ids)]],
            ids[i] if i < len(ids) else only[i - len(ids)],
        ),
    )[:n]
    rows = rows.take(pa.array(order, pa.int64()))
    at = rows.schema.get_field_index("_score")
    new = pa.array(
        [combined[k] for k in rows.column("id").to_pylist()], type=rows.schema.field("_score").type
    )
    return rows.set_column(at, rows.schema.field("_score"), new)
