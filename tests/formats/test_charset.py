"""The charset decision (declared label against the bytes), double-encoding repair, and
e-mail saved as UTF-16 / UTF-32: unit checks on the decision and files read end to end."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.plain.charset import (
    decide_charset,
    repair_double_encoding,
    western_or_central,
)
from omnireader.formats.plain.text import decode_declared, decode_text

FRENCH_SPANISH = "Il était très content. El niño juega, señor. Ça va très bien."
CZECH = "Příliš žluťoučký kůň úpěl ďábelské ódy."
POLISH = "Zażółć gęślą jaźń, powiedział Paweł."
GERMAN = "Grüße aus Köln — „bis bald“, sagte Jürgen."


def no_c1(text: str) -> bool:
    return not any("\x80" <= ch <= "\x9f" for ch in text)


@pytest.mark.parametrize(
    "label",
    ["iso-8859-1", "us-ascii", "windows-1252", "iso-8859-2", "windows-1250", "shift_jis", "koi8-r"],
)
def test_valid_utf_8_beats_a_legacy_label(label: str) -> None:
    assert decide_charset(GERMAN.encode("utf-8"), label) == "utf-8"
    assert decode_declared(GERMAN.encode("utf-8"), label) == GERMAN


def test_a_latin_1_label_over_windows_bytes_reads_them_as_windows_1252() -> None:
    data = "“Quoted” – dash … ellipsis, très".encode("cp1252")
    text = decode_declared(data, "iso-8859-1")
    assert text == "“Quoted” – dash … ellipsis, très" and no_c1(text)


@pytest.mark.parametrize(
    "text,page",
    [(FRENCH_SPANISH, "cp1252"), (GERMAN, "cp1252"), (CZECH, "cp1250"), (POLISH, "cp1250")],
)
@pytest.mark.parametrize("label", [None, "windows-1252", "windows-1250", "iso-8859-1"])
def test_windows_1252_against_1250_is_decided_by_the_bytes(
    text: str, page: str, label: str | None
) -> None:
    data = text.encode(page)
    assert western_or_central(data) == page
    got = decode_declared(data, label) if label else decode_text(data, "t.txt")
    assert got == text


def test_a_genuine_iso_8859_2_page_keeps_its_label() -> None:
    assert decode_declared(CZECH.encode("iso-8859-2"), "iso-8859-2") == CZECH


def test_a_label_that_does_not_decode_leaves_it_to_the_bytes() -> None:
    assert (
        decode_declared("東京の天気は晴れです。".encode("cp932"), "utf-8")
        == "東京の天気は晴れです。"
    )


@pytest.mark.parametrize(
    "original",
    [
        "café crème",
        "it’s “quoted” — fine",
        "Zażółć gęślą jaźń",
        "日本語のテキスト",
        "naïve Ünïcödé ß",
    ],
)
@pytest.mark.parametrize("misread", ["windows", "latin-1"])
def test_double_encoded_text_is_repaired(original: str, misread: str) -> None:
    data = original.encode("utf-8")
    if misread == "latin-1":  # every byte 0x80-0x9F a C1 control character
        broken = data.decode("latin-1")
    else:  # Windows-1252, its five undefined bytes as Latin-1 (what Windows tools do)
        broken = "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in data)
    assert broken != original
    assert repair_double_encoding(broken) == original


@pytest.mark.parametrize(
    "fine",
    [
        "Ãx is not mojibake",
        "«ÉCOLE» et «Ça»",
        "Â la carte",
        "Ålesund ¼ mile",
        CZECH,
        POLISH,
        "naïve café",
        "São Paulo ©2024",
        "5 × 3 ÷ 2 = 7½",
    ],
)
def test_text_that_is_not_double_encoded_is_left_alone(fine: str) -> None:
    assert repair_double_encoding(fine) == fine


def test_a_double_encoded_text_file_is_read_repaired(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes("Le cafÃ© est trÃ¨s bon, itâ€™s true.".encode())
    [item] = Reader().read_report(path).items
    assert item.memory == "Le café est très bon, it’s true."


MESSAGE = (
    "From: Zoë Müller <zoe@example.org>\r\n"
    "To: Bob Smith <bob@example.com>, carol@example.net\r\n"
    "Date: Tue, 14 Jan 2025 09:30:00 +0100\r\n"
    "Subject: Réunion lundi\r\n"
    "MIME-Version: 1.0\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n"
    "\r\n"
    "Bonjour, la réunion est à 10h.\r\n"
)


@pytest.mark.parametrize(
    "encoding,bom",
    [
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-16-le", b""),
        ("utf-16-be", b""),
        ("utf-32-le", codecs.BOM_UTF32_LE),
    ],
)
def test_an_email_saved_as_utf_16_or_32_is_read_as_an_email(
    tmp_path: Path, encoding: str, bom: bytes
) -> None:
    path = tmp_path / "saved.eml"
    path.write_bytes(bom + MESSAGE.encode(encoding))
    [item] = Reader().read_report(path).items
    meta = item.metadata
    assert meta.extra["sender"] == "Zoë Müller <zoe@example.org>"
    assert "bob@example.com" in meta.persons and "carol@example.net" in meta.persons
    assert meta.timestamp == "2025-01-14T09:30:00+01:00"
    assert item.memory.endswith("Bonjour, la réunion est à 10h.")
    assert "Content-Type" not in item.memory and "\x00" not in item.memory


def test_a_mail_part_labelled_latin_1_that_holds_utf_8_is_not_mojibake(tmp_path: Path) -> None:
    body = "Grüße — “bis bald”, Jürgen"
    raw = (
        MESSAGE.split("Content-Type")[0] + "Content-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
    ).encode("utf-8") + body.encode("utf-8")
    path = tmp_path / "label.eml"
    path.write_bytes(raw)
    [item] = Reader().read_report(path).items
    assert item.memory.endswith(body) and no_c1(item.memory)
