"""Decoding text files: BOMs, UTF-8, legacy encodings, mixed and broken bytes."""

from __future__ import annotations

import codecs

import pytest

from omnireader.formats.plain.text import decode_text, detect_encoding

JAPANESE_CSV = "名前,年齢,住所\n佐藤太郎,30,東京\n三木英子,25,大阪\n髙橋淳,35,名古屋\n"


@pytest.mark.parametrize(
    "encoding, bom",
    [
        ("utf-8", codecs.BOM_UTF8),
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
        ("utf-32-be", codecs.BOM_UTF32_BE),
    ],
)
def test_a_byte_order_mark_decides_the_encoding_and_is_not_kept(encoding: str, bom: bytes) -> None:
    text = "Größe: 東京 ✓"
    assert decode_text(bom + text.encode(encoding), "bom.txt") == text


def test_utf8_without_bom_is_read_as_utf8() -> None:
    assert decode_text("naïve café, 你好".encode(), "a.txt") == "naïve café, 你好"
    assert detect_encoding(b"plain ascii") == "utf-8"


def test_shift_jis_csv_from_excel_comes_out_as_japanese() -> None:
    data = JAPANESE_CSV.encode("cp932")
    assert detect_encoding(data) == "cp932"
    assert decode_text(data, "mskanji.csv") == JAPANESE_CSV


def test_the_corpus_cp932_csv_decodes_to_the_names_in_it(corpus) -> None:
    text = decode_text((corpus / "markitdown" / "test_mskanji.csv").read_bytes(), "x.csv")
    for name in ("名前", "佐藤太郎", "三木英子", "髙橋淳", "名古屋"):
        assert name in text


@pytest.mark.parametrize(
    "text",
    [
        "Café crème, naïve façade — déjà vu. Größe über alles.\n",
        "Zoë\n",
        "Der Bär läuft über die Straße. Ça coûte 5 €.\n",
    ],
)
def test_western_legacy_text_reads_as_windows_1252(text: str) -> None:
    assert decode_text(text.encode("cp1252"), "latin.txt") == text


@pytest.mark.parametrize(
    "text, encoding",
    [
        ("Привет, как дела? Это тест кодировки.", "cp1251"),
        ("你好，这是一个测试文件。我们用中文写。", "gb18030"),
    ],
)
def test_other_legacy_encodings_are_guessed(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding), "legacy.txt") == text


def test_utf8_with_a_pasted_latin1_word_keeps_both_readable() -> None:
    data = "Hello wörld, ça va? ".encode() * 3 + "Grüße aus Köln".encode("latin-1")
    text = decode_text(data, "mixed.txt")
    assert text.startswith("Hello wörld, ça va? ")
    assert text.endswith("Grüße aus Köln")


def test_bytes_invalid_everywhere_are_replaced_not_raised() -> None:
    # 0x81 and 0x8D are undefined in Windows-1252 and invalid as UTF-8.
    text = decode_text("start ✓ ".encode() + b"\x81\x8d" + b" end", "bad.txt")
    assert text.startswith("start ✓ ") and text.endswith(" end")
    assert "\ufffd" in text


def test_nul_characters_are_removed() -> None:
    assert decode_text(b"a\x00b\x00c", "nul.txt") == "abc"
    assert decode_text("x\x00y".encode("utf-16"), "nul16.txt") == "xy"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_unicode_without_a_bom_is_told_by_its_nul_pattern(encoding: str) -> None:
    text = "Il y avait en Vestphalie, dans le château de M. le baron.\nÉlevé.\n"
    data = text.encode(encoding)
    assert detect_encoding(data) == encoding
    assert decode_text(data, "candide.txt") == text


def test_the_corpus_utf16_file_without_bom_reads_as_french(corpus) -> None:
    data = (corpus / "realworld" / "candide-utf-16le.txt").read_bytes()
    assert not data.startswith(codecs.BOM_UTF16_LE)
    text = decode_text(data, "candide-utf-16le.txt")
    assert "Comment Candide fut élevé dans un beau château" in text
    assert "\x00" not in text


@pytest.mark.parametrize("ending", ["\r\n", "\r", "\n"], ids=["windows", "classic-mac", "unix"])
def test_every_kind_of_line_end_becomes_one_newline(ending: str) -> None:
    text = ending.join(["Größe: 3", "Gewicht: 4", ""])
    for encoding in ("utf-8", "utf-16", "cp1252"):
        assert decode_text(text.encode(encoding), "notes.txt") == "Größe: 3\nGewicht: 4\n"
