"""Where each millisecond of a PDF page goes, stage by stage (a profile, not a benchmark).

    python bench/profile_ingest.py [--dir DIR ...] [--files N] [--repeat 2]

The ingest of one worker, replayed in this process one file after another so every stage
can be timed (wall time, exclusive: a stage's time leaves out the stages it calls):

- ``pdf read``: opening the page and its text page in PDFium, the plain text, hidden-text,
  garbled-text and annotation checks;
- ``layout: …``: the layout stage's sub-stages (words, rotation, rules, tables, blocks,
  headings, furniture, Markdown, the kept-characters check);
- ``chunking``, ``language`` (each chunk's guess), ``items`` (the rest of the parser);
- ``hand-over``: the worker's rows (``items_to_rows``), pickling them, unpickling them;
- ``embedding``: the store's default embedder over the rows' match texts;
- ``write``: ``add_rows`` (vectors beside the rows, ``merge_insert``), one batch per file.

The stages are timed by wrapping the functions that do them (the wrappers cost ~1 µs a
call, counted in the stage). Against it: raw pypdfium2 text extraction of the same files in
the same run (the bench_ingest baseline), and ``ingest`` itself at one worker, end to end.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import pickle
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _util import ROOT

SHARED = ROOT.parent / "shared" / "bench"
DIRS = [SHARED / "financebench-dev" / "pdfs", SHARED / "pdf-structure-dev" / "pdfs"]

T: dict[str, float] = defaultdict(float)
_STACK: list[list[float]] = []  # per open stage: [children's time]


def _timed(stage: str, fn: Callable[..., Any], gen: bool = False) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*a: Any, **k: Any) -> Any:
        _STACK.append([0.0])
        t = time.perf_counter()
        try:
            out = fn(*a, **k)
            if gen:
                out = iter(list(out))
            return out
        finally:
            spent = time.perf_counter() - t
            inner = _STACK.pop()[0]
            T[stage] += spent - inner
            if _STACK:
                _STACK[-1][0] += spent

    return wrapper


# (module, attribute path, stage, is a generator)
WRAPS = [
    ("omnireader.formats.pdf.page", "_read_layer", "pdf read", False),
    ("omnireader.formats.pdf.page", "visible_text", "pdf read: hidden text", False),
    ("omnireader.formats.pdf.page", "is_garbled", "pdf read: garbled check", False),
    ("omnireader.formats.pdf.page", "page_notes", "pdf read: annotations", False),
    ("omnireader.formats.pdf.page", "clean_pdf_text", "pdf read: clean", False),
    ("omnireader.formats.layout.stream", "LayoutStream.layout", "layout: other", False),
    ("omnireader.formats.layout.page", "layout_page", "layout: other", False),
    ("omnireader.formats.layout.margin_text", "page_words", "layout: words", False),
    ("omnireader.formats.layout.page", "take_margin_text", "layout: words", False),
    ("omnireader.formats.layout.page", "read_symbols", "layout: words", False),
    ("omnireader.formats.layout.page", "text_rotation", "layout: rotation", False),
    ("omnireader.formats.layout.rules", "page_rules", "layout: rules", False),
    ("omnireader.formats.layout.tables", "find_tables", "layout: tables", False),
    ("omnireader.formats.layout.page", "layout_words", "layout: blocks", False),
    ("omnireader.formats.layout.page", "_split_at_outline", "layout: headings", False),
    ("omnireader.formats.layout.headings", "HeadingRules.level", "layout: headings", False),
    ("omnireader.formats.layout.headings", "HeadingRules.add_sizes", "layout: headings", False),
    ("omnireader.formats.layout.stream", "_check_kept", "layout: kept check", False),
    ("omnireader.formats.layout.stream", "LayoutStream.feed", "layout: furniture", True),
    ("omnireader.formats.layout.stream", "LayoutStream.flush", "layout: furniture", True),
    ("omnireader.formats.layout.furniture", "FurnitureWindow.split", "layout: furniture", False),
    ("omnireader.formats.layout.stream", "margin_keys", "layout: furniture", False),
    ("omnireader.formats.layout.stream", "LayoutStream._finish", "layout: markdown", True),
    ("omnireader.formats.layout.stream", "LayoutStream._carry_table", "layout: tables", False),
    ("omnireader.formats.pdf.extract", "doc_info", "pdf read: doc info", False),
    ("omnireader.parsers.file", "FileParser.parse_fast", "items", False),
    ("omnireader.parsers.file", "FileParser._chunk_items", "items", False),
    ("omnireader.store.schema", "items_to_rows", "hand-over: items_to_rows", False),
    ("omnireader.parsers.file", "section_chunks", "chunking", False),
    ("omnireader.parsers.base", "guess_lang", "language", False),
    ("omnireader.parsers.file", "guess_languages", "language", False),
]


def install() -> None:
    for mod, attr, stage, gen in WRAPS:
        m = importlib.import_module(mod)
        owner: Any = m
        *path, name = attr.split(".")
        for p in path:
            owner = getattr(owner, p)
        setattr(owner, name, _timed(stage, getattr(owner, name), gen))


def raw_pdfium(paths: list[Path]) -> int:
    import pypdfium2 as pdfium

    n = 0
    for p in paths:
        doc = pdfium.PdfDocument(str(p))
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_bounded()
            tp.close()
            page.close()
            n += 1
        doc.close()
    return n


def replay(paths: list[Path]) -> int:
    """Parse, hand over, embed and write each file as one worker and the writer do."""
    from omnireader import Reader, Store
    from omnireader.batch.file_task import parse_file
    from omnireader.store.embed_text import row_texts
    from omnireader.store.row_writes import rows_from_bytes
    from omnireader.store.schema import items_schema

    db = Path(tempfile.mkdtemp(prefix="omni-prof-")) / "store.lance"
    try:
        store = Store.open(db)
        schema = items_schema(store.embedder.dim, store.embedder.name)
        ctx = Reader(ocr="off").context(None, "fast").model_dump(exclude={"refiner"})
        n = 0
        for p in paths:
            t = time.perf_counter()
            got = parse_file(str(p.resolve()), ctx, None, schema=schema)
            T["(parse_file total)"] += time.perf_counter() - t
            t = time.perf_counter()
            blob = pickle.dumps(got, protocol=pickle.HIGHEST_PROTOCOL)
            res = pickle.loads(blob)
            rows = rows_from_bytes(res["rows"])
            T["hand-over: pickle"] += time.perf_counter() - t
            t = time.perf_counter()
            vectors = store.embedder.embed(row_texts(rows, store.embedder))
            T["embedding"] += time.perf_counter() - t
            t = time.perf_counter()
            store.add_rows(rows, vectors, refresh=False)
            T["write"] += time.perf_counter() - t
            n += rows.num_rows
        t = time.perf_counter()
        store.optimize()
        T["write: final optimize"] += time.perf_counter() - t
        return n
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def ingest_w1(paths: list[Path]) -> float:
    from omnireader import IngestOptions, Reader, Store, ingest

    db = Path(tempfile.mkdtemp(prefix="omni-prof-")) / "store.lance"
    try:
        t = time.perf_counter()
        ingest(paths, Store.open(db), reader=Reader(ocr="off"), options=IngestOptions(workers=1))
        return time.perf_counter() - t
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", action="append", type=Path)
    ap.add_argument("--files", type=int, default=0, help="the first N files of each folder")
    ap.add_argument("--no-ingest", action="store_true", help="skip the end-to-end ingest")
    a = ap.parse_args()
    for d in a.dir or DIRS:
        paths = sorted(d.glob("*.pdf"))
        if a.files:
            paths = paths[: a.files]
        raw_pdfium(paths[:2])
        t = time.perf_counter()
        pages = raw_pdfium(paths)
        raw = time.perf_counter() - t
        w1 = None if a.no_ingest else ingest_w1(paths)  # before the wrappers go in
        if not _STACK and not T:
            install()
        T.clear()
        replay(paths[:1])
        T.clear()
        t = time.perf_counter()
        items = replay(paths)
        total = time.perf_counter() - t
        ms = {k: 1000 * v / pages for k, v in T.items()}
        parse = ms.pop("(parse_file total)")
        named = sum(v for k, v in ms.items() if not k.startswith(("hand", "embed", "write")))
        ms["other (open, extract, parse_file rest)"] = parse - named
        print(f"\n{d} — {len(paths)} files, {pages} pages, {items} items")
        print(f"raw pypdfium2 text: {1000 * raw / pages:.3f} ms/page")
        if w1 is not None:
            print(
                f"ingest, 1 worker, end to end: {1000 * w1 / pages:.3f} ms/page "
                f"({raw / w1:.3f}x raw)"
            )
        print(f"replayed in one process: {1000 * total / pages:.3f} ms/page")
        lay = sum(v for k, v in ms.items() if k.startswith("layout"))
        print(f"  {'layout (all)':46} {lay:8.3f}")
        for k in sorted(ms, key=lambda k: (not k.startswith("pdf"), k)):
            print(f"  {k:46} {ms[k]:8.3f}")


if __name__ == "__main__":
    main()
