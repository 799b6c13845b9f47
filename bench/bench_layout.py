"""PDF page layout (fast mode): speed against PDFium's own text, text kept, headings found,
memory on a 500-page file.

    python bench/bench_layout.py [--quick] [--rounds N]

- **Speed**, as ratios in one run (rounds interleaved): pages/s of ``extract_pdf`` with the
  layout on (words, lines, blocks, tables, headings, furniture, Markdown) against raw
  pypdfium2 ``get_text_range`` on the same pages, and against ``extract_pdf`` with the
  layout off (today's plain text); and layout on with the compiled loops switched off
  (``_loops.c``: what a machine without a C compiler runs). Target: layout on ≥ 0.3× raw.
  Also ms/page of layout on and off. ``--baseline DIR`` (a checkout of another commit, e.g.
  ``git worktree add /tmp/base main``) adds a before/after in the same run: per round, one
  child process per checkout reads the same PDFs with the layout on (timed inside the child,
  so start-up is left out), the two in turn; reported as ms/page each and their ratio
  (``$OMNIREADER_LAYOUT_BASELINE`` names it when the bench runs from ``run_all.py``).
- **Text.** Token F1 of ``crazyones.pdf`` against its ground truth, layout on and off; on
  the financebench PDFs, the share of the layout-off tokens (a multiset) that the layout-on
  sections hold (body, tables, headers and footers; Markdown marks left out).
- **Headings.** On the PDFs with an outline: the share of outline entries that come out as a
  heading block of the document (any page). The outline is one of the heading sources, so
  this measures whether a block's text lines up with its entry, not an unseen-data recall.
- **Memory.** Peak RSS of a child process reading a 500-page PDF (financebench PDFs joined
  with pypdfium2) into items with ``FileParser``, layout on and off. Target: ≤ 300 MB.

Skips what needs ``../shared`` when it is absent. Results: ``bench/out/layout.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._util import at_least, at_most, row, spread

SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
BASELINE_ENV = "OMNIREADER_LAYOUT_BASELINE"  # a checkout to compare ms/page with
FINANCE = SHARED / "bench" / "financebench-dev" / "pdfs"
OUT = HERE / "out"
# A few hundred pages of financial filings, plus the corpus PDFs that open without a password.
SPEED_SET = [
    "AMAZON_2017_10K.pdf",
    "BESTBUY_2024Q2_10Q.pdf",
    "JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf",
    "JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf",
    "COSTCO_2021_10K.pdf",
    "Pfizer_2023Q2_10Q.pdf",
    "NIKE_2019_10K.pdf",
]
QUICK_SET = SPEED_SET[:3]
LONG_PAGES = 500
_MD = re.compile(r"(?m)^#{1,6} |^\|?(?: ?-{3,} ?\|)+$|\|")
_TOKEN = re.compile(r"\w+")


def speed_pdfs(quick: bool) -> list[Path]:
    names = QUICK_SET if quick else SPEED_SET
    out = [FINANCE / n for n in names if (FINANCE / n).exists()]
    import pypdfium2 as pdfium

    for path in sorted(CORPUS.glob("**/*.pdf")):
        try:
            pdfium.PdfDocument(path).close()
        except pdfium.PdfiumError:
            continue  # needs a password
        out.append(path)
    return out


def raw_text(paths: list[Path]) -> int:
    import pypdfium2 as pdfium

    pages = 0
    for path in paths:
        doc = pdfium.PdfDocument(path)
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
            pages += 1
        doc.close()
    return pages


def read_sections(path: Path, layout: bool) -> list[Any]:
    from omnireader.formats.pdf.extract import extract_pdf
    from omnireader.payloads import Blob

    with extract_pdf(Blob(path=str(path)), layout=layout) as doc:
        return list(doc.sections)


def ours(paths: list[Path], layout: bool) -> int:
    return sum(1 for path in paths for s in read_sections(path, layout) if s.part is None)


def tokens(text: str) -> Counter[str]:
    return Counter(t.lower() for t in _TOKEN.findall(_MD.sub(" ", text)))


def f1(got: Counter[str], want: Counter[str]) -> float:
    common = sum((got & want).values())
    if not common:
        return 0.0
    p, r = common / sum(got.values()), common / sum(want.values())
    return 2 * p * r / (p + r)


def python_loops(fn: Callable[[], int]) -> Callable[[], int]:
    """``fn`` run with the compiled layout loops switched off (what a machine without a C
    compiler gets)."""
    from omnireader.formats.layout import pdfium_calls

    def run() -> int:
        compiled, pdfium_calls.loops = pdfium_calls.loops, None
        try:
            return fn()
        finally:
            pdfium_calls.loops = compiled

    return run


def measure_speed(paths: list[Path], rounds: int) -> dict[str, Any]:
    from omnireader.formats.layout import pdfium_calls

    pages = raw_text(paths)  # warm the page cache and count
    variants: dict[str, Callable[[], int]] = {
        "raw": lambda: raw_text(paths),
        "on": lambda: ours(paths, True),
        "off": lambda: ours(paths, False),
    }
    if pdfium_calls.loops is not None:
        variants["on_python"] = python_loops(variants["on"])
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    pps = {k: [pages / t for t in v] for k, v in times.items()}
    out = {
        "pages": pages,
        "ms_per_page": {k: spread([1000 * t / pages for t in v]) for k, v in times.items()},
        "pdfs": len(paths),
        "compiled_loops": pdfium_calls.loops is not None,
        "pages_per_s": {k: spread(v) for k, v in pps.items()},
        "on_vs_raw": spread([a / b for a, b in zip(pps["on"], pps["raw"])]),
        "on_vs_off": spread([a / b for a, b in zip(pps["on"], pps["off"])]),
    }
    if "on_python" in pps:
        out["on_python_vs_raw"] = spread([a / b for a, b in zip(pps["on_python"], pps["raw"])])
    return out


_COST_CHILD = """
import sys, time
sys.path.insert(0, {root!r})
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
start, pages = time.process_time(), 0
for path in {paths!r}:
    with extract_pdf(Blob(path=path), layout=True) as doc:
        pages += sum(1 for s in doc.sections if s.part is None)
