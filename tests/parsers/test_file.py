"""The file parser: real files in, chunked items with provenance out; archives routed by member."""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from omnireader.errors import (
    EmptyInputError,
    EncryptedError,
    TooLargeError,
    UnsupportedFormatError,
)
from omnireader.formats.extract import extract
from omnireader.formats.sniff import sniff
from omnireader.intake.router import route
from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext, get_parser
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from samples.make_samples import write_text_pdf
from tests.formats.test_archive import make_bomb, make_encrypted_zip, make_zip

PARSER = FileParser()
CTX = ParseContext()
JAPANESE_CSV = "名前,年齢,住所\n佐藤太郎,30,東京\n三木英子,25,大阪\n髙橋淳,35,名古屋\n"


def parse(blob: Blob, ctx: ParseContext = CTX) -> list[MemoryItem]:
    return PARSER.parse_fast(blob, ctx)


def read_path(path: Path, options: ReadOptions | None = None) -> tuple[list[MemoryItem], list]:
    """Route a file like a user would and parse every task; failures are returned, not raised."""
    items, failures = [], []
    ctx = ParseContext(options=options or ReadOptions())
    for task in route(path, ctx.options):
        if task.failure:
            failures.append(task.failure)
        else:
            items.extend(get_parser(task.parser).parse_fast(task.payload, ctx))
    return items, failures


def docx_bytes(title: str, body: str) -> bytes:
    import docx

    doc = docx.Document()
    doc.core_properties.title = title
    doc.core_properties.author = "Ada Lovelace"
    doc.core_properties.created = datetime(2024, 11, 4, 14, 30)
    doc.add_heading(title, 1)
    doc.add_paragraph(body)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_a_latin1_text_file_is_decoded_and_traced_to_its_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes("Rendez-vous au café à 15 h, près de la gare.".encode("latin-1"))
    [item] = parse(Blob(path=str(path)))
    assert item.memory == "Rendez-vous au café à 15 h, près de la gare."
    src = item.source
    assert (src.kind, src.path, src.filename) == ("file", str(path), "notes.txt")
    assert src.mime == "text/plain"
    assert src.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (src.page, src.chunk_index, src.chunk_total, src.char_start) == (None, 0, 1, 0)
    assert item.metadata.memory_type == "LongTermMemory" and item.metadata.tags == ["text"]


def test_markdown_title_becomes_the_key_and_the_text_stays_as_written(tmp_path: Path) -> None:
    path = tmp_path / "plan.md"
    path.write_text("# Launch plan\n\nShip the beta on **May 3**.\n", encoding="utf-8")
    [item] = parse(Blob(path=str(path)))
    assert item.memory.startswith("# Launch plan") and "**May 3**" in item.memory
    assert item.metadata.key == "Launch plan" and item.metadata.topic == "Launch plan"
    assert item.metadata.extra["format"] == "markdown"


def test_a_shift_jis_csv_reads_as_japanese(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_bytes(JAPANESE_CSV.encode("cp932"))
    items, _ = read_path(path)
    text = "\n".join(i.memory for i in items)
    for name in ("名前", "佐藤太郎", "三木英子", "髙橋淳", "名古屋"):
        assert name in text


def test_a_tab_separated_file_is_read_as_a_table(tmp_path: Path) -> None:
    path = tmp_path / "cities.tsv"
    path.write_text("city\tcountry\nLyon\tFrance\n")
    [item] = parse(Blob(path=str(path)))
    assert "| Lyon | France |" in item.memory and item.source.mime == "text/tab-separated-values"


def test_json_is_pretty_printed_so_keys_and_values_are_searchable(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"owner": {"name": "Zoë", "id": "5b64c88c"}, "tags": ["a", "b"]}))
    [item] = parse(Blob(path=str(path)))
    assert '"name": "Zoë"' in item.memory and '"id": "5b64c88c"' in item.memory
    assert "\n" in item.memory  # indented, one key per line


def test_html_items_hold_the_article_not_the_menus(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Beans</title></head><body><nav>Home | Shop</nav>"
        "<main><h1>Growing beans</h1><p>Water beans twice a week.</p></main>"
        "<footer>Contact us</footer></body></html>"
    )
    [item] = parse(Blob(path=str(path)))
    assert "Water beans twice a week." in item.memory
    assert "Home | Shop" not in item.memory and "Contact us" not in item.memory
    assert item.metadata.key == "Beans"


def test_a_docx_keeps_its_title_authors_and_creation_date() -> None:
    data = docx_bytes("Budget 2025", "Travel is capped at 3,000 EUR.")
    [item] = parse(Blob(data=data, filename="b.docx"))
    assert "Travel is capped at 3,000 EUR." in item.memory
    assert item.metadata.persons == ["Ada Lovelace"] and item.metadata.key == "Budget 2025"
    assert item.metadata.timestamp.startswith("2024-11-04T14:30")


