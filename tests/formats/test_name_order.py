"""A person written "Surname, Given" (a directory's order) is listed as "Given Surname",
so the same person is one value of ``persons`` whichever way a header or a property spells
the name; the headers themselves are kept as written."""

from __future__ import annotations

import email
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.mail.headers import mail_headers
from omnireader.formats.name_order import natural_order


def test_a_directory_name_in_a_message_is_the_same_person(corpus: Path) -> None:
    # simple-java-mail's .msg: From "Benny Bottema", To "Bottema, Benny" (an Exchange name)
    [message, *_] = Reader().read(
        corpus / "realworld/HTML mail with replyto and attachment and embedded image.msg"
    )
    assert message.metadata.persons[:3] == [
        "Benny Bottema",
        "b.bottema@gmail.com",
        "benny.bottema@aegon.nl",
    ]
    assert 'To: "Bottema, Benny" <benny.bottema@aegon.nl>' in message.memory


def test_a_documents_author_in_directory_order_is_turned(corpus: Path) -> None:
    # markitdown's equations.docx: creator "Ganhala Arachchige, Sathindu"
    [item] = Reader().read(corpus / "markitdown/equations.docx")
    assert item.metadata.persons == ["Sathindu Ganhala Arachchige"]


def test_a_generated_message_and_document_agree(tmp_path: Path) -> None:
    import docx

    headers = mail_headers(
        email.message_from_string(
            'From: "Lima, Ana" <ana@harbour.example>\nTo: Bo Chen <bo@harbour.example>\n'
            "Subject: Berth fees\n\nAttached."
        )
    )
    assert headers.persons[0] == "Ana Lima"
    assert headers.sender == '"Lima, Ana" <ana@harbour.example>'
    document = docx.Document()
    document.add_paragraph("Berth fees for 2025.")
    document.core_properties.author = "Lima, Ana (Finance)"
    path = tmp_path / "fees.docx"
    document.save(path)
    assert Reader().read(path)[0].metadata.persons == ["Ana Lima"]


@pytest.mark.parametrize(
    "name",
    ["King, Jr.", "Ana Lima, PhD", "Acme, Inc.", "Lima, Ana, Bo", "Room 4, Pier 2", "Ana Lima"],
)
def test_suffixes_companies_lists_and_plain_names_stay(name: str) -> None:
    assert natural_order(name) == name
