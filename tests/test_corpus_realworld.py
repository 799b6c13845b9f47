"""The real-world folder, read end to end: e-mail, Outlook, RTF, OpenDocument, legacy and
password-protected Office, UTF-16 text, CSV dialects, Markdown with HTML, DOCX parts.

For each file in ../shared/corpus/realworld/expected.json, with the checker rules of its
README: everything the reader returns for the file (every item's text, and the subject,
sender and recipients it reports) is NFC-normalised, case-folded and whitespace-collapsed;
every ``must_find`` fragment is in it and no ``must_not_find`` one is. A password-protected
file is ``encrypted`` without its password (no items) and meets ``must_find`` with it.
A part of a file (a truncated PDF attached to a message) may fail, under a typed code and
its own member name; the file itself never does.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from omnireader import Reader, ReadResult

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT.parent / "shared" / "corpus" / "realworld" / "expected.json"
FILES: dict[str, dict] = json.loads(EXPECTED.read_text())["files"] if EXPECTED.is_file() else {}
PART_CODES = {"corrupt", "unsupported", "encrypted", "empty", "too_large"}
_PASSWORD = re.compile(r"password is (\S+?)[ ,(]")


def norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def gathered(result: ReadResult) -> str:
    """Every item's text and the header fields reported with it."""
    parts = []
    for item in result.items:
        meta = item.metadata
        parts += [
            item.memory,
            meta.key or "",
            *meta.persons,
            str(meta.extra.get("sender", "")),
            str(meta.extra.get("recipients", "")),
        ]
    return norm("\n".join(parts))


def password_of(spec: dict) -> str:
    found = _PASSWORD.search(spec["expect"])
    assert found, spec["expect"]
    return found.group(1)


@pytest.fixture(scope="module")
def folder(corpus: Path) -> Path:
    return corpus / "realworld"


@pytest.mark.parametrize("name", sorted(FILES) or ["-"])
def test_every_fragment_is_found_and_no_forbidden_one(folder: Path, name: str) -> None:
    if name == "-":
        pytest.skip("no expected.json")
    spec = FILES[name]
    password = password_of(spec) if spec["kind"] == "encrypted-ooxml" else None
    result = Reader(password=password).read_report(folder / name)
    assert result.items, (name, result.failures)
    assert all(i.memory.strip() for i in result.items), f"{name}: an empty item"
    for f in result.failures:  # only a part may fail, and under a code the ledger knows
        assert "!" in f.input and f.error in PART_CODES, f
    text = gathered(result)
    missing = [f for f in spec["must_find"] if norm(f) not in text]
    present = [f for f in spec.get("must_not_find", []) if norm(f) in text]
    assert not missing and not present, (missing, present)


@pytest.mark.parametrize(
    "name", sorted(n for n, s in FILES.items() if s["kind"] == "encrypted-ooxml") or ["-"]
)
def test_a_protected_office_file_is_encrypted_without_its_password_and_with_a_wrong_one(
    folder: Path, name: str
) -> None:
    if name == "-":
        pytest.skip("no expected.json")
    for password in (None, "not-the-password"):
        result = Reader(password=password).read_report(folder / name)
        assert not result.items
        [failure] = result.failures
        assert failure.error == "encrypted" and name in failure.input
        said = "does not open it" if password else "pass the password"
        assert said in failure.message
    assert not any(norm(f) in failure.message.casefold() for f in FILES[name]["must_not_find"])


def test_an_attached_message_and_its_broken_pdf(folder: Path) -> None:
    result = Reader().read_report(folder / "attachment_message_rfc822.eml")
    members = {i.source.member for i in result.items}
    assert None in members  # the outer message itself
    assert "attachment/ForwardedMessage.eml" in members
    [broken] = result.failures
    assert broken.input.endswith("attachment/ForwardedMessage.eml!attachment/broken.pdf")
    assert broken.error == "corrupt"


def test_a_mailbox_gives_every_message_its_own_member_and_header_metadata(folder: Path) -> None:
    items = Reader().read(folder / "complex.mbox")
    messages = sorted({i.source.member for i in items})
    assert messages == ["message/1.eml", "message/2.eml", "message/3.eml"]
    first = next(i for i in items if i.source.member == "message/1.eml")
    assert first.metadata.key.startswith("Re: question about when shuffle/sort")
    assert first.metadata.timestamp and first.metadata.persons
    assert first.metadata.extra["thread"].startswith("<")


def test_outlook_attachments_are_named_members(folder: Path) -> None:
    items = Reader().read(folder / "HTML mail with replyto and attachment and embedded image.msg")
    members = {i.source.member for i in items}
    assert {"attachment/dresscode.txt", "attachment/location.txt"} <= members
    image = [i for i in items if i.source.kind == "image"]
    assert image and image[0].source.member == "attachment/thumbsup"


def test_docx_parts_are_marked(folder: Path) -> None:
    items = Reader().read(folder / "example.docx")
    parts = {i.metadata.extra.get("section") for i in items}
    assert {"header", "footer"} <= parts
    # Its endnotes are cited in the body: each follows the paragraph citing it.
    assert "endnotes" not in parts
    assert any("endnote 1[^e1]\n\n[^e1]: First endnote" in i.memory for i in items)
    header = next(i for i in items if i.metadata.extra.get("section") == "header")
    assert "header" in header.metadata.tags
    comments = Reader().read(folder / "comments.docx")
    assert any(i.metadata.extra.get("section") == "comments" for i in comments)


def test_slides_and_sheets_of_opendocument_are_sections(folder: Path) -> None:
    slides = Reader().read(folder / "example.odp")
    assert [i.source.page for i in slides] == [1, 2]
    sheet = Reader().read(folder / "test-columnar.ods")
    assert sheet[0].metadata.extra["heading"] == "testing" and sheet[0].source.page == 1
