"""HTML read without MarkItDown: hidden content dropped, layout tables read as blocks,
data tables kept, the page's charset weighed against its bytes; each through the real
reader (``Reader.read_report``) on files written to tmp_path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown

ROOT = Path(__file__).resolve().parents[2]


def read_text(path: Path) -> str:
    result = Reader().read_report(path)
    assert result.items, result.failures
    return "\n".join(i.memory for i in result.items)


def test_hidden_content_is_not_read(tmp_path: Path) -> None:
    page = tmp_path / "hidden.html"
    page.write_text(
        "<html><body>"
        "<div style='display: none'><ix:header><ix:hidden>dei:EntityCentralIndexKey 0000320193"
        "</ix:hidden></ix:header></div>"
        "<ix:header><ix:references>us-gaap-2023.xsd</ix:references></ix:header>"
        "<p>Visible annual report text.</p>"
        "<p hidden>An attribute-hidden note.</p>"
        "<span style='color:red;VISIBILITY:hidden'>invisible span</span>"
        "<template><p>template row</p></template>"
        "<div style='mso-hide:all;display:none;max-height:0'>preheader for Outlook</div>"
        "<span aria-hidden='true'>★</span>"
        "<div aria-hidden='true'>"
        + "A long block marked aria-hidden is still on screen. " * 3
        + "</div></body></html>",
        encoding="utf-8",
    )
    text = read_text(page)
    assert "Visible annual report text." in text
    for hidden in (
        "0000320193",
        "us-gaap",
        "attribute-hidden",
        "invisible span",
        "template row",
        "preheader",
        "★",
    ):
        assert hidden not in text, hidden
    assert "still on screen" in text  # aria-hidden hides from screen readers only


EMAIL_TEMPLATE = """<html><body>
<table role="presentation" width="100%"><tr><td align="center">
  <table width="600" cellpadding="0">
    <tr><td><h1>Spring newsletter</h1></td></tr>
    <tr><td><p>Dear reader, our <u>garden</u> opens on Monday.</p>
            <p>Bring your friends.</p></td></tr>
    <tr><td><table><tr><td>Opening hours</td><td>9 to 5</td></tr>
                   <tr><td>Entry</td><td>free</td></tr></table></td></tr>
    <tr><td>Unsubscribe from these messages.</td></tr>
  </table>
</td></tr></table></body></html>"""


def test_a_layout_table_is_read_as_blocks_and_a_data_table_inside_it_stays_a_table(
    tmp_path: Path,
) -> None:
    page = tmp_path / "newsletter.html"
    page.write_text(EMAIL_TEMPLATE, encoding="utf-8")
    text = read_text(page)
    assert "# Spring newsletter" in text
    assert "Dear reader, our garden opens on Monday." in text  # no raw <u>
    assert "<u>" not in text
    lines = text.splitlines()
    # The data table (two columns of short values) is a Markdown table; nothing else is.
    table_lines = [line for line in lines if line.startswith("|")]
    assert table_lines[0] == "| Opening hours | 9 to 5 |"
    assert "| Entry | free |" in table_lines
    assert all("newsletter" not in line and "Dear reader" not in line for line in table_lines)
    assert (
        text.index("Spring newsletter")
        < text.index("Bring your friends")
        < text.index("Opening hours")
        < text.index("Unsubscribe")
    )


def test_a_plain_data_table_stays_a_markdown_table() -> None:
    page = (
        "<table><tr><th>City</th><th>Visits</th></tr><tr><td><p>Lisbon</p></td><td>12</td>"
        "</tr><tr><td>Oslo</td><td>7</td></tr></table>"
    )
    text = html_markdown(page).text
    assert text.splitlines()[:2] == ["| City | Visits |", "| --- | --- |"]
    assert "| Lisbon | 12 |" in text


def test_a_single_cell_table_is_layout() -> None:
    text = html_markdown("<table><tr><td>Just a framed sentence.</td></tr></table>").text
    assert text == "Just a framed sentence."


def test_a_windows_1252_page_is_not_read_as_windows_1250(tmp_path: Path) -> None:
    page = tmp_path / "accents.html"
    page.write_bytes(
        "<html><body><p>Il était très content. El niño, señor.</p></body></html>".encode("cp1252")
    )
    assert "Il était très content. El niño, señor." in read_text(page)


def test_a_latin_1_label_over_utf_8_bytes_loses_to_the_bytes(tmp_path: Path) -> None:
    page = tmp_path / "label.html"
    page.write_bytes(
        "<html><head><meta charset='iso-8859-1'></head><body><p>Grüße aus "
        "Köln — “bis bald”</p></body></html>".encode()
    )
    text = read_text(page)
    assert "Grüße aus Köln — “bis bald”" in text
    assert not any("\x80" <= ch <= "\x9f" for ch in text)


def test_a_declared_charset_that_fits_is_kept(tmp_path: Path) -> None:
    page = tmp_path / "czech.html"
    page.write_bytes(
        "<html><head><meta http-equiv='Content-Type' content='text/html; "
        "charset=windows-1250'></head><body><p>Příliš žluťoučký kůň úpěl ďábelské "
        "ódy.</p></body></html>".encode("cp1250")
    )
    assert "Příliš žluťoučký kůň úpěl ďábelské ódy." in read_text(page)


def test_reading_html_does_not_import_markitdown(tmp_path: Path) -> None:
    page = tmp_path / "tiny.html"
    page.write_text("<html><body><p>Hello tiny page.</p></body></html>", encoding="utf-8")
    code = (
        "import sys; from omnireader import Reader; "
        f"r = Reader().read_report({str(page)!r}); assert r.items, r.failures; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('markitdown', 'magika', 'onnxruntime', 'rapidocr')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]", out


def test_elements_a_page_leaves_open_are_closed_as_a_browser_closes_them(tmp_path: Path) -> None:
    # Old pages and HTML mail omit </li>, </td>, </tr> and </p>, as HTML allows.
    page = tmp_path / "open.html"
    page.write_text(
        "<html><body><p>Permits:<ul><li>acid rain<li>new source review<li>operating</ul>"
        "<table><tr><th>Program<th>Title<tr><td>acid rain<td>IV<tr><td>operating<td>V"
        "</table><p>First paragraph<p>Second paragraph</body></html>"
    )
    text = read_text(page)
    assert "* acid rain\n* new source review\n* operating" in text
    assert "| Program | Title |\n| --- | --- |\n| acid rain | IV |\n| operating | V |" in text
    assert "First paragraph\n\nSecond paragraph" in text


def test_a_heading_in_bold_is_a_heading_without_the_stars() -> None:
    text = html_markdown(b"<h3><strong>Copilot momentum</strong></h3><p>Growth.</p>").text
    assert text.startswith("### Copilot momentum\n")


def test_line_breaks_in_the_markup_are_spaces_but_pre_and_br_keep_theirs() -> None:
    page = b"<p>This web site provides\ninformation | and links\n| on permits<br>New line</p>"
    text = html_markdown(page + b"<pre>x = 1\n  y = 2</pre>").text
    assert text.startswith("This web site provides information | and links | on permits\nNew")
    assert "x = 1\n  y = 2" in text


# An e-mail laid out the way mail templates are: a logo beside a "view online" link,
# content between empty spacer cells, a paragraph beside a picture, a signature block of
# lines beside a link; with two data tables in it, one with a header row and a long cell.
LAYOUT_MAIL = """<html><body>
<table width="100%"><tr><td><img src="cid:logo" alt="Acme"></td>
  <td><a href="https://acme.example/view">View in browser</a></td></tr></table>
