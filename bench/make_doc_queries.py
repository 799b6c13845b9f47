"""Write the document retrieval set: queries from ``../shared/corpus`` → the file and page.

    python bench/make_doc_queries.py [--corpus ../shared/corpus] [--out bench/doc_queries.jsonl]

Every corpus file is read in fast mode (what the store will hold). From each readable page
or chunk, sentences of eight words or more are candidates; a seeded generator (seeded by the
file's name, so the set is the same on every machine) picks a few per file and makes:

- ``phrase``: six consecutive words of the sentence, as a user quoting a document would;
- ``words``: four of its content words in shuffled order, lower-cased, as a user who half
  remembers it would.

A query is kept only when it points to one place: the phrase occurs on one page of one file
only, and the four words occur together on one page only. Licence and notice files and the
corpora's ``expected`` answer files are ingested by the benchmark (as distractors) but never
asked about. Each line: ``{"query", "kind", "file" (relative to the corpus), "page",
"member"}``; ``page`` is null for formats without pages.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PER_FILE = 4
_SKIP = re.compile(r"^(LICENSE|NOTICE|expected)", re.I)  # file names never asked about
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


def _norm(text: str) -> str:
    return " ".join(w.lower() for w in _WORD.findall(text))


def _places(corpus: Path) -> list[dict[str, Any]]:
    """Every readable page / chunk of the corpus: its file, page, member and text."""
    from omnireader import Reader

    reader = Reader()
    out: list[dict[str, Any]] = []
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        result = reader.read_report(path)
        for item in result.items:
            s = item.source
            if s is None or "needs_ocr" in item.metadata.flags:
                continue
            out.append(
                {
                    "file": str(path.relative_to(corpus)),
                    "page": s.page,
                    "member": s.member,
                    "text": item.memory,
                    "norm": _norm(item.memory),
                }
            )
    return out


def _key(place: dict[str, Any]) -> tuple[Any, ...]:
    return place["file"], place["page"], place["member"]


def make(corpus: Path) -> list[dict[str, Any]]:
    places = _places(corpus)
    by_file: dict[str, list[dict[str, Any]]] = {}
    for p in places:
        by_file.setdefault(p["file"], []).append(p)
    queries: list[dict[str, Any]] = []
    for name, own in sorted(by_file.items()):
        parts = Path(name).parts
        if _SKIP.match(parts[-1]) or "expected_outputs" in parts:
            continue
        rng = random.Random(zlib.crc32(name.encode()))
        candidates = [
            (p, s) for p in own for s in _SENTENCE.split(p["text"]) if len(_WORD.findall(s)) >= 8
        ]
        rng.shuffle(candidates)
        made = 0
        for place, sentence in candidates:
            if made >= PER_FILE:
                break
            words = _WORD.findall(sentence)
            content = list(dict.fromkeys(w.lower() for w in words if len(w) >= 4))
            if len(content) < 4:
                continue
            start = rng.randrange(0, len(words) - 5)
            phrase = " ".join(words[start : start + 6])
            picked = rng.sample(content, 4)
            made += _keep(
                queries,
                places,
                place,
                phrase,
                "phrase",
                lambda p, ph=_norm(phrase): ph in p["norm"],
            )
            made += _keep(
                queries,
                places,
                place,
                " ".join(picked),
                "words",
                lambda p, ws=picked: all(re.search(rf"\b{re.escape(w)}\b", p["norm"]) for w in ws),
            )
    return queries


def _keep(
    queries: list[dict[str, Any]],
    places: list[dict[str, Any]],
    place: dict[str, Any],
    query: str,
    kind: str,
    occurs: Any,
) -> int:
    where = {_key(p) for p in places if occurs(p)}
    if where != {_key(place)}:
        return 0  # ambiguous (or, after normalising, not found): no single right answer
    queries.append(
        {
            "query": query,
            "kind": kind,
            "file": place["file"],
            "page": place["page"],
            "member": place["member"],
        }
    )
    return 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus")
    ap.add_argument("--out", type=Path, default=HERE / "doc_queries.jsonl")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}; nothing written", file=sys.stderr)
        return
    queries = make(args.corpus.resolve())
    args.out.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries))
    files = len({q["file"] for q in queries})
    print(f"{len(queries)} queries over {files} files written to {args.out}")


if __name__ == "__main__":
    main()
