"""Sniffing: content decides what a file is; the name only breaks ties between text formats."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from omnireader.formats.sniff import sniff

REALWORLD = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "realworld"


def test_rtf_is_told_before_json() -> None:
    assert sniff(b"{\\rtf1\\ansi\\deff0 {\\fonttbl}} Hello}", "x.json").kind == "rtf"
    assert sniff(b'{"a": 1}', "x.txt").kind == "json"


def test_a_message_is_told_by_its_headers_whatever_its_name() -> None:
    mail = b"MIME-Version: 1.0\nFrom: a@example.org\nSubject: Hi\n\nBody\n"
    assert sniff(mail, "msg_10.txt").kind == "eml"
    assert sniff(mail, None).kind == "eml"
    assert sniff(b"From: Ann\nTo: Bo\n\nShort note.", "note").kind == "eml"
    # Front matter or a "Title:" line is not mail.
    assert sniff(b"Title: Trip\nDate: 2024-05-01\n\nWe went.", "post.txt").kind == "text"
    assert sniff(b"Subject: notes\nMore prose here.\n", "n.txt").kind == "text"


def test_a_mailbox_is_told_by_its_from_line() -> None:
    box = b"From MAILER-DAEMON Thu Sep 18 17:54:04 2008\nReceived: from x\nFrom: a@b\n\nhi\n"
    assert sniff(box, "mbox-0").kind == "mbox"
    assert sniff(b"From here on, the plan is simple.\nWe go.\n", "plan.txt").kind == "text"


def zip_with(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize(
    "mimetype, kind",
    [
        ("application/vnd.oasis.opendocument.text", "odt"),
        ("application/vnd.oasis.opendocument.spreadsheet", "ods"),
        ("application/vnd.oasis.opendocument.presentation", "odp"),
        ("application/epub+zip", "epub"),
    ],
)
def test_opendocument_is_told_by_its_mimetype_member_not_as_a_zip(mimetype: str, kind: str) -> None:
    data = zip_with({"mimetype": mimetype.encode(), "content.xml": b"<x/>"})
    assert sniff(data, "file.zip").kind == kind


def test_a_zip_storing_a_pdf_uncompressed_is_a_zip() -> None:
    assert sniff(zip_with({"a.pdf": b"%PDF-1.7\n..."}), "a.zip").kind == "zip"
    assert sniff(b"junk before\n%PDF-1.4\n", "x").kind == "pdf"


@pytest.mark.parametrize(
    "name, kind",
    [
        ("testWORD.doc", "doc"),
        ("testPPT.ppt", "ppt"),
        ("testMSG.msg", "msg"),
        ("example_password.docx", "office-encrypted"),
        ("testMSG_att_doc.msg", "msg"),
    ],
)
def test_ole_files_are_told_by_their_streams_not_their_names(name: str, kind: str) -> None:
    path = REALWORLD / name
    if not path.is_file():
        pytest.skip("../shared/corpus/realworld is not present")
    assert sniff(path.read_bytes(), "renamed.bin").kind == kind


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_unicode_without_a_bom_is_text_and_sniffed_as_what_it_holds(encoding: str) -> None:
    assert sniff("Plain words, ünïcödé.\nSecond line.\n".encode(encoding), "a.txt").kind == "text"
    xml = '<?xml version="1.0" encoding="UTF-16"?><notes><n>Café</n></notes>'
    assert sniff(xml.encode(encoding), "data").kind == "xml"
    mail = "From: a@example.org\nTo: b@example.org\nSubject: Hi\n\nBody\n"
    assert sniff(mail.encode(encoding), "mail").kind == "eml"


def test_binary_with_nuls_is_still_binary_and_a_stray_nul_is_not() -> None:
    assert sniff(bytes(range(256)) * 8, "x").kind == "unknown"
    text = b"A line of ordinary prose about the orchard.\n" * 40
    assert sniff(text[:900] + b"\x00" + text[900:], "x.txt").kind == "text"


def test_markdown_with_html_stays_markdown_and_the_name_never_beats_binary() -> None:
    md = b'<p align="center"><img src="logo.png"></p>\n\n# Title\n\nText.\n'
    assert sniff(md, "README.md").kind == "markdown"
    assert sniff(b"<!doctype html><html><body>Hi</body></html>", "page.md").kind == "markdown"
    assert sniff(b"<!doctype html><html><body>Hi</body></html>", "page.txt").kind == "html"
    assert sniff(b"%PDF-1.7\n", "notes.md").kind == "pdf"
    assert sniff(b"plain words", "report.pdf").kind == "text"


@pytest.mark.parametrize("brand, fmt", [(b"heic", "heic"), (b"mif1", "heif"), (b"avif", "avif")])
def test_heif_and_avif_photos_are_images(brand: bytes, fmt: str) -> None:
    head = b"\x00\x00\x00\x18ftyp" + brand + b"\x00\x00\x00\x00mif1heic"
    sniffed = sniff(head, "IMG_0001.HEIC")
    assert (sniffed.kind, sniffed.format) == ("image", fmt)


def test_a_json_chat_log_is_still_json() -> None:
    assert sniff(json.dumps([{"role": "user", "content": "hi"}]).encode(), "c.json").kind == "json"
