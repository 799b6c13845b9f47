"""Pages nothing could read (no text layer, OCR off or finding nothing) are reported with the
file's name, its pages and what to do, and never stored as a sentence saying so
(omnireader.reading.unread_pages). Real PDFs made here, read by the real Reader and ingested
into a real LanceDB store."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.errors import NeedsOcrError
from omnireader.options import ReadOptions
from tests.formats.pdf_builders import text_pdf

OCR_OFF = ReadOptions(ocr="off")
# What the placeholder items used to say; no stored memory may say it now.
STATUS_WORDS = ("no text layer", "needs OCR", "vision model")


def _scan(path: Path, pages: int) -> Path:
    """A PDF of pictures only, as a scanner makes them."""
    images = [Image.new("RGB", (400, 560), "white") for _ in range(pages)]
    for n, img in enumerate(images):
        ImageDraw.Draw(img).text((20, 20), f"Scanned page {n + 1}", fill="black")
    images[0].save(path, "PDF", save_all=True, append_images=images[1:])
    return path


def _text_then_scan(path: Path) -> Path:
    """Page 1 typed (a text layer), page 2 a scanned picture."""
    typed = pdfium.PdfDocument(text_pdf([["Minutes of the board meeting, 3 March."]]))
    scanned = pdfium.PdfDocument(_scan(path.with_suffix(".scan.pdf"), 1))
    typed.import_pages(scanned)
    buf = io.BytesIO()
    typed.save(buf)
    path.write_bytes(buf.getvalue())
    path.with_suffix(".scan.pdf").unlink()
    return path


def test_a_scan_read_with_ocr_off_gives_no_item_and_says_which_pages_and_what_to_do(
    tmp_path: Path,
) -> None:
    scan = _scan(tmp_path / "contract.pdf", 2)
    result = Reader(options=OCR_OFF).read_report(scan)
    assert result.items == []
    [failure] = result.failures
    assert failure.error == "needs_ocr" and failure.pages == [1, 2]
    assert failure.message == (
        f"{scan}: pages 1, 2 have no text layer and OCR was off: read it with OCR on "
        '(--ocr auto; ReadOptions(ocr="auto")), or in fine mode, where a vision model reads them'
    )
    with pytest.raises(NeedsOcrError, match="contract.pdf: pages 1, 2 have no text layer"):
        Reader(options=OCR_OFF).read(scan)


def test_a_typed_page_is_kept_and_its_scanned_page_is_reported(tmp_path: Path) -> None:
    pdf = _text_then_scan(tmp_path / "minutes.pdf")
    result = Reader(options=OCR_OFF).read_report(pdf)
    assert [i.memory for i in result.items] == ["Minutes of the board meeting, 3 March."]
    [failure] = result.failures
    assert failure.pages == [2] and "minutes.pdf: page 2 has no text layer" in failure.message
    assert result.lost == []  # a part not read: the rest of the file is


def test_a_page_ocr_finds_no_text_on_is_reported_for_a_vision_model(tmp_path: Path) -> None:
    photo = Image.new("L", (400, 300), 255)
    ImageDraw.Draw(photo).rectangle((40, 40, 360, 260), fill=30)
    path = tmp_path / "photo.pdf"
    photo.save(path, "PDF", resolution=100.0)
    [failure] = Reader().read_report(path).failures  # OCR on (auto): it ran, found nothing
    assert failure.message.endswith(
        "page 1 has no text layer and OCR found no text on it: a vision model may describe "
        "it (fine mode)"
    )


def test_an_ingest_stores_no_placeholder_and_counts_the_pages(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _scan(folder / "contract.pdf", 2)
    _text_then_scan(folder / "minutes.pdf")
    store = Store.open(tmp_path / "docs.lance")
    report = ingest(folder, store, reader=Reader(options=OCR_OFF), options=IngestOptions(workers=1))
    stored = list(store.iter_items())
    assert [i.memory for i in stored] == ["Minutes of the board meeting, 3 March."]
    assert not any(w in i.memory for i in stored for w in STATUS_WORDS)
    assert (report.files_read, report.files_failed, report.files_partial) == (1, 1, 1)
    assert report.failed_by_error == {"needs_ocr": 1}
    assert report.parts_failed_by_error == {"needs_ocr": 1}
    assert report.pages_unreadable == 3
    assert "3 pages unreadable" in report.summary()
    assert {Path(f.input).name: f.pages for f in report.failures} == {
        "contract.pdf": [1, 2],
        "minutes.pdf": [2],
    }


def test_a_scan_s_caption_is_kept_as_its_text_and_the_page_is_still_reported(
    corpus: Path,
) -> None:
    # pypdf's jpeg.pdf: a photo and one typed line under it.
    pdf = corpus / "pypdf" / "jpeg.pdf"
    result = Reader(options=OCR_OFF).read_report(pdf)
    [item] = result.items
    assert item.memory == "A PDF with a JPEG image." and item.metadata.flags == ["needs_ocr"]
    [failure] = result.failures
    assert failure.pages == [1] and failure.message.startswith(
        f"{pdf}: page 1 has no text layer but a caption or stamp (kept) and OCR was off: "
    )
