"""MarkItDown for office and web formats: told the format, cleaned of chrome and data URIs."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from omnireader.errors import CorruptError, ReadError, UnsupportedFormatError
from omnireader.formats.web.html import main_content_html
from omnireader.formats.web.markitdown import convert_with_markitdown, markitdown_convert
from omnireader.payloads import Blob

JAPANESE_CSV = "名前,年齢,住所\n佐藤太郎,30,東京\n三木英子,25,大阪\n髙橋淳,35,名古屋\n"

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Otter facts</title></head>
<body>
  <header><a href="/">Home</a> <a href="/login">You are encouraged to log in</a></header>
  <nav><ul><li><a href="/a">Main page</a></li><li><a href="/b">Random article</a></li></ul></nav>
  <main>
    <h1>Sea otters</h1>
    <button>move to sidebar</button>
    <p>Sea otters hold hands while sleeping so they do not
       <a href="https://tracker.example/r?u=aHR0cHM6Ly9leGFtcGxl&p=1">drift apart</a>.</p>
    <p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" alt="an otter"></p>
    <div role="navigation">Previous | Next</div>
  </main>
  <aside>Related: beavers</aside>
  <footer>Privacy policy</footer>
</body></html>"""


def md(data: bytes, kind: str, filename: str, mime: str | None = None) -> str:
    return convert_with_markitdown(Blob(data=data, filename=filename, mime=mime), kind)


def test_a_shift_jis_csv_becomes_a_markdown_table_in_japanese() -> None:
    text = md(JAPANESE_CSV.encode("cp932"), "csv", "names.csv")
    assert "| 名前 | 年齢 | 住所 |" in text
    assert "| 髙橋淳 | 35 | 名古屋 |" in text


def test_a_tab_separated_file_keeps_its_columns() -> None:
    text = md(b"city\tcountry\nLyon\tFrance\n", "csv", "t.tsv", "text/tab-separated-values")
    assert "| city | country |" in text and "| Lyon | France |" in text


def test_html_keeps_the_main_content_and_drops_menus_sidebars_and_footers() -> None:
    converted = markitdown_convert(Blob(data=PAGE.encode(), filename="otters.html"), "html")
    text = " ".join(converted.text.split())
    assert converted.title == "Otter facts"
    assert "# Sea otters" in converted.text
    assert "hold hands while sleeping so they do not drift apart" in text
    for chrome in ("log in", "Main page", "move to sidebar", "beavers", "Privacy", "Previous"):
        assert chrome not in text


def test_html_keeps_link_text_and_image_alt_text_but_not_urls_or_image_data() -> None:
    text = md(PAGE.encode(), "html", "otters.html")
    assert "drift apart" in text and "[image: an otter]" in text
    assert "tracker.example" not in text
    assert "iVBORw0KGgo" not in text and "data:" not in text


def test_a_page_without_landmarks_keeps_its_body_minus_navigation() -> None:
    page = (
        b"<html><body><nav>Menu</nav><h2>Notes</h2><p>Buy oat milk.</p>"
        b"<footer>(c)</footer></body></html>"
    )
    html = main_content_html(page)
    assert "Buy oat milk." in html and "Menu" not in html and "(c)" not in html


def test_a_mislabelled_tiny_main_element_does_not_hide_the_page() -> None:
    body = "<p>" + "The real article text is here. " * 40 + "</p>"
    page = f"<html><body><main><p>Ad</p></main>{body}</body></html>".encode()
    assert "The real article text is here." in main_content_html(page)


def test_html_declared_in_a_legacy_charset_is_decoded_by_its_meta_tag() -> None:
    page = '<html><head><meta charset="windows-1251"></head><body><p>Привет, мир</p></body>'
    assert "Привет, мир" in md(page.encode("cp1251"), "html", "ru.html")


def _pptx_with_picture(tmp_path: Path) -> bytes:
    from PIL import Image
    from pptx import Presentation
    from pptx.util import Inches

    jpeg = tmp_path / "pic.jpg"
    Image.new("RGB", (32, 32), (200, 30, 30)).save(jpeg, "JPEG")
    deck = Presentation()
    for n, title in enumerate(["Quarterly plan", "Risks"], start=1):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = title
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1))
        box.text_frame.text = f"Body of slide {n}"
        slide.shapes.add_picture(str(jpeg), Inches(1), Inches(4))
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def test_pptx_pictures_leave_no_base64_in_the_text(tmp_path: Path) -> None:
    text = md(_pptx_with_picture(tmp_path), "pptx", "deck.pptx")
    assert "Quarterly plan" in text and "Body of slide 2" in text
    assert "<!-- Slide number: 2 -->" in text
    assert "/9j/" not in text and "base64" not in text


def test_pptx_soft_line_breaks_are_line_breaks_not_control_characters() -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    # Shift+Enter in PowerPoint is <a:br/>; python-pptx reads (and writes) it as "\v".
    slide.shapes.title.text = "Harbour plan\vsecond title line"
    slide.placeholders[1].text = "Cranes arrive\vin March"
    table = slide.shapes.add_table(1, 2, Inches(1), Inches(5), Inches(4), Inches(1)).table
    table.cell(0, 0).text = "Dock\vNorth"
    table.cell(0, 1).text = "Berth 4"
    out = io.BytesIO()
    deck.save(out)
    text = md(out.getvalue(), "pptx", "plan.pptx")
    assert "\v" not in text and "\f" not in text
    # A heading or a table row would be cut short by a new line: a space keeps it whole.
    assert "# Harbour plan second title line" in text
    assert "Dock North" in text
    assert "Cranes arrive\nin March" in text


def test_a_damaged_deck_is_a_corrupt_error_naming_the_file() -> None:
    # (Workbooks no longer go through MarkItDown: see test_xlsx.py / test_xls.py.)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("ppt/presentation.xml", "this is not a presentation")
    with pytest.raises(CorruptError) as info:
        md(buf.getvalue(), "pptx", "plan.pptx")
    assert info.value.input_name == "plan.pptx"
    assert "PPTX" in str(info.value)


def test_a_kind_markitdown_is_not_used_for_is_refused() -> None:
    with pytest.raises(UnsupportedFormatError):
        md(b"%PDF-1.4", "pdf", "a.pdf")


def test_an_rss_feed_with_entity_bombs_is_not_expanded() -> None:
    lol = "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    feed = (
        f'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol0 "lol">{lol}]>'
        '<rss version="2.0"><channel><title>Feed</title><item><title>&lol9;</title>'
        "</item></channel></rss>"
    ).encode()
    try:
        text = md(feed, "rss", "bomb.xml")
    except ReadError as e:  # refusing the feed is as good as reading it unexpanded
        assert e.input_name == "bomb.xml"
    else:
        assert len(text) < 10_000 and "lollollol" not in text


def test_rss_items_come_out_as_text_not_xml() -> None:
    feed = (
        b'<?xml version="1.0"?><rss version="2.0"><channel><title>Team blog</title>'
        b"<item><title>We shipped v2</title><description>Faster search.</description></item>"
        b"</channel></rss>"
    )
    text = md(feed, "rss", "feed.xml")
    assert "We shipped v2" in text and "Faster search." in text and "<rss" not in text
