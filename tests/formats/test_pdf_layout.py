"""The PDF layout stage on PDFs made here: words, reading order, reflow, headings, running
headers and footers, tables in place, bounds, and what reaches items."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omnireader.formats.document import LAYOUT_FAILED, Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Line, Text, build_pdf, paragraph, with_outline

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def sections(pdf: bytes, layout: bool = True) -> list[Section]:
    with extract_pdf(Blob(data=pdf), layout=layout) as doc:
        return list(doc.sections)


def body(pdf: bytes) -> list[Section]:
    return [s for s in sections(pdf) if s.part is None]


LEFT = [
    "Alpha one starts the left column and",
    "alpha two carries on below it with",
    "alpha three ending the left column.",
]
RIGHT = [
    "Bravo one starts the right column and",
    "bravo two carries on below it with",
    "bravo three ending the right column.",
]


def two_columns() -> bytes:
    items: list[Text | Line] = [Text(72, 80, "A Title Across Both Columns", 18, bold=True)]
    items += paragraph(72, 130, LEFT)
    items += paragraph(320, 130, RIGHT)
    # A second paragraph in each column, starting at the same height in both: a gap that
    # lines up across the columns must not interleave them.
    items += paragraph(72, 190, ["Alpha four is the second left paragraph."])
    items += paragraph(320, 190, ["Bravo four is the second right paragraph."])
    closing = (
        "A closing line that runs across the whole page width, "
        "below both of the columns, read last of all."
    )
    items += paragraph(72, 260, [closing])
    return build_pdf([items])


def test_two_columns_are_read_one_after_the_other_and_full_width_blocks_stay_in_place() -> None:
    [page] = body(two_columns())
    text = page.text
    order = [
        text.index(s)
        for s in (
            "A Title",
            "Alpha one",
            "alpha three",
            "Alpha four",
            "Bravo one",
            "bravo three",
            "Bravo four",
            "A closing",
        )
    ]
    assert order == sorted(order), text
    assert text.startswith("# A Title Across Both Columns\n\n")
    # Each column's lines are one paragraph again.
    assert "Alpha one starts the left column and alpha two carries on" in text


def test_layout_off_gives_the_plain_text_layer() -> None:
    [page] = sections(two_columns(), layout=False)
    assert "#" not in page.text and page.blocks == [] and page.heading_path == []
    assert "Alpha one starts the left column and" in page.text.splitlines()[1]


def test_a_page_of_text_blocks_and_a_table_starts_top_left() -> None:
    # A ruled table at the top left, a note beside it on the right, text below.
    items: list[Text | Line] = []
    xs, ys = [72, 172, 272], [72, 92, 112, 132]
    for y in ys:
        items.append(Line(xs[0], y, xs[-1], y))
    for x in xs:
        items.append(Line(x, ys[0], x, ys[-1]))
    cells = [["Item", "Count"], ["Bolts", "40"], ["Nuts", ""]]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell:
                items.append(Text(xs[c] + 4, ys[r] + 14, cell, 10))
    items += paragraph(340, 80, ["A note at the top right of the", "page, beside the table."])
    items += paragraph(72, 400, ["Closing text at the bottom left, under everything else."])
    [page] = body(build_pdf([items]))
    kinds = [b["kind"] for b in page.blocks]
    text = page.text
    assert text.index("Item") < text.index("A note") < text.index("Closing"), text
    if "table" in kinds:  # the tables helper's finder is there
        assert kinds[0] == "table"
        assert "| Nuts |  |" in text  # the empty cell kept
    else:
        assert text.index("Item") < text.index("Bolts")


def test_line_end_hyphens_go_only_where_the_joined_word_is_a_word() -> None:
    lines = [
        "The open and the domain of this text are two words we use here, as is conversation.",
        "We model the open-",
        "domain questions of a long conver-",
        "sation between two people in a room.",
    ]
    [page] = body(build_pdf([paragraph(72, 100, lines[:1]) + paragraph(72, 140, lines[1:])]))
    assert "open-domain questions" in page.text
    assert "long conversation between" in page.text


def test_ligatures_are_expanded() -> None:
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    pdf = build_pdf(
        [[Text(72, 100, "Some di\ufb03culties with the \ufb02ow of \ufb01les.", 12)]],
        font_file=DEJAVU.read_bytes(),
    )
    [page] = body(pdf)
    assert "difficulties with the flow of files" in page.text


@pytest.mark.parametrize("gap", [2.2, 3.0, 8.0])
def test_two_numbers_in_two_text_objects_stay_two_words(gap: float) -> None:
    import pypdfium2 as pdfium

    from omnireader.formats.layout.words import page_words

    # Two table cells, "400.01" and "3", drawn a small gap apart: never one number.
    width = 10 * (5 * 0.556 + 0.278)  # Helvetica's advances for "400.01" at 10 pt
    pdf = build_pdf([[Text(100, 100, "400.01"), Text(100 + width + gap, 100, "3")]])
    doc = pdfium.PdfDocument(pdf)
    page = doc[0]
    words = page_words(page, page.get_textpage())
    assert [w.text for w in words] == ["400.01", "3"]
    assert words[0].x1 < words[1].x0


def test_headings_come_from_size_weight_and_numbering_with_levels() -> None:
    items: list[Text | Line] = [Text(72, 72, "Annual Report", 22, bold=True)]
    items += [Text(72, 110, "1 Introduction", 14, bold=True)]
    items += paragraph(
        72,
        130,
        [
            "Body text of the introduction, set in the body size,",
            "running over two lines of the page here.",
        ],
    )
    items += [Text(72, 175, "1.2 Scope", 11, bold=True)]
    items += paragraph(
        72,
        195,
        [
            "Body text of the scope section, set in the body size,",
            "which also runs over two lines of the page.",
        ],
    )
    [page] = body(build_pdf([items]))
    text = page.text
    assert "# Annual Report" in text.splitlines()
    assert "# 1 Introduction" in text.splitlines()
    assert "## 1.2 Scope" in text.splitlines()
    assert not re.search(r"^#+ Body", text, re.MULTILINE)
    assert page.heading_path == ["1 Introduction"]


BODY = [
    "Body text under the headings, set in the regular body size of the page,",
    "running over several lines so that the body size is the one most text has,",
    "and ending here with a full stop at the end of its last line of all.",
]


def headings_of(pdf: bytes) -> list[str]:
    return [line for s in body(pdf) for line in s.text.splitlines() if line.startswith("#")]


def test_two_bold_headings_a_blank_line_apart_stay_two_headings() -> None:
    # "ITEM 1. Business" then, a blank line below, its first subsection: a heading wraps
    # at its column's edge, and this one left room for the next line's first word.
    items: list[Text | Line] = [Text(72, 72, "Item 1. Business", 10, bold=True)]
    items += [Text(72, 94, "General", 10, bold=True)]
    items += paragraph(72, 116, BODY)
    assert headings_of(build_pdf([items])) == ["# Item 1. Business", "##### General"]


def test_a_bold_heading_under_a_tightly_set_paragraph_is_its_own() -> None:
    # Lines 9 points apart in a 10-point font: their boxes (ascent to descent) overlap,
    # so the paragraph's widest gap between lines is below zero; a paragraph's space
    # further down still ends it, and the bold line there heads the next paragraph (its
    # last line the longest: no short line says it ended).
    lines = [
        *BODY[:2],
        "and ending here with a full stop at the end of the very last line of it all.",
    ]
    items: list[Text | Line] = [*paragraph(72, 72, lines, leading=9.0)]
    items += [Text(72, 72 + 2 * 9 + 20, "Description of Business", 10, bold=True)]
    items += paragraph(72, 72 + 2 * 9 + 40, BODY, leading=9.0)
    text = body(build_pdf([items]))[0].text
    assert "##### Description of Business" in text.splitlines()
    assert "line of it all. Description" not in text


def test_a_bold_sentence_announcing_what_follows_is_no_heading() -> None:
    # Bold at the body's size, a blank line above and below: a lead-in ending in a colon
    # is text; a title ending in one capitalises its words.
    items: list[Text | Line] = [Text(72, 72, "Risks Relating to Our Business:", 10, bold=True)]
    items += paragraph(72, 94, BODY)
    items += [Text(72, 150, "Our net sales by segment were as follows:", 10, bold=True)]
    items += paragraph(72, 172, BODY)
    assert headings_of(build_pdf([items])) == ["##### Risks Relating to Our Business:"]


def test_a_heading_in_another_font_directly_above_a_heading_is_its_own() -> None:
    items: list[Text | Line] = [
        Text(72, 72, "Critical Accounting Policies", 10, font="Helvetica-BoldOblique"),
        Text(72, 84, "Contract Accounting", 10, bold=True),
    ]
    items += paragraph(72, 106, BODY)
    assert headings_of(build_pdf([items])) == [
        "##### Critical Accounting Policies",
        "##### Contract Accounting",
    ]


def test_a_bold_subtitle_a_point_smaller_is_a_heading_under_its_title() -> None:
    items: list[Text | Line] = [
        Text(72, 72, "Consolidated Statements of Income", 10.5, bold=True),
        Text(72, 85, "Example Corporation and Subsidiaries", 10, bold=True),
    ]
    items += paragraph(72, 106, BODY)
    assert headings_of(build_pdf([items])) == [
        "#### Consolidated Statements of Income",
        "##### Example Corporation and Subsidiaries",
    ]


def test_a_long_bold_heading_wrapped_at_the_column_edge_stays_one_heading() -> None:
    items: list[Text | Line] = [
        Text(72, 72, "Management's Discussion and Analysis of Financial Condition and", 10, True),
        Text(72, 94, "Results of Operations", 10, bold=True),
    ]
    items += paragraph(72, 116, BODY)
    assert headings_of(build_pdf([items])) == [
        "##### Management's Discussion and Analysis of Financial Condition and Results of Operations"
    ]


def test_a_bold_sentence_a_little_larger_than_the_body_is_a_heading() -> None:
    # Risk factors are headed by a sentence, in bold a point above the body; a bold
    # sentence in the body's own size stays a paragraph.
    items: list[Text | Line] = [
        Text(72, 72, "We face significant competition that may reduce our profits.", 10.5, True)
    ]
    items += paragraph(72, 94, BODY)
    items += [Text(72, 150, "Please read this whole section before you invest in us.", 10, True)]
    items += paragraph(72, 172, BODY)
    assert headings_of(build_pdf([items])) == [
        "#### We face significant competition that may reduce our profits."
    ]


def test_the_outline_gives_headings_and_the_path_carries_across_pages() -> None:
    page1 = [Text(72, 72, "Overview", 10)] + paragraph(
        72, 100, ["Plain body text under the overview heading, in one size."] * 3
    )
    page2 = paragraph(72, 72, ["More body text on the second page, still the overview."] * 3)
    page3 = [Text(72, 72, "Details", 10)] + paragraph(
        72, 100, ["Body text of the details part on the third page."] * 3
    )
    pdf = with_outline(build_pdf([page1, page2, page3]), [("Overview", 1, 0), ("Details", 2, 2)])
    pages = body(pdf)
    assert pages[0].text.startswith("# Overview\n\n")
    assert pages[1].heading_path == ["Overview"] and not pages[1].text.startswith("#")
    assert pages[2].text.startswith("## Details\n\n")
    assert pages[2].heading_path == ["Overview", "Details"]


def report(pages: int = 6) -> bytes:
    out = []
    for n in range(1, pages + 1):
        items: list[Text | Line] = [Text(72, 40, "ACME Corporation - Annual Report 2024", 8)]
        items += paragraph(
            72,
            120,
            [
                f"Body text of page {n}, which is different on each",
                f"page of the report (this is page number {n}).",
            ],
        )
        items.append(Text(300, 760, f"Page {n} of {pages}", 8))
        out.append(items)
    return build_pdf(out)


def test_running_headers_and_footers_are_kept_apart_and_page_numbers_become_labels() -> None:
    all_sections = sections(report())
    pages = [s for s in all_sections if s.part is None]
    headers = [s for s in all_sections if s.part == "header"]
    assert len(pages) == 6
    for n, page in enumerate(pages, start=1):
        assert "ACME" not in page.text and "of 6" not in page.text
        assert page.page_label == str(n)
        assert f"Body text of page {n}" in page.text
    # Once for the document, like a DOCX header, not once per page.
    assert [h.text for h in headers] == ["ACME Corporation - Annual Report 2024"]


def test_a_page_number_printed_a_line_below_the_text_is_the_pages_label() -> None:
    # A filing rendered from HTML prints its page number a line under the text, wherever
    # the text ends (here below the page's middle), so not at one height on every page.
    out = []
    for n, lines in enumerate([3, 9, 5], start=1):
        text = [f"Line {k} of the text on page {n}, running the whole width." for k in range(lines)]
        text.append("and its last line, which ends past the middle.")
        items: list[Text | Line] = [*paragraph(72, 400, text)]
        items.append(Text(185, 400 + 12 * (lines + 1), str(n + 40), 10))  # under its middle
        out.append(items)
    pages = [s for s in sections(build_pdf(out)) if s.part is None]
    assert [p.page_label for p in pages] == ["41", "42", "43"]
    for p in pages:
        assert not re.search(r"\b4[123]\b", p.text), p.text


def test_items_carry_blocks_heading_path_and_page_label() -> None:
    items = FileParser().parse_fast(Blob(data=report(3)), ParseContext())
    pages = [i for i in items if "section" not in i.metadata.extra]
    assert len(pages) == 3
    extra = pages[0].metadata.extra
    assert extra["page_label"] == "1"
    blocks = extra["layout_blocks"]
    assert blocks and blocks[0]["kind"] == "paragraph"
    x0, y0, x1, y1 = blocks[0]["box"]
    assert 0 < x0 < x1 <= 1 and 0 < y0 < y1 <= 1
    header = [i for i in items if i.metadata.extra.get("section") == "header"]
    assert len(header) == 1 and header[0].id not in {p.id for p in pages}


def test_read_options_layout_off_gives_todays_text() -> None:
    ctx = ParseContext(options=ReadOptions(layout=False))
    items = FileParser().parse_fast(Blob(data=report(3)), ctx)
    assert len(items) == 3 and all("ACME" in i.memory for i in items)
    assert all("layout_blocks" not in i.metadata.extra for i in items)


def test_a_page_of_too_many_glyphs_keeps_its_plain_text_flagged() -> None:
    from omnireader.formats.layout.words import MAX_CHARS

    glyphs = "x" * (MAX_CHARS // 50 + 1)
    items = [Text(10, 10 + i * 0.5, glyphs, 0.4) for i in range(55)]
    [page] = body(build_pdf([items + [Text(72, 700, "The last words.", 10)]]))
    assert LAYOUT_FAILED in page.flags
    assert "The last words." in page.text and page.blocks == []


def test_the_items_of_a_page_whose_layout_failed_say_so_as_ocr_items_do() -> None:
    from omnireader.formats.layout.words import MAX_CHARS

    glyphs = "x" * (MAX_CHARS // 50 + 1)
    items = [Text(10, 10 + i * 0.5, glyphs, 0.4) for i in range(55)]
    pdf = build_pdf(
        [items + [Text(72, 700, "The last words.", 10)], paragraph(72, 72, ["A page laid out."])]
    )
    failed, *rest = FileParser().parse_fast(Blob(data=pdf), ParseContext())
    assert failed.metadata.flags == [LAYOUT_FAILED]
    assert rest and all(i.metadata.flags == [] for i in rest)  # the next page was laid out


def test_a_page_of_ten_thousand_rules_is_still_read() -> None:
    items: list[Text | Line] = [
        Line(20 + (i % 100) * 5, 20 + (i // 100) * 7, 22 + (i % 100) * 5, 20 + (i // 100) * 7)
        for i in range(10_000)
    ]
    items += paragraph(72, 740, ["Text under a page of hatching."])
    [page] = body(build_pdf([items]))
    assert "Text under a page of hatching." in page.text


def ruled_table(
    x0: float, y0: float, rows: list[list[str]], col: float = 100, row: float = 20
) -> list[Text | Line]:
    items: list[Text | Line] = []
    ncols = max(len(r) for r in rows)
    for r in range(len(rows) + 1):
        items.append(Line(x0, y0 + r * row, x0 + ncols * col, y0 + r * row))
    for c in range(ncols + 1):
        items.append(Line(x0 + c * col, y0, x0 + c * col, y0 + len(rows) * row))
    for r, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            if cell:
                items.append(Text(x0 + c * col + 4, y0 + r * row + 14, cell, 10))
    return items


def test_a_table_running_onto_the_next_page_repeats_its_header_there() -> None:
    first = paragraph(72, 80, ["Stock at the end of the year, by item, in the table below."])
    first += ruled_table(
        72,
        600,
        [["Item", "Count"], ["Bolts", "40"], ["Nuts", "12"], ["Screws", "7"], ["Washers", "90"]],
    )
    second = ruled_table(72, 60, [["Rivets", "3"], ["Pins", "5"], ["Clips", "8"]])
    second += paragraph(72, 200, ["That is the whole stock at the end of the year, all items."])
    pages = body(build_pdf([first, second]))
    kinds = [b["kind"] for b in pages[1].blocks]
    if "table" not in kinds:
        pytest.skip("no table finder")
    text = pages[1].text
    assert text.startswith("*(table continued from page 1)*")
    assert "| Item | Count |" in text and text.index("| Item | Count |") < text.index(
        "| Rivets | 3 |"
    )


def test_read_markdown_shows_the_structure_and_layout_off_the_plain_text(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "report.pdf"
    path.write_bytes(report(4))
    root = Path(__file__).resolve().parents[2]

    def read(*extra: str) -> str:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "omnireader",
                "read",
                str(path),
                "--format",
                "markdown",
                "--no-progress",
                *extra,
            ],
            capture_output=True,
            text=True,
            cwd=root,
            check=True,
            timeout=120,
        )
        return done.stdout

    on, off = read(), read("--layout", "off")
    assert on.count("ACME Corporation") == 1  # the running header, once, apart
    assert off.count("ACME Corporation") == 4  # on every page, as the text layer has it
    assert "Body text of page 3, which is different on each page" in on


def test_the_heading_path_reaches_item_metadata() -> None:
    page1 = [Text(72, 72, "Overview", 16, bold=True)] + paragraph(
        72, 100, ["Plain body text under the overview heading, in one size."] * 3
    )
    page2 = paragraph(72, 72, ["More body text on the second page, still the overview."] * 3)
    items = FileParser().parse_fast(Blob(data=build_pdf([page1, page2])), ParseContext())
    assert [i.metadata.extra.get("heading_path") for i in items] == [["Overview"], ["Overview"]]
    assert items[1].metadata.extra["heading"] == "Overview"


def test_a_layout_that_lost_text_counts_as_failed() -> None:
    from omnireader.formats.layout.model import Block, PageLayout
    from omnireader.formats.layout.page import LayoutFailed
    from omnireader.formats.layout.stream import _check_kept

    layout = PageLayout(612, 792, [Block("paragraph", "Kept words here", 0, 0, 10, 10)])
    _check_kept(layout, "Kept words\nhere")
    with pytest.raises(LayoutFailed, match="characters"):
        _check_kept(layout, "Kept words here and a table the finder dropped: 1 2 3 4")


def test_a_heading_down_the_page_replaces_the_carried_path_at_its_level() -> None:
    # Page 2 carries on "1.1 Scope" from page 1, then opens "2 Methods": a sibling of
    # "1 Overview", not a section inside "1.1 Scope". (Sections too long to merge.)
    def lines(what: str) -> list[str]:
        words = "with enough plain words in it to fill out a line of the page"
        return [f"Line {k} of {what} {words}." for k in range(18)]

    page1 = [Text(72, 72, "1 Overview", 14, bold=True)] + paragraph(72, 100, lines("one"))
    page1 += [Text(72, 340, "1.1 Scope", 11, bold=True)] + paragraph(72, 365, lines("two"))
    page2 = paragraph(72, 72, lines("three")) + [Text(72, 320, "2 Methods", 14, bold=True)]
    page2 += paragraph(72, 345, lines("four"))
    items = FileParser().parse_fast(Blob(data=build_pdf([page1, page2])), ParseContext())
    paths = {i.memory.split(" of ")[1].split()[0]: i.metadata.extra["heading_path"] for i in items}
    assert paths == {
        "one": ["1 Overview"],
        "two": ["1 Overview", "1.1 Scope"],
        "three": ["1 Overview", "1.1 Scope"],
        "four": ["2 Methods"],
    }


def test_a_reference_list_with_hanging_indents_is_one_paragraph_an_entry() -> None:
    # Each entry's lines hang under its first; a word broken at a line end is joined.
    entries = [
        [
            "Chunyuan Deng, Yilun Zhao, Xiangru Tang, Mark Ger-",
            "stein, and Arman Cohan. 2023. Investigating data contamination",
            "in modern benchmarks.",
        ],
        ["Maybe a short entry of one line.", None],
        [
            "Mohammad Fraiwan and Natheer Khasawneh. 2023. A review of",
            "chatgpt applications in education, marketing, software engi-",
            "neering, and healthcare. arXiv preprint arXiv:2305.00237.",
        ],
        [
            "Trevor Gale, Deepak Narayanan, Cliff Young, and Matei Zaharia.",
            "2023. Megablocks: Efficient sparse training with mixture-of-",
            "experts. Proceedings of Machine Learning and Systems, 5.",
        ],
    ]
    items: list[Text | Line] = []
    y = 72.0
    for entry in entries:
        for k, line in enumerate(t for t in entry if t):
            items.append(Text(72 if k == 0 else 84, y, line, 10))
            y += 12
    [page] = body(build_pdf([items]))
    assert page.text.split("\n\n") == [
        "Chunyuan Deng, Yilun Zhao, Xiangru Tang, Mark Gerstein, and Arman Cohan. 2023. "
        "Investigating data contamination in modern benchmarks.",
        "Maybe a short entry of one line.",
        "Mohammad Fraiwan and Natheer Khasawneh. 2023. A review of chatgpt applications in "
        "education, marketing, software engineering, and healthcare. arXiv preprint "
        "arXiv:2305.00237.",
        "Trevor Gale, Deepak Narayanan, Cliff Young, and Matei Zaharia. 2023. Megablocks: "
        "Efficient sparse training with mixture-of-experts. Proceedings of Machine Learning "
        "and Systems, 5.",
    ]


def _width(text: str, size: float = 10.0) -> float:
    import pypdfium2 as pdfium

    textpage = pdfium.PdfDocument(build_pdf([[Text(0, 100, text, size)]]))[0].get_textpage()
    textpage.count_rects()
    left, _, right, _ = textpage.get_rect(0)
    return float(right - left)


def test_centred_lines_are_not_read_as_a_hanging_indent() -> None:
    # An address centred under a name: each line its own, not one paragraph.
    lines = [
        "The Law Library of Congress, Global Legal Research Directorate",
        "(202) 707-5080 - law@loc.gov - http://www.law.gov",
    ]
    items = [Text(306 - _width(t) / 2, 72 + 12 * k, t, 10) for k, t in enumerate(lines)]
    [page] = body(build_pdf([items]))
    assert page.text.split("\n\n") == lines


def test_a_line_set_far_right_above_a_paragraph_is_not_its_first_line() -> None:
    # A filing's "Table of Contents" link, right-aligned over the page's text.
    body_lines = [
        "For the remainder of the year, we expect demand to stay soft across all of the industry,",
        "and in particular our customers face the pressures of inflation and higher rates.",
    ]
    items = [Text(400, 60, "Table of Contents", 10)] + paragraph(72, 73, body_lines)
    [page] = body(build_pdf([items]))
    assert page.text.split("\n\n")[0] == "Table of Contents"
