"""An Outlook message's empty paragraphs (a space or a no-break space alone on a line) read
as the blank lines they look like, not as lines of their own."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from omnireader import Reader


def test_an_outlook_message_s_empty_paragraphs_are_blank_lines(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "nested simple mail.msg")
    assert items[0].memory.endswith("\n\nMail in mail.\n\nBR")
    assert items[1].memory.endswith("\n\nHello all,\n\nThis is a testmail.\n\nBR\n\nHui Pui")


def test_white_lines_of_a_plain_body_go_and_its_signature_stays(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"] = "Anna Berg <anna@example.org>"
    msg["To"] = "bo@example.org"
    msg["Subject"] = "Ferry"
    msg.set_content("Booked the ferry.\n\u00a0\n \nSee you at 9.\n\n\n\n-- \nAnna\n")
    path = tmp_path / "ferry.eml"
    path.write_bytes(msg.as_bytes())
    [item] = Reader().read(path)
    assert item.memory.endswith("\n\nBooked the ferry.\n\nSee you at 9.\n\n-- \nAnna")
