"""What real mail leaves implicit or gets wrong, and how a body is still read right: a
plain-text stub beside the real HTML, an HTML part whose charset is only in its <meta>, a
charset label Python does not know, format=flowed line wrapping, and a forwarded message
sent base64-encoded."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.mail.body import unflow

HEAD = (
    "From: Ann Lee <ann@example.org>\r\nTo: Bo Chen <bo@example.org>\r\n"
    "Date: Tue, 06 May 2025 10:30:00 +0200\r\nMIME-Version: 1.0\r\n"
)


def read_mail(tmp_path: Path, data: bytes, name: str = "mail.eml") -> list:
    path = tmp_path / name
    path.write_bytes(data)
    report = Reader().read_report(path)
    assert report.failures == []
    return report.items


def alternative(plain: str, html: str) -> bytes:
    return (
        HEAD + "Subject: news\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n"
        "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + plain + "\r\n"
        "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--b--\r\n"
    ).encode("utf-8")


def test_a_plain_text_stub_gives_way_to_the_html_it_stands_for(tmp_path: Path) -> None:
    data = alternative(
        "Your mail client cannot show this message. Open it in a browser.",
        "<html><body><h1>May news</h1><p>The kite museum reopens on 12 June.</p></body></html>",
    )
    [item] = read_mail(tmp_path, data)
    assert "kite museum reopens on 12 June" in item.memory
    assert "cannot show" not in item.memory


def test_a_plain_text_much_shorter_than_its_html_gives_way_too(tmp_path: Path) -> None:
    story = " ".join(f"Paragraph {n} of the harbour report names the pier." for n in range(12))
    [item] = read_mail(
        tmp_path,
        alternative(
            "Harbour report: see the full version.", f"<html><body><p>{story}</p></body></html>"
        ),
    )
    assert "Paragraph 11 of the harbour report" in item.memory


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><p>The ferry leaves at 9:40 from pier 3; bring the blue tickets.</p></body></html>",
        "<html><body><img src='cid:poster'><p>Ferry</p></body></html>",  # a picture, little text
    ],
    ids=["same-words", "picture-html"],
)
def test_a_real_plain_text_alternative_is_still_the_one_read(tmp_path: Path, html: str) -> None:
    plain = "The ferry leaves at 9:40 from pier 3; bring the blue tickets."
    [item] = read_mail(tmp_path, alternative(plain, html))
    assert plain in item.memory
    assert item.memory.count("ferry leaves") == 1


def test_an_html_body_without_a_mime_charset_is_decoded_by_its_meta_charset(tmp_path: Path) -> None:
    html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; '
        'charset=windows-1251"></head><body><p>Счёт во вложении.</p></body></html>'
    )
    data = (
        HEAD + "Subject: invoice\r\nContent-Type: text/html\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
    ).encode() + html.encode("cp1251")
    [item] = read_mail(tmp_path, data)
    assert "Счёт во вложении." in item.memory


def test_a_stale_meta_charset_does_not_undo_the_mime_charset(tmp_path: Path) -> None:
    html = (
        '<html><head><meta charset="iso-8859-1"></head>'
        "<body><p>Überweisung für März: 120 €</p></body></html>"
    )
    data = (
        HEAD + "Subject: bank\r\nContent-Type: text/html; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
    ).encode() + html.encode("utf-8")
    [item] = read_mail(tmp_path, data)
    assert "Überweisung für März: 120 €" in item.memory


def test_hebrew_in_iso_8859_8_i_is_read_in_iso_8859_8(tmp_path: Path) -> None:
    subject = base64.b64encode("שלום".encode("iso-8859-8")).decode()
    data = (
        HEAD + f"Subject: =?iso-8859-8-i?B?{subject}?=\r\n"
        "Content-Type: text/plain; charset=iso-8859-8-i\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n"
    ).encode() + "שלום עולם".encode("iso-8859-8")
    [item] = read_mail(tmp_path, data)
    assert "שלום עולם" in item.memory
    assert item.metadata.key == "שלום"


def test_format_flowed_lines_are_joined_and_fixed_lines_kept(tmp_path: Path) -> None:
    body = (
        "This paragraph was wrapped by the mail client at seventy charac \r\n"
        "ters and must be rejoined.\r\n"
        "Fixed line one.\r\nFixed line two.\r\n"
    )
    data = (
        HEAD + "Subject: flowed\r\nContent-Type: text/plain; charset=utf-8; format=flowed;"
        " delsp=yes\r\n\r\n" + body
    ).encode()
    [item] = read_mail(tmp_path, data)
    assert "seventy characters and must be rejoined." in item.memory
    assert "Fixed line one.\nFixed line two." in item.memory


def test_unflow_keeps_quote_depths_apart_and_never_joins_a_signature() -> None:
    text = "> quoted and \n> wrapped\nmine \ncontinues\n-- \nAnn"
    assert unflow(text) == "> quoted and wrapped\nmine continues\n-- \nAnn"
    assert unflow(" >not a quote, stuffed") == ">not a quote, stuffed"


def test_a_forwarded_message_sent_in_base64_is_read_as_the_message(tmp_path: Path) -> None:
    inner = (
        b"From: Dan <dan@example.org>\r\nSubject: Quarry survey\r\n"
        b"Date: Mon, 05 May 2025 09:00:00 +0000\r\n\r\n"
        b"The basalt quarry survey is due Friday.\r\n"
    )
    data = (
        HEAD + "Subject: Fwd: survey\r\nContent-Type: multipart/mixed; boundary=m\r\n\r\n"
        "--m\r\nContent-Type: text/plain\r\n\r\nsee below\r\n"
        "--m\r\nContent-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n"
        "Content-Disposition: attachment; filename=fwd.eml\r\n\r\n"
        + base64.encodebytes(inner).decode()
        + "--m--\r\n"
    ).encode()
    items = read_mail(tmp_path, data)
    [forwarded] = [i for i in items if "basalt" in i.memory]
    assert "The basalt quarry survey is due Friday." in forwarded.memory
    assert forwarded.metadata.key == "Quarry survey"
    assert not any("RnJvbT" in i.memory for i in items)  # no base64 stored
