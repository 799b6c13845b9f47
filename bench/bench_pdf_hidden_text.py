"""PDF hidden-text and OCR-layer checks, as a share of the text extraction they follow.

    python bench/bench_pdf_hidden_text.py [--quick]

Per page, every round times (CPU seconds, interleaved): PDFium's bounded text extraction
and cleaning (the baseline ``formats/pdf/page.py`` already pays), then
``hidden_text.visible_page_text`` on that text (the sampled render-mode / clip probe, and
on pages whose sample finds hidden text the rest), and on OCR-layer pages
``text_quality.is_bad_ocr_layer`` alone. Pages: the shared corpora's PDFs (``pypdf``,
``markitdown``); the OCR-layer pages are the scanned Vicksburg sample's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import ROOT, interleaved, ratios, row, spread

CORPORA = [ROOT.parent / "shared" / "corpus" / name for name in ("pypdf", "markitdown")]


def _cpu(fn: Any, times: int) -> Any:
    def measure() -> float:
        started = time.process_time()
        for _ in range(times):
            fn()
        return time.process_time() - started

    return measure


def run(quick: bool = False) -> dict:
    import pypdfium2 as pdfium

    from omnireader.formats.pdf.hidden_text import visible_page_text
    from omnireader.formats.pdf.page import clean_pdf_text
    from omnireader.formats.pdf.text_quality import is_bad_ocr_layer

    pages, ocr_pages = [], []
    for corpus in CORPORA:
        for path in sorted(corpus.glob("*.pdf")) if corpus.is_dir() else []:
            try:
                doc = pdfium.PdfDocument(str(path))
            except pdfium.PdfiumError:
                continue  # encrypted samples
            for i in range(len(doc)):
                page = doc[i]
                textpage = page.get_textpage()
                text = clean_pdf_text(textpage.get_text_bounded())
                pages.append((page, textpage, text))
                if "OCR" in path.name:
                    ocr_pages.append((page, text))
    if not pages:
        return {"skipped": "no shared corpus"}

    def extract() -> None:
        for page, _, _ in pages:
            tp = page.get_textpage()
            clean_pdf_text(tp.get_text_bounded())
            tp.close()

    def check() -> None:
        for page, tp, text in pages:
            visible_page_text(page, tp, text)

    def ocr_check() -> None:
        for _, text in ocr_pages:
            is_bad_ocr_layer(text)

    def ocr_extract() -> None:
        for page, _ in ocr_pages:
            tp = page.get_textpage()
            clean_pdf_text(tp.get_text_bounded())
            tp.close()

    times = 3 if quick else 10
    runs = interleaved(
        {
            "extract": _cpu(extract, times),
            "check": _cpu(check, times),
            "ocr": _cpu(ocr_check, times),
            "ocr_extract": _cpu(ocr_extract, times),
        },
        repeat=3 if quick else 7,
        warmup=1,
    )
    out: dict[str, Any] = {
        "pages": len(pages),
        "ocr_pages": len(ocr_pages),
        "check_share": spread(ratios(runs["check"], runs["extract"])),
        "extract_ms_per_page": spread([t / times / len(pages) * 1e3 for t in runs["extract"]]),
    }
    if ocr_pages:
        out["ocr_check_share"] = spread(ratios(runs["ocr"], runs["ocr_extract"]))
    return out


def rows(result: dict) -> list[dict]:
    if "skipped" in result:
        return []
    out = [
        row(
            "PDF",
            "hidden-text check / text extraction",
            result["check_share"],
            note=f"{result['pages']} pages of the shared corpora, CPU time",
        )
    ]
    if "ocr_check_share" in result:
        out.append(
            row(
                "PDF",
                "OCR-layer check / text extraction",
                result["ocr_check_share"],
                note=f"{result['ocr_pages']} OCR-layer pages, against their own extraction",
            )
        )
    return out


if __name__ == "__main__":
    import json

    print(
        json.dumps(
            {
                k: (v["median"] if isinstance(v, dict) and "median" in v else v)
                for k, v in run("--quick" in sys.argv).items()
            },
            indent=1,
        )
    )
