"""Outlook messages: the same e-mail reading as .eml, attachments and attached messages
included, through python-oxmsg."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.archives.containers import read_member
from omnireader.formats.mail.outlook import msg_to_mime
from omnireader.options import ReadOptions
from omnireader.parsers.base import get_parser


@pytest.fixture(scope="module")
def realworld(corpus: Path) -> Path:
    return corpus / "realworld"


def test_sender_recipients_date_and_body_become_metadata(realworld: Path) -> None:
    [item] = Reader().read(realworld / "testMSG.msg")
    meta = item.metadata
    assert meta.key == "MIME registry use cases"
    assert "Jukka Zitting" in meta.persons and "jukka.zitting@gmail.com" in meta.persons
    assert meta.timestamp.startswith("2009-01-29T19:16:40")
    assert "__substg1.0_" not in item.memory


def test_an_outlook_message_s_reply_to_is_read_from_its_entries(realworld: Path) -> None:
    # Outlook keeps Reply-To as recipient entries (name, type, address), not as a header.
    path = realworld / "HTML mail with replyto and attachment and embedded image.msg"
    item = Reader().read(path)[0]
    assert item.metadata.extra["reply_to"] == "lollypop-replyto <lo.pop.replyto@somemail.com>"
    assert "lo.pop.replyto@somemail.com" in item.metadata.persons
    [tika] = Reader().read(realworld / "testMSG.msg")  # name and address the same: once
    assert tika.metadata.extra["reply_to"] == "tika-dev@lucene.apache.org"


def test_an_attached_outlook_message_is_read_as_a_nested_message(realworld: Path) -> None:
    items = Reader().read(realworld / "nested simple mail.msg")
    nested = [i for i in items if i.source.member]
    assert len(nested) == 1 and nested[0].source.member.endswith(".eml")
    assert "This is a testmail." in nested[0].memory
    rebuilt = get_parser("file").rebuild_from_source(nested[0].source)
    assert b"This is a testmail." in read_member(rebuilt, ReadOptions())


def test_an_attached_word_97_file_is_read(realworld: Path) -> None:
    items = Reader().read(realworld / "testMSG_att_doc.msg")
    doc = next(i for i in items if i.source.member == "attachment/test-unicode.doc")
    assert "euro : € (20AC)" in doc.memory


def test_bytes_that_are_not_an_outlook_message_are_corrupt() -> None:
    from omnireader.errors import CorruptError

    with pytest.raises(CorruptError):
        msg_to_mime(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "x.msg")