print(pages, time.process_time() - start)
"""


def _child_cost(root: Path, paths: list[Path]) -> tuple[int, float]:
    """(pages, CPU seconds) of layout-on reading ``paths`` with ``root``'s omnireader."""
    code = _COST_CHILD.format(root=str(root), paths=[str(p) for p in paths])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True
    )
    pages, cpu = done.stdout.split()[-2:]
    return int(pages), float(cpu)


def measure_cost(paths: list[Path], rounds: int, baseline: Path) -> dict[str, Any]:
    """ms/page (CPU) of the layout, this checkout against ``baseline``, rounds in turn."""
    ms: dict[str, list[float]] = {"baseline": [], "this": []}
    pages = 0
    for _ in range(rounds):
        for name, root in (("baseline", baseline), ("this", ROOT)):
            pages, cpu = _child_cost(root, paths)
            ms[name].append(1000 * cpu / pages)
    return {
        "baseline": str(baseline),
        "pages": pages,
        "ms_per_page": {k: spread(v) for k, v in ms.items()},
        "this_vs_baseline": spread([a / b for a, b in zip(ms["this"], ms["baseline"])]),
    }


def measure_text(paths: list[Path]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    crazy = CORPUS / "pypdf" / "crazyones.pdf"
    if crazy.exists():
        want = tokens((CORPUS / "pypdf" / "crazyones.txt").read_text(encoding="utf-8"))
        for layout in (True, False):
            got = tokens("\n".join(s.text for s in read_sections(crazy, layout)))
            out[f"crazyones_f1_{'on' if layout else 'off'}"] = round(f1(got, want), 4)
    kept, total, missing = 0, 0, Counter()
    for path in paths:
        if path.parent != FINANCE:
            continue
        off = tokens("\n".join(s.text for s in read_sections(path, False)))
        on = tokens("\n".join(s.text for s in read_sections(path, True)))
        kept += sum((off & on).values())
        total += sum(off.values())
        missing += off - on
    if total:
        out["finance_tokens_kept"] = round(kept / total, 4)
        out["finance_tokens"] = total
        out["finance_most_missing"] = missing.most_common(12)
    return out


def sections_without_outline(path: Path) -> list[Any]:
    """The layout-on sections of ``path`` with its outline withheld from the layout: the
    headings then come from size, weight and numbering alone."""
    import pypdfium2 as pdfium

    from omnireader.formats.layout.stream import LayoutStream
    from omnireader.formats.pdf.page import read_page

    doc = pdfium.PdfDocument(path)
    stream = LayoutStream(None)
    out: list[Any] = []
    try:
        for index in range(len(doc)):
            for section in read_page(doc, index, "off", [], stream):
                out.extend(stream.feed(section))
        out.extend(stream.flush())
    finally:
        doc.close()
    return out


def _heading_keys(sections: list[Any]) -> set[str]:
    from omnireader.formats.layout.headings import normalize

    return {
        normalize(line.lstrip("#"))
        for s in sections
        for line in s.text.splitlines()
        if line.startswith("#")
    }


def measure_headings() -> dict[str, Any]:
    import pypdfium2 as pdfium

    from omnireader.formats.layout.stream import read_outline

    found = loose = no_outline = entries = files = 0
    candidates = [p for p in sorted(FINANCE.glob("*.pdf"))] + sorted(CORPUS.glob("**/*.pdf"))
    per_file: dict[str, float] = {}
    for path in candidates:
        try:
            doc = pdfium.PdfDocument(path)
        except pdfium.PdfiumError:
            continue
        outline = read_outline(doc)
        doc.close()
        if not outline.anywhere:
            continue
        files += 1
        headings = _heading_keys(read_sections(path, True))
        blind = _heading_keys(sections_without_outline(path))
        no_outline += sum(1 for key in outline.anywhere if key in blind)
        hit = sum(1 for key in outline.anywhere if key in headings)
        # Also counted: the printed heading starts with the entry or the entry with it
        # ("Note 4 – Receivables, net" for a longer printed title).
        loose += sum(
            1
            for key in outline.anywhere
            if key in headings
            or any(
                len(key) >= 8 and (h.startswith(key) or (len(h) >= 8 and key.startswith(h)))
                for h in headings
            )
        )
        found += hit
        entries += len(outline.anywhere)
        per_file[path.name] = round(hit / len(outline.anywhere), 3)
    return {
        "files": files,
        "entries": entries,
        "recall": round(found / entries, 4) if entries else None,
        "recall_prefix": round(loose / entries, 4) if entries else None,
        "recall_without_outline": round(no_outline / entries, 4) if entries else None,
        "per_file": per_file,
    }


def long_pdf(pages: int = LONG_PAGES) -> Path | None:
    path = OUT / f"layout_long_{pages}.pdf"
    if path.exists():
        return path
    import pypdfium2 as pdfium

    sources = sorted(FINANCE.glob("*.pdf"))
    if not sources:
        return None
    out = pdfium.PdfDocument.new()
    for source in sources:
        src = pdfium.PdfDocument(source)
        take = min(len(src), pages - len(out))
        out.import_pages(src, list(range(take)))
        src.close()
        if len(out) >= pages:
            break
    OUT.mkdir(parents=True, exist_ok=True)
    out.save(path)
    out.close()
    return path


_CHILD = """
import resource, sys
sys.path.insert(0, {root!r})
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
items = FileParser().parse_fast(Blob(path={path!r}), ParseContext(options=ReadOptions(layout={layout}, ocr="off")))
print(len(items), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def measure_memory() -> dict[str, Any]:
    path = long_pdf()
    if path is None:
        return {}
    out: dict[str, Any] = {"pages": LONG_PAGES}
    for layout in (True, False):
        code = _CHILD.format(root=str(ROOT), path=str(path), layout=layout)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
        )
        items, rss = done.stdout.split()
        key = "on" if layout else "off"
        out[f"peak_rss_mb_{key}"] = round(float(rss), 1)
        out[f"items_{key}"] = int(items)
        out[f"seconds_{key}"] = round(time.perf_counter() - start, 2)
    return out


PARTS = ("speed", "text", "headings", "memory")


def run(
    quick: bool = False,
    rounds: int | None = None,
    parts: tuple[str, ...] = PARTS,
    baseline: Path | None = None,
) -> dict[str, Any]:
    if not CORPUS.exists():
        print("../shared is absent: nothing to measure")
        return {}
    paths = speed_pdfs(quick)
    if baseline is None and os.environ.get(BASELINE_ENV):  # run_all.py passes no arguments
        baseline = Path(os.environ[BASELINE_ENV])
    result: dict[str, Any] = {}
    if "speed" in parts:
        result["speed"] = measure_speed(paths, rounds or (1 if quick else 3))
        if baseline is not None:
            result["cost"] = measure_cost(paths, rounds or (1 if quick else 3), baseline)
    if "text" in parts:
        result["text"] = measure_text(paths)
    if "headings" in parts and not quick:
        result["headings"] = measure_headings()
    if "memory" in parts and not quick:
        result["memory"] = measure_memory()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "layout.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return result


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    if not result:
        return []
    t = "PDF layout"
    out = []
    speed = result.get("speed")
    if speed:
        out.append(
            row(
                t,
                f"layout on / raw pypdfium2 get_text_range, pages/s ({speed['pages']} pages)",
                speed["on_vs_raw"],
                "≥ 0.3×",
                at_least(speed["on_vs_raw"], 0.3),
                unit="×",
                note=(
                    "compiled loops (setup.py builds them where a C compiler is)"
                    if speed.get("compiled_loops")
                    else "Python loops: the compiled ones were not built"
                ),
            )
        )
    if speed and "ms_per_page" in speed:
        ms = speed["ms_per_page"]
        out.append(
            row(
                t,
                f"layout on, ms/page (wall clock; off: {ms['off']['median']:.1f} ms, "
                f"raw: {ms['raw']['median']:.1f} ms)",
                ms["on"],
                "",
                None,
                unit=" ms",
                digits=1,
                note="for a before/after, --baseline DIR (same run, CPU time)",
            )
        )
    cost = result.get("cost")
    if cost:
        ms = cost["ms_per_page"]
        out.append(
            row(
                t,
                f"layout on, CPU ms/page, this / baseline ({ms['this']['median']:.1f} / "
                f"{ms['baseline']['median']:.1f} ms, {cost['pages']} pages)",
                cost["this_vs_baseline"],
                "≤ 1.05×",
                at_most(cost["this_vs_baseline"], 1.05),
                unit="×",
            )
        )
    if speed and "on_python_vs_raw" in speed:
        out.append(
            row(
                t,
                "the same, Python loops (a machine without a C compiler)",
                speed["on_python_vs_raw"],
                "≥ 0.3×",
                at_least(speed["on_python_vs_raw"], 0.3),
                unit="×",
                note="the compiled loops switched off in the same run",
            )
        )
    text = result.get("text") or {}
    if "crazyones_f1_on" in text:
        out.append(
            row(
                t,
                f"crazyones token F1, layout on (off: {text['crazyones_f1_off']})",
                text["crazyones_f1_on"],
                f"≥ {text['crazyones_f1_off']}",
                text["crazyones_f1_on"] >= text["crazyones_f1_off"],
            )
        )
    if "finance_tokens_kept" in text:
        out.append(
            row(
                t,
                "financebench layout-off tokens found with layout on",
                text["finance_tokens_kept"],
                "≥ 0.99",
                text["finance_tokens_kept"] >= 0.99,
            )
        )
    headings = result.get("headings") or {}
    if headings.get("recall") is not None:
        out.append(
            row(
                t,
                f"outline entries found as headings ({headings['entries']} entries, "
                f"{headings['files']} PDFs; prefix match {headings['recall_prefix']}; "
                f"outline withheld {headings['recall_without_outline']})",
                headings["recall"],
                "≥ 0.8",
                headings["recall"] >= 0.8,
            )
        )
    memory = result.get("memory") or {}
    if memory:
        out.append(
            row(
                t,
                f"peak RSS, {memory['pages']}-page PDF into items, layout on",
                memory["peak_rss_mb_on"],
                "≤ 300 MB",
                at_most(memory["peak_rss_mb_on"], 300),
                unit=" MB",
            )
        )
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="three PDFs, one round, speed and text")
    ap.add_argument("--rounds", type=int, help="interleaved rounds")
    ap.add_argument("--only", nargs="+", choices=PARTS, help="measure only these parts")
    ap.add_argument(
        "--baseline", type=Path, help="a checkout to compare the layout's ms/page with (same run)"
    )
    a = ap.parse_args()
    run(a.quick, a.rounds, tuple(a.only or PARTS), a.baseline)