def test_a_multi_page_pdf_gives_items_per_page_with_spans_into_the_page(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    lines = [f"Line {n}: the harvest of week {n} was {n * 7} crates of apples." for n in range(40)]
    write_text_pdf(path, [lines[:20], lines[20:]], title="Harvest", author="Ben Ross")
    ctx = ParseContext(options=ReadOptions(chunk_tokens=64))
    items = parse(Blob(path=str(path)), ctx)
    with extract(Blob(path=str(path)), "pdf", ctx.options) as doc:
        pages = {s.page: s.text for s in doc.sections}
    assert {i.source.page for i in items} == {1, 2}
    for item in items:
        src = item.source
        assert pages[src.page][src.char_start : src.char_end] == item.memory
        assert src.chunk_total == sum(1 for i in items if i.source.page == src.page)
    assert items[0].metadata.persons == ["Ben Ross"] and items[0].metadata.extra["page_count"] == 2


def test_long_text_is_chunked_and_every_chunk_points_at_its_span(tmp_path: Path) -> None:
    text = "\n\n".join(
        f"Paragraph {n}. " + " ".join(f"word{n}_{k}" for k in range(30)) for n in range(12)
    )
    path = tmp_path / "long.txt"
    path.write_text(text)
    items = parse(Blob(path=str(path)), ParseContext(options=ReadOptions(chunk_tokens=64)))
    assert len(items) > 3
    assert [i.source.chunk_index for i in items] == list(range(len(items)))
    for item in items:
        assert text[item.source.char_start : item.source.char_end] == item.memory
        assert item.source.chunk_total == len(items)


def test_ids_are_deterministic_and_differ_by_content_and_by_user(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("Alpha beta gamma.")
    first = [i.id for i in parse(Blob(path=str(path)))]
    assert first == [i.id for i in parse(Blob(path=str(path)))]
    assert first == [i.id for i in parse(Blob(data=path.read_bytes(), filename="a.txt"))]
    assert first != [i.id for i in parse(Blob(data=b"Alpha beta delta.", filename="a.txt"))]
    assert first != [i.id for i in parse(Blob(path=str(path)), ParseContext(user_id="u2"))]


def test_the_message_around_a_file_is_kept_as_context_not_mixed_into_its_text() -> None:
    blob = Blob(
        data=b"Flight LH123 departs 09:40.",
        filename="ticket.txt",
        context="here is my ticket for Monday",
        chat_time="2025-03-01T08:00:00",
        message_id="msg-7",
    )
    [item] = parse(blob)
    assert item.memory == "Flight LH123 departs 09:40."
    assert item.metadata.extra["context"] == "here is my ticket for Monday"
    assert item.metadata.timestamp == "2025-03-01T08:00:00"
    assert (item.source.chat_time, item.source.message_id) == ("2025-03-01T08:00:00", "msg-7")


def test_with_ocr_off_a_scanned_page_is_flagged_for_ocr_and_says_why_outside_its_text(
    tmp_path: Path,
) -> None:
    # The page's item carries no sentence about itself: the reading layer reports the page
    # (tests/reading/test_unread_pages.py); fine mode's vision model reads it from the item.
    from PIL import Image

    path = tmp_path / "scan.pdf"
    Image.new("RGB", (200, 300), (250, 250, 250)).save(path, "PDF")
    [item] = parse(Blob(path=str(path)), ParseContext(options=ReadOptions(ocr="off")))
    assert item.metadata.flags == ["needs_ocr"]
    assert item.memory == "" and item.metadata.extra["not_read"] == "ocr_off"
    assert item.source.page == 1


def test_a_file_only_referenced_by_id_becomes_an_unresolved_reference_item() -> None:
    blob = Blob(filename="report.pdf", file_id="file-abc123", context="see attached")
    [item] = parse(blob)
    assert item.memory == (
        "A file was referenced: report.pdf (file_id file-abc123) — its content was not provided."
    )
    assert item.metadata.flags == ["unresolved_reference"]
    assert item.source.file_id == "file-abc123"
    assert item.metadata.extra["context"] == "see attached"
    assert item.id == parse(blob)[0].id


def test_unknown_binary_is_unsupported_and_says_what_is(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(UnsupportedFormatError) as info:
        parse(Blob(path=str(path)))
    assert info.value.input_name == str(path)
    assert "sniffed as application/octet-stream" in str(info.value)
    assert "supported: PDF, DOCX" in str(info.value)


def test_a_document_with_no_text_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text(" \n\n\t ")
    with pytest.raises(EmptyInputError):
        parse(Blob(path=str(path)))


def test_xml_entity_bombs_are_read_without_expansion() -> None:
    lol = "".join(f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    for name, root in (("data.xml", "doc"), ("feed.xml", "rss")):
        data = (
            f'<?xml version="1.0"?><!DOCTYPE {root} [<!ENTITY l0 "lol">{lol}]>'
            f"<{root}><title>Kept title</title><body>&l9;</body></{root}>"
        ).encode()
        [item] = parse(Blob(data=data, filename=name))
        assert "Kept title" in item.memory
        assert "lollol" not in item.memory and "<!ENTITY" not in item.memory


# ------------------------------------------------------------------- archives


def mixed_archive(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.zip"
    path.write_bytes(
        make_zip(
            {
                "report.docx": docx_bytes("Q3 report", "Revenue grew 12 percent."),
                "data/names.csv": JAPANESE_CSV.encode("cp932"),
                "../../etc/x": b"root:x:0:0",
                "inner.zip": make_zip({"note.txt": b"The spare key is under the mat."}),
            }
        )
    )
    return path


def test_a_zip_is_read_member_by_member_and_a_hostile_name_is_reported(tmp_path: Path) -> None:
    path = mixed_archive(tmp_path)
    items, failures = read_path(path)
    by_member = {}
    for item in items:
        assert item.source.path == str(path) and item.source.filename == "bundle.zip"
        by_member.setdefault(item.source.member, []).append(item.memory)
    assert set(by_member) == {"report.docx", "data/names.csv", "inner.zip!note.txt"}
    assert "Revenue grew 12 percent." in "\n".join(by_member["report.docx"])
    assert "髙橋淳" in "\n".join(by_member["data/names.csv"])
    assert by_member["inner.zip!note.txt"] == ["The spare key is under the mat."]
    assert [(f.input, f.error) for f in failures] == [(f"{path}!../../etc/x", "corrupt")]
    assert not (tmp_path.parent / "etc").exists()


def test_items_from_a_member_can_be_rebuilt_from_their_source(tmp_path: Path) -> None:
    items, _ = read_path(mixed_archive(tmp_path))
    nested = next(i for i in items if i.source.member == "inner.zip!note.txt")
    again = parse(PARSER.rebuild_from_source(nested.source))
    assert [(i.id, i.memory) for i in again] == [(nested.id, nested.memory)]


def test_nested_archives_beyond_the_depth_limit_are_reported(tmp_path: Path) -> None:
    items, failures = read_path(mixed_archive(tmp_path), ReadOptions(max_archive_depth=0))
    assert "inner.zip!note.txt" not in {i.source.member for i in items}
    assert ("too_large", True) in {(f.error, f.input.endswith("inner.zip")) for f in failures}


def test_a_zip_bomb_is_too_large_and_names_the_archive(tmp_path: Path) -> None:
    path = tmp_path / "bomb.zip"
    path.write_bytes(make_bomb(200))
    with pytest.raises(TooLargeError) as info:
        route(path, ReadOptions(max_archive_bytes=64 * 1024 * 1024))
    assert info.value.input_name == str(path)


def test_an_archive_with_nothing_readable_fails_as_a_whole(tmp_path: Path) -> None:
    empty = tmp_path / "empty.zip"
    empty.write_bytes(make_zip({"folder/": b"", "__MACOSX/._x": b"junk"}))
    with pytest.raises(EmptyInputError):
        route(empty)
    locked = tmp_path / "locked.zip"
    locked.write_bytes(make_encrypted_zip("secret.txt", b"code 1234", b"pw", {}))
    with pytest.raises(EncryptedError) as info:
        route(locked)
    assert info.value.input_name == str(locked)
    items, _ = read_path(locked, ReadOptions(password="pw"))
    assert [i.memory for i in items] == ["code 1234"]


def test_a_docx_bigger_than_the_sniffing_window_is_still_a_docx(tmp_path: Path) -> None:
    path = tmp_path / "big.docx"
    path.write_bytes(docx_bytes("Big", "Body text of a big document."))
    with zipfile.ZipFile(path, "a", zipfile.ZIP_STORED) as zf:
        zf.writestr("word/media/noise.bin", os.urandom(2 * 1024 * 1024))
    assert sniff(path.read_bytes()[: 1 << 20], "big.docx").kind == "zip"  # what the head says
    [task] = route(path)
    assert task.parser == "file" and task.payload.mime.endswith("wordprocessingml.document")
    assert "Body text of a big document." in parse(task.payload)[0].memory
