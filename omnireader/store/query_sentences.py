"""A query of several sentences is matched by the semantic view sentence by sentence.

A static embedder's query vector is the mean of its tokens' rows. "What is the FY2018 capital
expenditure for 3M? Give a response to the question by relying on the details shown in the
cash flow statement." then mixes the question's words with the instruction's, and the page
that *is* the cash flow statement is close to neither half's mean. So each sentence is
embedded on its own and a candidate's similarity is its best sentence's (the maximum of the
cosines): a passage that matches one sentence well ranks as it would for that sentence
alone. The vector index is still asked with the whole query's vector (one query; its
candidates are then re-scored), and a query of one sentence keeps its one vector, so its
ranking is what it was.

Measured on the dev sets (bench_semantic's stores, notes/2026-12-07/s13-search.md):
FinanceBench dev, 30 of 68 questions of several sentences, page@6k filtered / whole store:
default search 0.676 / 0.603 -> 0.706 / 0.632 (each half of the companies gains one question
in each setting), the vector view alone 0.412 / 0.162 -> 0.485 / 0.176. LoCoMo dev (5 of 759
questions of several sentences): unchanged.

Where it could misfire: a sentence that says little on its own ("Thanks.", "Be brief.")
matches passages by its few words, so sentences of fewer than :data:`MIN_WORDS` words are
joined to their neighbour; an abbreviation before a capital ("Dr. Smith") still splits. A
long text pasted as a query (more than :data:`MAX_SENTENCES` sentences) is one vector, as
before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from omnireader.llm.embedder_base import Embedder

__all__ = ["QueryVectors", "query_vectors", "sentences", "cosines", "MIN_WORDS", "MAX_SENTENCES"]

#: a sentence of fewer words is joined to the one before it (or after it, when first)
MIN_WORDS = 3
#: a query of more sentences is embedded whole (a pasted text, not a question)
MAX_SENTENCES = 8
# A sentence ends at . ? or ! followed by space and a capital, a digit or an opening mark
# ("U.S. sales" does not split) ...
_END = re.compile(r"[.?!](?=\s+[\"'(\[]?[A-Z0-9])")
# ... but not at a period after an initial or a short title ("J.K. Rowling", "Dr. Seuss").
_ABBREVIATION = re.compile(r"(?:^|[\s.])[A-Z][A-Za-z]?$")
_WORD = re.compile(r"\w+")


def _split(query: str) -> list[str]:
    parts, start = [], 0
    for end in _END.finditer(query):
        if end.group() == "." and _ABBREVIATION.search(query, 0, end.start()):
            continue
        parts.append(query[start : end.end()])
        start = end.end()
    return [*parts, query[start:]]


def sentences(query: str) -> list[str]:
    """The query's sentences (one item: the query is one sentence, or too many to split)."""
    out: list[str] = []
    for part in (p.strip() for p in _split(query.strip())):
        if not part:
            continue
        if out and (_words(part) < MIN_WORDS or _words(out[-1]) < MIN_WORDS):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out if 1 < len(out) <= MAX_SENTENCES else [query]


def _words(text: str) -> int:
    return len(_WORD.findall(text))


@dataclass(frozen=True)
class QueryVectors:
    """A query's vectors: the whole query's (what the vector index is asked with) and, for
    a query of several sentences, one per sentence (what candidates are scored by)."""

    whole: np.ndarray
    parts: np.ndarray | None = None

    def similarities(self, matrix: np.ndarray) -> np.ndarray:
        """Each row's cosine to the query: its best sentence's when there are several."""
        return cosines(matrix, self.whole if self.parts is None else self.parts)

    def columns(self, columns: list[str]) -> list[str]:
        """What a vector query must read: ``columns``, and the rows' vectors to score them by
        sentence."""
        return columns if self.parts is None else [*columns, "vector"]

    def row_similarities(self, data: pa.Table) -> list[float]:
        """Each row of a vector query's result: its similarity to the query (one minus its
        cosine distance, or its best sentence's cosine)."""
        if self.parts is None or not data.num_rows:
            return [1.0 - float(d) for d in data.column("_distance").to_pylist()]
        flat = data.column("vector").combine_chunks().flatten().to_numpy()
        matrix = flat.reshape(data.num_rows, -1).astype("float32", copy=False)
        return [float(s) for s in self.similarities(matrix)]


def query_vectors(embedder: Embedder, query: str) -> QueryVectors:
    import numpy as np

    whole = embedder.embed_query(query)
    said = sentences(query)
    if len(said) < 2:
        return QueryVectors(whole)
    return QueryVectors(whole, np.stack([embedder.embed_query(s) for s in said]))


def cosines(matrix: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """Each row's cosine similarity to ``vectors`` (one vector, or the best of several rows)."""
    import numpy as np

    many = np.atleast_2d(vectors)
    norms = np.maximum(np.linalg.norm(many, axis=1), 1e-12)
    rows = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)
    sims = (matrix @ many.T) / np.outer(rows, norms)
    return sims.max(axis=1)
