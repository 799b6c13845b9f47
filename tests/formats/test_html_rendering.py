"""HTML as people and mail editors write it: bare URLs keep their characters (no Markdown
escapes inside them), and a list written straight inside another list stays nested."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown


def test_bare_urls_addresses_and_intraword_underscores_are_not_escaped() -> None:
    text = html_markdown(
        "<p>Channel t.me/boris_rozhin, page https://example.org/a_b?q=*x* and "
        "www.example.org/some_page, mail first_last@example_mail.org. "
        "A snake_case name reads as written; 2*3 and _this_ stay escaped.</p>"
    ).text
    for raw in (
        "t.me/boris_rozhin",
        "https://example.org/a_b?q=*x*",
        "www.example.org/some_page",
        "first_last@example_mail.org",
    ):
        assert raw in text
    # An underscore between letters opens no emphasis in CommonMark: it needs no escape.
    assert "snake_case" in text and "2\\*3" in text and "\\_this\\_" in text


def test_a_list_inside_a_list_without_an_item_stays_nested(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "bo@example.org", "Agenda"
    msg["Date"] = "Mon, 02 Jan 2023 10:00:00 +0000"
    msg.set_content("Agenda attached in HTML.")
    msg.add_alternative(
        "<html><body><p>Agenda:</p><ul><li>Budget</li><ul><li>Harbour</li>"
        "<li>Roads</li><ol><li>North road</li></ol></ul><li>Hiring</li></ul>"
        "<p>Notes at t.me/harbour_news</p></body></html>",
        subtype="html",
    )
    path = tmp_path / "agenda.eml"
    path.write_bytes(msg.as_bytes())
    text = "\n".join(i.memory for i in Reader().read(path))
    assert "* Budget\n  + Harbour\n  + Roads\n    1. North road\n* Hiring" in text
    assert "t.me/harbour_news" in text
