"""PDFs read from several threads at once read as they do one at a time, and OCR does not
keep the other threads out of PDFium while it reads.

PDFium is not thread-safe: without ``formats/pdf/pdfium_lock.py`` two threads reading PDFs
got empty pages, ``CorruptError`` on sound files, or crashed the process. Threads are how
the HTTP service and the MCP tools read, so this is the service's concurrency, in small.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.formats.pdf.pdfium_lock import PDFIUM
from omnireader.payloads import Blob
from tests.formats.pdf_builders import text_pdf

ROUNDS = 3


def _pdfs() -> list[bytes]:
    """Eight documents of 12 pages of numbered lines, each its own text."""
    return [
        text_pdf(
            [
                [
                    f"Document {d} page {p} line {n}: invoice total {d * p * n} EUR"
                    for n in range(30)
                ]
                for p in range(12)
            ],
            size=9,
        )
        for d in range(8)
    ]


def _digest(pdf: bytes, layout: bool) -> str:
    try:
        with extract_pdf(Blob(data=pdf, filename="doc.pdf"), layout=layout) as got:
            return hashlib.sha256("\f".join(s.text for s in got.sections).encode()).hexdigest()
    except Exception as exc:  # noqa: BLE001 - a failure is a result to compare too
        return f"{type(exc).__name__}: {exc}"


def _differences(read: Callable[[int], object], alone: list[object]) -> list[tuple[int, object]]:
    """Every input read ROUNDS times by each of two threads at once (one forward, one
    backward): the reads that differ from ``alone`` (one thread's reads)."""
    differ: list[tuple[int, object]] = []

    def read_all(order: list[int]) -> None:
        for _ in range(ROUNDS):
            for i in order:
                if (got := read(i)) != alone[i]:
                    differ.append((i, got))

    forward = list(range(len(alone)))
    threads = [threading.Thread(target=read_all, args=(o,)) for o in (forward, forward[::-1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return differ


@pytest.mark.parametrize("layout", [False, True], ids=["plain", "layout"])
def test_threads_read_every_page_as_one_thread_does(layout: bool) -> None:
    pdfs = _pdfs()
    alone: list[object] = [_digest(pdf, layout) for pdf in pdfs]
    assert all(len(str(d)) == 64 for d in alone), alone  # each reads, alone
    assert _differences(lambda i: _digest(pdfs[i], layout), alone) == []


class _Watching:
    """The real OCR engine, noting at each page it reads whether another thread could take
    PDFium's lock meanwhile."""

    def __init__(self, real: Any) -> None:
        self.real, self.name, self.free = real, real.name, []

    def detect(self, image: Any) -> Any:
        got: list[bool] = []

        def take() -> None:
            got.append(PDFIUM.acquire(blocking=False))
            if got[0]:
                PDFIUM.release()

        other = threading.Thread(target=take)
        other.start()
        other.join()
        self.free.append(got[0])
        return self.real.detect(image)

    def __getattr__(self, name: str) -> Any:  # crop, classify, recognize: the real engine's
        return getattr(self.real, name)


def test_ocr_reads_a_scanned_page_while_other_threads_use_pdfium(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omnireader.formats.ocr import engines as ocr_engines
    from omnireader.formats.ocr import get_engine
    from tests.support import ocr_pages as pages

    watching = _Watching(get_engine())
    monkeypatch.setitem(ocr_engines._ENGINES, "rapidocr", watching)
    page = pages.text_page(dpi=100, sentences=3, size_in=(6.0, 3.0))
    scan = pages.write_pdf([page.image], tmp_path / "scan.pdf", dpi=100)
    with extract_pdf(Blob(path=str(scan)), ocr="auto") as got:
        text = "\n".join(s.text for s in got.sections)
    said = set(pages.words(page.text))
    assert len(said & set(pages.words(text))) > 0.8 * len(said)  # it was read by OCR
    assert watching.free == [True]  # and PDFium was free while it was


def test_one_reader_shared_by_threads_gives_each_pdf_its_own_items() -> None:
    """The public path an upload handler takes: one ``Reader``, several threads."""
    from omnireader import Reader

    reader = Reader(layout=False)  # the plain text layer: the most time inside PDFium
    pdfs = _pdfs()[:4]

    def items_of(pdf: bytes) -> list[tuple[str, str]]:
        return [(i.id, i.memory) for i in reader.read(Blob(data=pdf, filename="doc.pdf"))]

    alone: list[object] = [items_of(pdf) for pdf in pdfs]
    assert all(alone)
    assert _differences(lambda i: items_of(pdfs[i]), alone) == []
