"""Tables from PDFs: camelot's test PDFs scored by the ICDAR 2013 adjacency F1, and speed.

    python bench/bench_tables.py [--quick] [--no-markitdown] [-v] [--out DIR]

Each PDF page is laid out here the simplest way that shows the tables: the tables that
``find_tables`` finds rendered with ``render_table`` at their place, every other line of
words as a line of text (until the layout stage writes the page's Markdown itself). The
Markdown goes to ``bench/out/tables/<pdf>.md`` and ``../shared/corpus/tables/score_tables.py``
scores it (target F1 >= 0.85). MarkItDown's figure comes from the same scorer in the same
run. A second check reads the PDFs of ``../shared/corpus/markitdown/`` whose expected outputs
hold pipe tables and counts the expected cell adjacencies found.

Speed, as ratios in one run (rounds interleaved): pages/s of finding the tables (rules,
words and ``find_tables``) against PDFium's own text extraction of the same pages
(``get_text_range``), the floor any fast reader pays.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "corpus"
TABLES = SHARED / "tables"
MARKITDOWN = SHARED / "markitdown"
OUT = HERE / "out" / "tables"


def page_markdown(page: Any) -> tuple[str, int]:
    """One page as Markdown (tables rendered, other lines as text), and its table count."""
    from omnireader.formats.layout.rules import page_rules, text_rotation
    from omnireader.formats.layout.tables import find_tables, render_table
    from omnireader.formats.layout.tables_text import group_lines
    from omnireader.formats.layout.words import page_words

    textpage = page.get_textpage()
    turn = text_rotation(textpage)
    before = page.get_rotation()
    if turn:
        page.set_rotation((before + turn) % 360)
    try:
        words = page_words(page, textpage)
        rules = page_rules(page)
        width, height = page.get_width(), page.get_height()
    finally:
        if turn:
            page.set_rotation(before)
    tables = find_tables(words, rules, width, height)
    pieces: list[tuple[float, str]] = [(t.y0, render_table(t)) for t in tables]
    rest = [
        w
        for w in words
        if not any(t.x0 <= w.cx <= t.x1 and t.y0 <= w.cy <= t.y1 for t in tables)
    ]
    for line in group_lines(rest):
        pieces.append((line[0].y0, " ".join(w.text for w in line)))
    pieces.sort(key=lambda p: p[0])
    return "\n\n".join(text for _, text in pieces), len(tables)


def pdf_markdown(path: Path) -> tuple[str, int, int]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        parts = [page_markdown(doc[i]) for i in range(len(doc))]
    finally:
        doc.close()
    return "\n\n".join(md for md, _ in parts), sum(n for _, n in parts), len(parts)


def _scorer() -> Any:
    spec = importlib.util.spec_from_file_location(
        "score_tables", TABLES / "score_tables.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def score_dir(out: Path, verbose: bool) -> str:
    args = [sys.executable, str(TABLES / "score_tables.py"), str(out)] + (
        ["-v"] if verbose else []
    )
    return subprocess.run(
        args, capture_output=True, text=True, check=True
    ).stdout.strip()


def markitdown_md(path: Path) -> str:
    from markitdown import MarkItDown

    return MarkItDown().convert(str(path)).text_content


def second_check(verbose: bool) -> dict[str, Any]:
    """Expected adjacencies of the MarkItDown corpus's pipe tables that our output has."""
    score = _scorer()
    hit = exp = out_n = 0
    for md in sorted((MARKITDOWN / "expected_outputs").glob("*.md")):
        pdf = MARKITDOWN / (md.stem + ".pdf")
        expected = score.markdown_relations(md.read_text())
        if not pdf.exists() or not expected:
            continue
        ours = score.markdown_relations(pdf_markdown(pdf)[0])
        h = sum((ours & expected).values())
        hit, exp, out_n = (
            hit + h,
            exp + sum(expected.values()),
            out_n + sum(ours.values()),
        )
        if verbose:
            print(
                f"  {pdf.name:48} expected {sum(expected.values()):4}  output {sum(ours.values()):4}  matched {h:4}"
            )
    p, r = hit / max(1, out_n), hit / max(1, exp)
    return {
        "precision": round(p, 3),
        "recall": round(r, 3),
        "f1": round(2 * p * r / max(1e-9, p + r), 3),
    }