<table width="100%">
 <tr><td width="20">&nbsp;</td><td>Hello Anna, your order has shipped.</td><td>&nbsp;</td></tr>
 <tr><td>&nbsp;</td><td>It left our store this morning.</td><td>&nbsp;</td></tr></table>
<table><tr><td>Thank you for your purchase. We will send you the tracking number as soon
  as the carrier gives it to us.</td><td><img src="cid:box" alt=""></td></tr>
 <tr><td>&nbsp;</td><td>&nbsp;</td></tr></table>
<table><tr><th>Item</th><th>Notes</th></tr>
 <tr><td>Garden chair</td><td>Folds flat. Ships in its own box, so it may arrive a day
  after the rest of the order.</td></tr>
 <tr><td>Parasol</td><td>Blue</td></tr></table>
<table><tr><td>Subtotal</td><td>40.00</td></tr><tr><td>Mr. Postage</td><td>4.50</td></tr>
 <tr><td><b>Gift</b> wrap<br><i>(blue)</i></td><td>2.00</td></tr></table>
<table><tr><td>Acme Garden Ltd<br>1 Main Street<br>Springfield</td>
  <td>Follow us on <a href="https://social.example/acme">Mastodon</a></td></tr>
 <tr><td>&nbsp;</td><td>&nbsp;</td></tr></table>
</body></html>"""


def test_layout_tables_of_an_email_are_read_as_text_and_its_data_tables_stay_tables(
    tmp_path: Path,
) -> None:
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = "Acme <shop@acme.example>"
    message["To"] = "anna@example.org"
    message["Subject"] = "Your order has shipped"
    message["Date"] = "Fri, 04 Dec 2026 09:30:00 +0000"
    message.set_content("Your order has shipped.")
    message.add_alternative(LAYOUT_MAIL, subtype="html")
    mail = tmp_path / "shipped.eml"
    mail.write_bytes(message.as_bytes())
    text = read_text(mail)
    rows = [line for line in text.splitlines() if line.startswith("|")]
    # Exactly the two data tables: a header row and its rows, a headerless table of values.
    assert rows == [
        "| Item | Notes |",
        "| --- | --- |",
        "| Garden chair | Folds flat. Ships in its own box, so it may arrive a day after the"
        " rest of the order. |",
        "| Parasol | Blue |",
        "| Subtotal | 40.00 |",
        "| --- | --- |",
        "| Mr. Postage | 4.50 |",
        "| **Gift** wrap *(blue)* | 2.00 |",
    ]
    lines = [line.strip() for line in text.splitlines()]
    for said in (
        "View in browser",
        "Hello Anna, your order has shipped.",
        "It left our store this morning.",
        "Acme Garden Ltd",
        "1 Main Street",
        "Follow us on Mastodon",
    ):
        assert said in lines, said
    assert "Thank you for your purchase." in text
    assert text.index("View in browser") < text.index("Hello Anna") < text.index("Acme Garden")


def test_a_header_row_keeps_a_table_of_prose_a_table() -> None:
    described = html_markdown(
        "<table><thead><tr><td>Term</td><td>Meaning</td></tr></thead>"
        "<tr><td>Lease</td><td>A contract to rent. It runs for a fixed term.</td></tr>"
        "<tr><td>Deposit</td><td>Money held. It is returned at the end.</td></tr></table>"
    ).text
    assert described.splitlines()[0] == "| Term | Meaning |"
