"""Documents a question names: "What is 3M's FY2018 capital expenditure?" is about the file
``3M_2018_10K.pdf``, not about every filing that reports capital expenditure.

Over a store of many documents, BM25 ranks a chunk by the question's words in the chunk; the
company and the year are in the document's name, seldom in the chunk, so another company's
cash flow statement ranks as high as the right one. So the lexical view also asks which
documents the question names (:func:`named_documents`): each document's name words (its file
name, split at ``_``/``-``/``.`` and between letters and digits) are matched
against the question's words, each word weighted by how few documents have it (IDF over the
store's documents). The documents with the best score, and those within
:data:`NEAR_BEST` of it, are named when they are few (at most half the store's documents,
and at most 20): a word every document's name holds names none of them. Their BM25
candidates are then fetched too, and lifted by :data:`ROUTE_BOOST` (:mod:`.search`); the
other candidates stay, so a chat message or another file that matches well is still found.

Titles are left out: a PDF's title is often "Document" or a filing number, and a long title
matched the random words of the corpus' known-item queries (bench_retrieval: right file
first 0.572 with titles, 0.580 without; FinanceBench whole store 0.529 and 0.544).

The names are read from the store (a scan of one column: ~20 ms at 10k items) and kept
for that table version, and at most 10 s once the table has moved on (a busy store is not
rescanned after every write). A store without files names nothing: chat memory is
unaffected.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from omnireader.store.expansion import normal
from omnireader.store.filters import combine, sql_string
from omnireader.store.lexicon import ENGLISH_STOP_WORDS
from omnireader.store.presence import table_version
from omnireader.store.queries import FtsQuery, fts_query
from omnireader.store.text_columns import text_columns

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["named_documents", "bm25_queries", "merge_routed", "ROUTE_BOOST", "NEAR_BEST"]

#: a named document's BM25 candidates score (1 + ROUTE_BOOST) x their own (bench_retrieval)
ROUTE_BOOST = 1.0
#: documents scoring at least this share of the best are named too (one company's filings)
NEAR_BEST = 0.8
_MAX_NAMED = 20  # a question that names more documents than this names none in particular
_WORDS = re.compile(r"[a-z0-9]+")
_PARTS = re.compile(r"[a-z]+|\d+")
_STOP = frozenset(ENGLISH_STOP_WORDS)


def words(text: str) -> set[str]:
    """The name words of ``text``: lower-case, mixed words with their parts ("fy2018": fy, 2018)."""
    out: set[str] = set()
    for word in _WORDS.findall(normal(text.replace("_", " "))):
        out.add(word)
        out.update(_PARTS.findall(word))
    return out - _STOP


def _joined(query: str) -> dict[str, tuple[str, ...]]:
    """Two and three neighbouring words run together, with their words: file names often
    drop the spaces of a name ("Best Buy" is ``BESTBUY_2019_10K.pdf``)."""
    seq = _WORDS.findall(normal(query))
    return {
        "".join(seq[i : i + n]): tuple(seq[i : i + n])
        for n in (2, 3)
        for i in range(len(seq) - n + 1)
    }


def _score(
    asked: set[str], joined: dict[str, tuple[str, ...]], have: frozenset[str], idf: dict[str, float]
) -> float:
    """The IDF of the question's words in a document's name; words matched run together
    ("bestbuy") are not counted again one by one (a name such as ``BESTBUY_best_buy.pdf``
    holds both)."""
    runs = [j for j in joined if j in have]
    parts = {w for j in runs for w in joined[j]}
    return sum(idf[w] for w in (asked & have) - parts) + sum(idf[j] for j in runs)


@dataclass(frozen=True)
class _Names:
    docs: dict[str, frozenset[str]]  # path -> its name words
    idf: dict[str, float]
    holders: dict[str, list[str]]  # name word -> the paths whose name has it


_cache: dict[str, tuple[int, float, _Names]] = {}
_lock = threading.Lock()
#: names read at another table version are used for this long (a busy store is not rescanned
#: after every write; a file added meanwhile is only not yet lifted)
_STALE_S = 10.0


def _names(table: Any) -> _Names:
    key = str(getattr(table, "uri", None) or id(table))
    version = table_version(table)
    with _lock:
        held = _cache.get(key)
    if held is not None and (held[0] == version or time.monotonic() - held[1] < _STALE_S):
        return held[2]
    rows = (
        table.search()
        .where("path IS NOT NULL AND source_kind = 'file'")
        .select(["path"])
        .limit(None)
        .to_arrow()
        .group_by(["path"])
        .aggregate([])
        .column("path")
        .to_pylist()
    )
    docs = {path: words(re.split(r"[\\/]", path)[-1].rsplit(".", 1)[0]) for path in rows}
    df = Counter(w for ws in docs.values() for w in ws)
    n = len(docs)
    names = _Names(
        {p: frozenset(ws) for p, ws in docs.items()},
        {w: math.log((n + 1) / c) for w, c in df.items()},
        _holders(docs),
    )
    with _lock:
        _cache[key] = (version, time.monotonic(), names)
    return names


def _holders(docs: dict[str, set[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, ws in docs.items():
        for w in ws:
            out.setdefault(w, []).append(path)
    return out


def named_documents(table: Any, query: str) -> list[str]:
    """The paths of the documents ``query`` names (none: it names no document in particular)."""
    names = _names(table)
    if not names.docs:
        return []
    asked, joined = words(query), _joined(query)
    # Only the documents sharing a word with the question can score (a store of thousands
    # of files is not walked per search).
    near = {p for w in asked | joined.keys() for p in names.holders.get(w, ())}
    if not near:
        return []
    scores = {path: _score(asked, joined, names.docs[path], names.idf) for path in near}
    best = max(scores.values())
    if best <= 0:
        return []
    named = sorted(p for p, s in scores.items() if s >= NEAR_BEST * best)
    # Naming most of the store is naming nothing in particular.
    return named if len(named) <= min(_MAX_NAMED, len(names.docs) / 2) else []


def route_clause(paths: Sequence[str]) -> str:
    """The where-clause of rows from these documents."""
    return f"path IN ({', '.join(sql_string(p) for p in paths)})"


def bm25_queries(
    table: Any, query: str, n: int, where: str | None, columns: list[str]
) -> list[FtsQuery]:
    """BM25's queries for ``query``: over the rows under ``where``, and, when the question
    names documents, over those documents' rows too (merged by :func:`merge_routed`)."""
    searched = text_columns(table)
    queries = [fts_query(query, n, where, columns, searched)]
    named = named_documents(table, query) if ROUTE_BOOST > 0 else []
    if named:
        queries.append(fts_query(query, n, combine(where, route_clause(named)), columns, searched))
    return queries


def merge_routed(tables: Sequence[pa.Table], n: int) -> pa.Table:
    """One BM25 result from :func:`bm25_queries`' results: the named documents' rows scored
    (1 + ROUTE_BOOST) x their own, then the other rows, the best ``n`` by score."""
    import pyarrow as pa

    if len(tables) == 1:
        return tables[0]
    main, routed = tables
    lifted = routed.column("_score").to_numpy() * (1.0 + ROUTE_BOOST)
    routed = routed.set_column(
        routed.schema.get_field_index("_score"),
        routed.schema.field("_score"),
        # (from a list: `pa.array` of a numpy array imports numpy.ma, ~6 ms of a cold search)
        pa.array(lifted.tolist(), type=routed.schema.field("_score").type),
    )
    mine = set(routed.column("id").to_pylist())
    keep = [i not in mine for i in main.column("id").to_pylist()]
    rest = main.filter(pa.array(keep, type=pa.bool_()))
    rows = pa.concat_tables([routed, rest.select(routed.column_names)])
    return rows.sort_by([("_score", "descending"), ("id", "ascending")]).slice(0, n)
