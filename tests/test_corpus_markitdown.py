"""MarkItDown's own test files, read end to end: route, parse fast, find what must be found.

For each file in ../shared/corpus/markitdown/expected.json: every ``must_find`` fragment is in
the items' text (lowercased, whitespace collapsed), no ``must_not_find`` fragment is, and
the files with an ``expect`` note get the result the note asks for.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from omnireader.errors import UnsupportedFormatError
from omnireader.intake.router import route
from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext, get_parser
from omnireader.reading.outcomes import read_fast

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT.parent / "shared" / "corpus" / "markitdown" / "expected.json"
FILES: dict[str, dict] = json.loads(EXPECTED.read_text())["files"] if EXPECTED.is_file() else {}
MEDIA = {".jpg": "image", ".wav": "audio", ".mp3": "audio", ".m4a": "audio"}


def norm(text: str) -> str:
    return " ".join(text.lower().split())


# OCR is read by its own tests below (a page of the scan, the small picture of text); the
# whole-folder tests read with OCR off, or the scan's three pages and the paper screenshot
# would cost the suite most of a minute of engine time for nothing they check.
NO_OCR = ParseContext(options=ReadOptions(ocr="off"))
# The scan, with OCR off: no item, a report naming its pages and what to do.
SCAN = "MEDRPT-2024-PAT-3847_medical_report_scan.pdf"

# Text the scans and pictures now give in fast mode (OCR), asserted here rather than in the
# shared expected.json (it belongs to this project's tests, not to the shared corpus).
OCR_MUST_FIND = {
    "MEDRPT-2024-PAT-3847_medical_report_scan.pdf": [
        "SEATTLE GENERAL HOSPITAL",
        "COMPREHENSIVE MEDICAL REPORT",
        "MEDRPT-2024-PAT-3847",
        "Jonathan Michael Harrison",
        "March 15, 1978",
        "142/88 mmHg",
        "persistent headaches",
        "Lisinopril 10mg",
    ],
    "test_llm.jpg": ["5bda1dd6", "primary color of the square"],
}


def read(path: Path, ctx: ParseContext = NO_OCR) -> list[MemoryItem]:
    items: list[MemoryItem] = []
    for task in route(path):
        assert task.failure is None, task.failure
        items.extend(get_parser(task.parser).parse_fast(task.payload, ctx))
    return items


@pytest.fixture(scope="module")
def folder(corpus: Path) -> Path:
    return corpus / "markitdown"


@pytest.mark.parametrize("name", sorted(n for n in FILES if n != "random.bin") or ["-"])
def test_every_fragment_that_must_be_found_is_found(folder: Path, name: str) -> None:
    if name == "-":  # ../shared is there but holds no expected.json
        pytest.skip(f"{EXPECTED} is not present")
    spec = FILES[name]
    kind = MEDIA.get(Path(name).suffix)
    if kind is not None:
        get_parser(kind)  # a missing image / audio parser fails here, naming the kind
    if name == SCAN:
        return  # test_with_ocr_off_a_scanned_pdf_is_reported_page_by_page
    items = read(folder / name)
    assert items, f"{name}: no items"
    assert all(i.memory.strip() for i in items), f"{name}: an empty item"
    text = norm("\n".join(i.memory for i in items))
    missing = [f for f in spec["must_find"] if norm(f) not in text]
    present = [f for f in spec.get("must_not_find", []) if norm(f) in text]
    assert not missing and not present, (missing, present)


def test_with_ocr_off_a_scanned_pdf_is_reported_page_by_page(folder: Path) -> None:
    # expected.json: "fast mode must say so ..., never return silent empty text". It says
    # so in the read's report, not in a stored sentence.
    out = read_fast(folder / SCAN, NO_OCR)
    assert out.items == []
    [failure] = out.failures
    assert failure.error == "needs_ocr" and failure.pages == [1, 2, 3]
    assert f"{SCAN}: pages 1, 2, 3 have no text layer and OCR was off" in failure.message
    assert "--ocr auto" in failure.message


@pytest.mark.parametrize("name", sorted(OCR_MUST_FIND))
def test_scans_and_pictures_of_text_give_their_text_in_fast_mode(
    folder: Path, name: str, tmp_path: Path
) -> None:
    path = folder / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the corpus")
    if path.suffix == ".pdf":  # the first page holds every fragment: one page of engine time
        import pypdfium2 as pdfium

        whole, first = pdfium.PdfDocument(path), pdfium.PdfDocument.new()
        first.import_pages(whole, [0])
        path = tmp_path / name
        first.save(path)
        first.close()
        whole.close()
    items = read(path, ParseContext())
    ocr = [i for i in items if "ocr" in i.metadata.flags]
    assert ocr and all(i.metadata.extra["ocr_engine"].startswith("rapidocr") for i in ocr)
    text = norm("\n".join(i.memory for i in ocr))
    missing = [f for f in OCR_MUST_FIND[name] if norm(f) not in text]
    assert not missing, missing


def test_pdfs_say_which_page_each_item_came_from(folder: Path) -> None:
    for name, spec in FILES.items():
        if spec.get("pages"):
            assert all(i.source.page for i in read(folder / name)), name


def test_random_bytes_are_unsupported(folder: Path) -> None:
    [task] = route(folder / "random.bin")
    with pytest.raises(UnsupportedFormatError) as info:
        get_parser(task.parser).parse_fast(task.payload, ParseContext())
    assert info.value.code == "unsupported" and "random.bin" in info.value.input_name


def test_every_archive_member_is_read_and_named(folder: Path) -> None:
    with zipfile.ZipFile(folder / "test_files.zip") as zf:
        names = set(zf.namelist())
    items = read(folder / "test_files.zip")
    assert {i.source.member for i in items} == names
    assert all(i.source.path == str(folder / "test_files.zip") for i in items)


def test_slides_and_sheets_are_their_own_sections(folder: Path) -> None:
    slides = read(folder / "test.pptx")
    assert [i.source.page for i in slides] == sorted(i.source.page for i in slides)
    assert len({i.source.page for i in slides}) > 1
    sheets = read(folder / "test.xlsx")
    assert {i.metadata.extra.get("heading") for i in sheets} >= {"Sheet1"}
    assert len({i.source.page for i in sheets}) == 2
