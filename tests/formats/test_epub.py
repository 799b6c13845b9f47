"""EPUB: the OPF metadata is metadata (title, people, date, language), never a block of
``**Field:**`` lines in the text; the byline and blurb a reader sees stay as text. Books
are zipped here by hand, as an EPUB writer lays them out."""

from __future__ import annotations

import io
import zipfile

import pytest

from omnireader.formats.ebook.epub import extract_epub, opf_info
from omnireader.payloads import Blob

_OPF = """<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="id">urn:uuid:0f3c6a52-5f8e-4d1e-9a37-5a1c5b0e9d11</dc:identifier>
    <dc:title>Rivers of the North</dc:title>
    <dc:creator opf:role="aut">Ana Lima</dc:creator>
    <dc:creator opf:role="bkp">calibre (5.44.0) [https://calibre-ebook.com]</dc:creator>
    <dc:language>fr</dc:language>
    <dc:date opf:event="publication">2016-04-09</dc:date>
    <dc:date opf:event="modification">2020-01-02</dc:date>
    <dc:description>A walk along five rivers.</dc:description>
  </metadata>
  <manifest>
    <item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="c1"/></spine>
</package>"""
_CHAPTER = (
    "<?xml version='1.0' encoding='utf-8'?><html xmlns='http://www.w3.org/1999/xhtml'>"
    "<head><title>One</title></head><body><h1>The Loire</h1>"
    "<p>We started at the source in spring.</p></body></html>"
)


def _epub(opf: str = _OPF) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
            'opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf"'
            ' media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        z.writestr("OPS/book.opf", opf)
        z.writestr("OPS/text/c1.xhtml", _CHAPTER)
    return buf.getvalue()


def test_the_opf_is_metadata_date_people_language() -> None:
    info = opf_info(_epub())
    assert info.title == "Rivers of the North"
    assert info.authors == ["Ana Lima"]  # the tool that packed the book is no person
    assert info.created == "2016-04-09T00:00:00+00:00"
    assert info.modified == "2020-01-02T00:00:00+00:00"
    assert info.extra["language"] == "fr"


def test_the_metadata_block_is_not_text_but_the_byline_and_blurb_are() -> None:
    doc = extract_epub(Blob(data=_epub(), filename="rivers.epub"))
    [section] = list(doc.sections)
    assert "**Identifier:**" not in section.text and "urn:uuid" not in section.text
    assert "**Title:**" not in section.text and "**Language:**" not in section.text
    assert section.text.startswith("By Ana Lima\n\nA walk along five rivers.")
    assert "We started at the source in spring." in section.text
    assert doc.info.created == "2016-04-09T00:00:00+00:00"


def test_a_book_without_a_container_still_finds_its_package() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("content.opf", _OPF)
    assert opf_info(buf.getvalue()).title == "Rivers of the North"
    assert opf_info(b"not a zip").title is None


def test_the_markitdown_corpus_book_keeps_what_must_be_found() -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[2].parent / "shared/corpus/markitdown/test.epub"
    if not path.is_file():
        pytest.skip("the shared MarkItDown corpus is absent")
    [section] = list(extract_epub(Blob(path=str(path))).sections)
    for fragment in (
        "Test Author",
        "A test EPUB document for MarkItDown testing",
        "Chapter 1: Test Content",
        "This is a blockquote for testing",
    ):
        assert fragment in section.text
    assert "test-book-id" not in section.text


def test_chapters_follow_the_spine_and_leave_out_the_navigation() -> None:
    opf = _OPF.replace(
        '<item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/>',
        '<item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/>'
        '<item id="c2" href="text/a%20two.xhtml" media-type="application/xhtml+xml"/>'
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    ).replace(
        '<spine><itemref idref="c1"/></spine>',
        '<spine><itemref idref="nav"/><itemref idref="c2"/><itemref idref="c1"/></spine>',
    )
    buf = io.BytesIO(_epub(opf))
    with zipfile.ZipFile(buf, "a") as z:  # "a two" sorts before "c1": the spine decides
        z.writestr("OPS/text/a two.xhtml", _CHAPTER.replace("The Loire", "The Rhone"))
        z.writestr("OPS/nav.xhtml", "<html><body><nav><a>The Loire</a></nav></body></html>")
    [section] = list(extract_epub(Blob(data=buf.getvalue(), filename="b.epub")).sections)
    assert section.text.count("The Loire") == 1  # the table of contents is not read
    assert section.text.index("# The Rhone") < section.text.index("# The Loire")


def test_a_book_without_a_spine_is_read_from_its_pages_in_name_order() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("b.xhtml", _CHAPTER.replace("The Loire", "Second"))
        z.writestr("a.xhtml", _CHAPTER.replace("The Loire", "First"))
    [section] = list(extract_epub(Blob(data=buf.getvalue(), filename="b.epub")).sections)
    assert section.text.index("First") < section.text.index("Second")