def speed(paths: list[Path], repeat: int) -> dict[str, float]:
    """Pages/s of PDFium's text extraction, of reading words, and of words + rules + tables,
    interleaved round by round; the table finding's own share is the difference."""
    import pypdfium2 as pdfium

    from omnireader.formats.layout.rules import page_rules
    from omnireader.formats.layout.tables import find_tables
    from omnireader.formats.layout.words import page_words

    docs = [pdfium.PdfDocument(p) for p in paths]
    pages = [d[i] for d in docs for i in range(len(d))]

    def raw() -> None:
        for page in pages:
            tp = page.get_textpage()
            tp.get_text_range()
            tp.close()

    def words() -> None:
        for page in pages:
            tp = page.get_textpage()
            page_words(page, tp)
            tp.close()

    cached = []
    for page in pages:
        tp = page.get_textpage()
        cached.append(page_words(page, tp))
        tp.close()

    def tables() -> None:  # rules and table finding on words already read
        for page, ws in zip(pages, cached):
            find_tables(ws, page_rules(page), page.get_width(), page.get_height())

    times: dict[str, list[float]] = {"raw": [], "words": [], "tables": []}
    for _ in range(repeat + 1):  # the first round warms caches and is dropped
        for name, fn in (("raw", raw), ("words", words), ("tables", tables)):
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    rounds = list(zip(times["raw"][1:], times["words"][1:], times["tables"][1:]))
    full = sorted(r / (w + t) for r, w, t in rounds)  # words + rules + tables vs raw
    own = sorted(r / t for r, _, t in rounds)  # rules + tables alone vs raw
    n, mid = len(pages), repeat // 2

    def rate(name: str) -> float:
        return round(n / sorted(times[name][1:])[mid], 1)

    both = sorted(w + t for _, w, t in rounds)

    return {
        "pages": n,
        "raw_pages_per_s": rate("raw"),
        "words_pages_per_s": rate("words"),
        "rules_tables_pages_per_s": rate("tables"),
        "words_rules_tables_pages_per_s": round(n / both[mid], 1),
        "ratio_words_rules_tables_vs_raw": round(full[mid], 3),
        "ratio_rules_tables_only_vs_raw": round(own[mid], 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="one speed round, no MarkItDown"
    )
    parser.add_argument("--no-markitdown", action="store_true")
    parser.add_argument("-v", action="store_true", help="per-PDF rows")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if not TABLES.exists():
        print(f"skipped: {TABLES} is absent")
        return 0
    pdfs = sorted(TABLES.glob("*.pdf"))
    args.out.mkdir(parents=True, exist_ok=True)
    for pdf in pdfs:
        md, n_tables, n_pages = pdf_markdown(pdf)
        (args.out / f"{pdf.name}.md").write_text(md)
        if args.v:
            print(f"  {pdf.name:34} pages {n_pages}  tables {n_tables}")
    print("omnireader  ", score_dir(args.out, args.v))
    if not (args.quick or args.no_markitdown):
        peer = args.out.parent / "tables_markitdown"
        peer.mkdir(parents=True, exist_ok=True)
        markitdown_md(pdfs[0])  # its imports and first-use set-up are not per page
        start = time.perf_counter()
        for pdf in pdfs:
            (peer / f"{pdf.name}.md").write_text(markitdown_md(pdf))
        peer_s = time.perf_counter() - start
        start = time.perf_counter()
        for pdf in pdfs:
            pdf_markdown(pdf)
        ours_s = time.perf_counter() - start
        print("markitdown  ", score_dir(peer, args.v))
        print(
            f"whole files, one pass each: ours (this bench's Markdown) {ours_s:.2f} s, "
            f"MarkItDown {peer_s:.2f} s: {peer_s / ours_s:.1f}x faster"
        )
    if MARKITDOWN.exists():
        print("markitdown corpus (expected pipe tables):", second_check(args.v))
    print("speed:", speed(pdfs, 1 if args.quick else 5))
    return 0


if __name__ == "__main__":
    sys.exit(main())
