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
from omnireader.models import MemoryItem
from omnireader.parsers.base import ParseContext, get_parser
from omnireader.router import route

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT.parent / "shared" / "corpus" / "markitdown" / "expected.json"
FILES: dict[str, dict] = json.loads(EXPECTED.read_text())["files"] if EXPECTED.is_file() else {}
MEDIA = {".jpg": "image", ".wav": "audio", ".mp3": "audio", ".m4a": "audio"}


def norm(text: str) -> str:
    return " ".join(text.lower().split())


def read(path: Path) -> list[MemoryItem]:
    items: list[MemoryItem] = []
    for task in route(path):
        assert task.failure is None, task.failure
        items.extend(get_parser(task.parser).parse_fast(task.payload, ParseContext()))
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
    items = read(folder / name)
    assert items, f"{name}: no items"
    assert all(i.memory.strip() for i in items), f"{name}: an empty item"
    text = norm("\n".join(i.memory for i in items))
    missing = [f for f in spec["must_find"] if norm(f) not in text]
    present = [f for f in spec.get("must_not_find", []) if norm(f) in text]
    assert not missing and not present, (missing, present)


def test_a_scanned_pdf_is_flagged_as_needing_ocr_page_by_page(folder: Path) -> None:
    items = read(folder / "MEDRPT-2024-PAT-3847_medical_report_scan.pdf")
    assert items and all("needs_ocr" in i.metadata.flags for i in items)
    assert [i.source.page for i in items] == list(range(1, len(items) + 1))


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
