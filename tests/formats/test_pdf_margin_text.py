"""Text turned sideways in a page's side margin (an arXiv identifier running up the left
edge, a publisher's strip down the right one) is read as one line of its own, apart from
the body: it never breaks a paragraph or the reading order, and it comes out once, as the
document's header part, on every page alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "tables"
STAMP = "arXiv:2401.01234v2 [cs.CL] 5 Jan 2024"
LINES = [
    "The quick brown fox jumps over the lazy dog near the riverbank while the",
    "farmer watches from his porch and wonders whether rain will come before",
    "the harvest is finished, as it did in the spring of the year before when",
    "all of the barley was lost to the floods that swept through the valley.",
]


def read(pages: list[list[Text]]) -> list[Section]:
    with extract_pdf(Blob(data=build_pdf(pages)), layout=True) as doc:
        return list(doc.sections)


def body_text(sections: list[Section]) -> str:
    return "\n\n".join(s.text for s in sections if s.part is None)


def test_an_identifier_up_the_left_margin_leaves_the_paragraphs_whole() -> None:
    # arXiv stamps its identifier up the first page's left margin, in large type, level
    # with the body's lines: each letter used to join the body line at its height.
    page = [Text(72, 80, "A Study of Margins", 18, bold=True)]
    for p in range(5):
        page += paragraph(72, 130 + 70 * p, LINES, size=11, leading=13)
    page.append(Text(34, 560, STAMP, 20, turn=90))
    sections = read([page])
    body = body_text(sections)
    assert body.count(" ".join(LINES)) == 5  # every paragraph whole, nothing inside
    assert "arXiv" not in body and "\n\nr\n\n" not in body
    assert [s.text for s in sections if s.part == "header"] == [STAMP]


def test_two_columns_beside_a_turned_margin_line_are_read_column_by_column() -> None:
    left = [f"Left column, line {i}: set as a narrow column is," for i in range(6)]
    right = [f"Right column, line {i}: it goes on from the left." for i in range(5)]
    page = []
    for p in range(3):
        page += paragraph(72, 100 + 90 * p, [f"{line} {p}" for line in left], leading=12)
        page += paragraph(320, 110 + 75 * p, [f"{line} {p}" for line in right], leading=12)
    page.append(Text(40, 420, STAMP, 16, turn=90))
    paragraphs = body_text(read([page])).split("\n\n")
    assert paragraphs == [" ".join(f"{line} {p}" for line in left) for p in range(3)] + [
        " ".join(f"{line} {p}" for line in right) for p in range(3)
    ]


def test_a_strip_down_the_right_margin_of_every_page_is_furniture_once() -> None:
    # A publisher's strip down the right edge of every page; the paragraph the first page
    # ends in mid-sentence still goes on at the top of the next.
    strip = "Downloaded from https://journal.example.org by guest on 5 May 2024"
    first = [*LINES[:3], "all of the barley was lost to the"]
    pages = [
        paragraph(72, 120, LINES) + paragraph(72, 620, first),
        paragraph(72, 120, ["floods that swept through the valley in a single night."])
        + paragraph(72, 200, LINES),
        paragraph(72, 120, LINES),
    ]
    for page in pages:
        page.append(Text(572, 150, strip, 9, turn=270))
    sections = read(pages)
    body = body_text(sections)
    assert "Downloaded" not in body and "guest" not in body
    assert "all of the barley was lost to the floods that swept through the valley" in body
    assert [s.text for s in sections if s.part == "header"] == [strip]


def test_invisible_turned_text_in_the_margin_stays_hidden() -> None:
    # Text the page never shows (render mode 3) is left out of the page's words; turned in
    # a margin it is left out of the header too.
    page = paragraph(72, 130, LINES, size=11, leading=13)
    page.append(Text(34, 560, STAMP, 20, turn=90, invisible=True))
    sections = read([page])
    assert body_text(sections) == " ".join(LINES)
    assert not [s for s in sections if s.part == "header"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_a_page_number_upright_on_a_page_turned_for_its_table_stays_out_of_the_table() -> None:
    # camelot's anticlockwise_table_2.pdf: the table runs up the page, its page number "54"
    # stands upright at the foot; read turned, the number lies in the margin beside the
    # table, and used to open a row ("5 4 1 son").
    with extract_pdf(
        Blob(data=(CORPUS / "anticlockwise_table_2.pdf").read_bytes()), layout=True
    ) as doc:
        sections = list(doc.sections)
    body = body_text(sections)
    assert "| 1 son | 66.8 |" in body and "5 4" not in body
    assert [s.text for s in sections if s.part == "header"] == ["54"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_turned_column_heads_inside_a_table_stay_in_it() -> None:
    # Guard: text turned among the upright words is no margin text (vertical_header.pdf's
    # candidate names run up their columns' heads).
    with extract_pdf(Blob(data=(CORPUS / "vertical_header.pdf").read_bytes()), layout=True) as doc:
        sections = list(doc.sections)
    first = next(s.text for s in sections if s.part is None)
    assert "| Number of Registered voters | Poll Book Totals | Brian Calley |" in first
    assert all("Calley" not in s.text for s in sections if s.part == "header")


def test_without_the_compiled_loops_the_stamp_is_still_found() -> None:
    # A machine without a C compiler probes every eighth character's angle (each one is a
    # ctypes call there): a stamp is one text object's run of glyphs, so it is still seen.
    from omnireader.formats.layout import pdfium_calls

    page = []
    for p in range(3):
        page += paragraph(72, 130 + 70 * p, LINES, size=11, leading=13)
    page.append(Text(34, 400, STAMP, 20, turn=90))
    built, pdfium_calls.loops = pdfium_calls.loops, None  # the documented switch
    try:
        sections = read([page])
    finally:
        pdfium_calls.loops = built
    assert body_text(sections).count(" ".join(LINES)) == 3
    assert [s.text for s in sections if s.part == "header"] == [STAMP]
