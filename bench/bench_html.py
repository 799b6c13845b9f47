"""Big HTML pages read into items, against parsing them with BeautifulSoup and taking the text.

    python bench/bench_html.py [--runs 5] [--quick]

The pages: the biggest documentation pages this machine holds from different generators
(Node.js's ``fs.html``, Rustdoc's ``primitive.slice.html``, Valgrind's DocBook manual,
Python's Sphinx IDLE help), else the corpus's HTML (Wikipedia, a blog, a search page).
Rounds alternate, CPU seconds (``time.process_time``) of one pass over all pages:

- the baseline: ``BeautifulSoup(text, "lxml").get_text()`` of each page's decoded text,
  the tree every step of the reading works on and its text, nothing more;
- ``lxml.html``'s own parse and ``text_content()`` (information: the C floor);
- omnireader: ``Reader().read(page, mode="fast")``, bytes to items (decoding, the steps
  of ``formats/web/html_markdown.py``, markdownify, chunks and items).

Reported: omnireader's MB/s over the baseline's, round by round (target ≥ 0.4×: reading a
page costs at most ~2.5 times building its tree; it was ~0.25× when each step searched
the tree with ``find_all`` / ``find_parent``), and each side's MB/s.

Where the time goes (``fs.html``, 661 KB, 16k elements, 2026-12-07): the tree build by
bs4 ~45%, markdownify ~20%, the reading's steps (landmarks, chrome, hidden, notes,
tables, dates) ~30%, chunks and items the rest. Before the steps walked the tree plainly
(``formats/web/html_walk.py``), ~20 bs4 searches of the whole tree and a
``find_parent`` per cell and per tag were half of it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from _util import ROOT, at_least, interleaved, ratios, row, spread, table

#: Big documentation pages, one per generator, read when the machine has them.
DOC_PAGES = (
    "/usr/share/doc/nodejs/api/fs.html",
    "/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html/std/primitive.slice.html",
    "/usr/share/doc/valgrind/html/manual-core.html",
    "/root/.pyenv/versions/3.11.7/lib/python3.11/idlelib/help.html",
)
CORPUS_PAGES = ("test_wikipedia.html", "test_blog.html", "test_serp.html")
#: Reading a page costs at most ~2.5 times building its tree and taking its text.
OVER_TREE = 0.4


def pages() -> list[Path]:
    found = [Path(p) for p in DOC_PAGES if Path(p).is_file()]
    if len(found) >= 2:
        return found
    corpus = ROOT.parent / "shared" / "corpus" / "markitdown"
    return [corpus / name for name in CORPUS_PAGES if (corpus / name).is_file()]


def cpu(fn: Any) -> Any:
    def measure() -> float:
        started = time.process_time()
        fn()
        return time.process_time() - started

    return measure


def run(quick: bool = False, runs: int | None = None) -> dict[str, Any]:
    import lxml.html
    from bs4 import BeautifulSoup

    from omnireader import Reader
    from omnireader.formats.web.html_markdown import html_to_text

    runs = runs or (3 if quick else 5)
    paths = pages()[:2] if quick else pages()
    texts = [html_to_text(p.read_bytes(), str(p)) for p in paths]
    mb = sum(p.stat().st_size for p in paths) / 1e6
    reader = Reader()

    def tree() -> None:
        for text in texts:
            BeautifulSoup(text, "lxml").get_text()

    def lxml_alone() -> None:
        for text in texts:
            lxml.html.document_fromstring(text).text_content()

    def ours() -> None:
        for path in paths:
            assert reader.read(path, mode="fast")

    got = interleaved(
        {"bs4_tree_text": cpu(tree), "lxml_text": cpu(lxml_alone), "read": cpu(ours)},
        repeat=runs,
        warmup=1,
    )
    out: dict[str, Any] = {"pages": [p.name for p in paths], "mb": round(mb, 3)}
    for name, seconds in got.items():
        out[f"{name}_mb_s"] = spread([mb / s for s in seconds])
    out["read_over_tree"] = spread(ratios(got["bs4_tree_text"], got["read"]))
    out["read_over_lxml"] = spread(ratios(got["lxml_text"], got["read"]))
    keys = ("bs4_tree_text_mb_s", "lxml_text_mb_s", "read_mb_s", "read_over_tree", "read_over_lxml")
    print(f"{len(paths)} pages, {mb:.2f} MB: {', '.join(out['pages'])}")
    print(table(["measure", "median (range)"], [[k, out[k]] for k in keys]))
    return out


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    label = f"{len(result['pages'])} pages, {result['mb']:.1f} MB"
    return [
        row(
            "HTML",
            f"big pages read to items / bs4 tree + text, MB/s ({label})",
            result["read_over_tree"],
            f"≥ {OVER_TREE}×",
            at_least(result["read_over_tree"], OVER_TREE),
            unit="×",
        ),
        row("HTML", "big pages read to items, MB/s (CPU)", result["read_mb_s"], unit=" MB/s"),
        row(
            "HTML",
            "big pages read to items / lxml.html parse + text",
            result["read_over_lxml"],
            unit="×",
            digits=3,
            note="information: the C parser's floor",
        ),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    run(a.quick, a.runs)
