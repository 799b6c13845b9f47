"""Legacy Word / PowerPoint and password-protected Office files: read as the modern file
they convert or decrypt to, or reported with what would read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.payloads import Blob


@pytest.fixture(scope="module")
def realworld(corpus: Path) -> Path:
    return corpus / "realworld"


def test_a_word_97_document_gives_its_text_tables_and_parts(realworld: Path) -> None:
    items = Reader().read(realworld / "testWORD_various.doc")
    text = "\n".join(i.memory for i in items)
    assert "Suddenly some Japanese text:" in text and "| Row 2 Col 1 |" in text
    assert "[^1]: This is a footnote." in text
    assert {"header", "footer"} <= {i.metadata.extra.get("section") for i in items}
    assert all(i.metadata.tags[0] == "doc" for i in items)
    assert items[0].metadata.extra["format"] == "doc"


def test_a_powerpoint_97_deck_is_a_section_per_slide(realworld: Path) -> None:
    items = Reader().read(realworld / "testPPT_various.ppt")
    assert items and all(i.source.page for i in items)
    assert "Here is a text box" in "\n".join(i.memory for i in items)


def test_a_word_file_no_converter_reads_is_corrupt_and_says_what_was_tried(
    realworld: Path,
) -> None:
    data = bytearray((realworld / "testWORD.doc").read_bytes())
    fib = data.find(b"\xec\xa5")  # the Word file header, at the start of its stream
    data[fib + 2 : fib + 1400] = bytes(1398)
    result = Reader().read_report(Blob(data=bytes(data), filename="broken.doc"))
    [failure] = result.failures
    assert failure.error == "corrupt" and not result.items
    assert "msdoc2docx" in failure.message and "soffice" in failure.message


@pytest.mark.parametrize(
    "name, password, text",
    [
        ("example_password.docx", "Password1234_", "Lorem ipsum"),
        ("ecma376standard_password.docx", "Password1234_", "lorem ipsum"),
        ("testWORD_protected_passtika.docx", "tika", "This is an encrypted Word 2007 File."),
    ],
)
def test_protected_office_files_open_with_their_password(
    realworld: Path, name: str, password: str, text: str
) -> None:
    locked = Reader().read_report(realworld / name)
    assert [f.error for f in locked.failures] == ["encrypted"] and not locked.items
    items = Reader(password=password).read(realworld / name)
    assert text.lower() in "\n".join(i.memory for i in items).lower()
    # Tagged as what it is once opened, not as the locked package (was "office-encrypted").
    assert items[0].metadata.extra["format"] == "docx" and "docx" in items[0].metadata.tags
    wrong = Reader(password="nope").read_report(realworld / name)
    assert "does not open it" in wrong.failures[0].message


def test_the_password_option_says_it_opens_office_files_too() -> None:
    import subprocess
    import sys

    from omnireader.options import ReadOptions

    shown = subprocess.run(
        [sys.executable, "-m", "omnireader", "read", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cli = " ".join(shown.split()[shown.split().index("--password") :][:14])
    for said in (cli, ReadOptions.model_fields["password"].description or ""):
        assert "PDFs" in said and "Office files" in said  # was "password for encrypted PDFs"
