"""Page shape on PDFs drawn here: columns with a narrow gutter, and what is
and is not a heading (formulas, contents lines, bold lead-ins, dates, running headers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Line, Text, build_pdf, paragraph, tall_metrics_font


def markdown(pdf: bytes) -> str:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        sections: list[Section] = list(doc.sections)
    return "\n\n".join(s.text for s in sections if s.part is None)


def headings(pdf: bytes) -> list[str]:
    return [line.lstrip("# ") for line in markdown(pdf).splitlines() if line.startswith("#")]


def body(y: float = 200, count: int = 8, x: float = 72) -> list[Text]:
    """A paragraph of body text, enough of it to set the body size."""
    lines = [
        f"Body line {i} of the report says what it has to say in plain words." for i in range(count)
    ]
    return paragraph(x, y, lines)


def right_edge(items: list[Text]) -> float:
    """Where the text of ``items`` ends on the right, as PDFium measures it."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(build_pdf([items]))[0]
    textpage = page.get_textpage()
    return max(textpage.get_charbox(i)[2] for i in range(textpage.count_chars()))


def columns(top: float, count: int, gutter: float) -> list[Text]:
    """Two columns of ``count`` lines whose texts stand ``gutter`` points apart."""
    left = paragraph(72, top, [f"alpha line {i} runs right to the edge" for i in range(count)])
    x = right_edge(left) + gutter
    return left + paragraph(x, top, [f"bravo line {i} keeps to its own side" for i in range(count)])


def test_two_columns_a_justified_gap_apart_read_column_by_column() -> None:
    # The gutter (12 pt) is narrower than the widest gap a line may hold (1.6 em at 10 pt):
    # by gaps alone the two columns zip into one line each.
    text = markdown(build_pdf([columns(100, 12, 12.0)]))
    # Zipped, every line would run "… edge bravo …"; read by column, only the left column's
    # last line runs on into the right one's first (no sentence ends there: one paragraph).
    assert text.count("edge bravo") <= 1
    assert text.index("alpha line 11") < text.index("bravo line 0")


def test_a_full_width_table_above_does_not_hide_the_columns_below() -> None:
    rows = [
        Text(
            72,
            80 + 12 * i,
            f"Row {i} label spanning the page, with its figures 1{i}.0 and 2{i}.5 and 3{i}.75",
        )
        for i in range(6)
    ]
    text = markdown(build_pdf([rows + columns(200, 10, 12.0)]))
    assert text.count("edge bravo") <= 1  # (see above: a column break, not a zip)
    assert text.index("alpha line 9") < text.index("bravo line 0")


def test_a_title_much_larger_than_the_body_is_a_heading_even_with_a_period() -> None:
    items = [Text(72, 100, "Observations from the Space Telescope (SST).", 16)] + body(140)
    assert headings(build_pdf([items])) == ["Observations from the Space Telescope (SST)."]


def test_a_paragraph_led_in_by_a_bold_phrase_is_no_heading() -> None:
    items = [
        Text(72, 100, "Ablation on the base models.", 10, bold=True),
        Text(215, 100, "We start", 10),
    ] + body(112)
    assert headings(build_pdf([items])) == []


def test_contents_lines_with_leaders_are_no_headings() -> None:
    entries = [f"Chapter {n} Measurement lab ........................ {n * 3}" for n in range(1, 6)]
    items = [Text(72, 100 + 14 * i, e, 10, bold=True) for i, e in enumerate(entries)] + body(200)
    assert headings(build_pdf([items])) == []


def test_big_symbols_of_a_formula_make_no_heading() -> None:
    # A large operator set beside a line of the body: the joined row is body text.
    items = body(100) + [
        Text(72, 220, "\u2211 \u220f", 18),
        Text(110, 220, "for the cases m 2 (light", 10),
    ]
    assert headings(build_pdf([items])) == []


def test_a_date_alone_under_a_title_is_no_heading() -> None:
    items = [
        Text(72, 100, "Restrictions on Land Ownership", 20, bold=True),
        Text(72, 140, "June 2023", 14),
    ] + body(180)
    assert headings(build_pdf([items])) == ["Restrictions on Land Ownership"]


def test_a_running_header_in_the_top_margin_is_text_not_a_heading() -> None:
    items = (
        [Text(72, 40, "MOHAVE COMMUNITY COLLEGE BIO181", 16)]
        + [Text(72, 100, "Procedure:", 12, bold=True)]
        + body(120)
    )
    pdf = build_pdf([items])
    assert headings(pdf) == ["Procedure:"]
    assert "MOHAVE COMMUNITY COLLEGE" in markdown(pdf)


def test_a_letterhead_set_large_is_text_though_its_foot_passes_the_top_margin() -> None:
    # Its middle is in the top 7% of the page, its bottom (baseline at 57 pt of 792) past it.
    items = [
        Text(72, 57, "NORTHERN VALLEY INSTITUTE", 18),
        Text(72, 100, "Procedure:", 12, bold=True),
    ]
    pdf = build_pdf([items + body(120)])
    assert headings(pdf) == ["Procedure:"]
    assert "NORTHERN VALLEY INSTITUTE" in markdown(pdf)


def test_a_tex_bold_face_is_bold() -> None:
    # TeX's bold (CMBX12) says so in no weight and no "Bold": its name is the sign. The
    # face here is a regular one renamed, so only the name can make it bold.
    items = [Text(72, 100, "Functional Abstraction", 10, font="Times-Roman")] + body(120)
    pdf = build_pdf([items]).replace(b"/Times-Roman", b"/CMBX12    ")
    assert headings(pdf) == ["Functional Abstraction"]
    assert re.search(r"^#+ Functional Abstraction$", markdown(pdf), re.M)


def test_in_a_longer_document_a_heading_at_the_top_of_a_page_stays_a_heading() -> None:
    # Filings set a section's heading in the top margin of its page; there, repetition
    # across pages (furniture) tells running headers apart, not the band.
    pages = [
        body(100, 12),
        [Text(72, 30, "Item 2. Properties", 11, bold=True)] + body(60, 12),
    ]
    assert headings(build_pdf(pages)) == ["Item 2. Properties"]


def ruled_grid(top: float, rows: int, cols: int, height: float = 24.0) -> list[Text | Line]:
    """A ruled table of ``rows`` × ``cols`` cells, each holding a few words at 10 pt."""
    xs = [72 + 150 * c for c in range(cols + 1)]
    ys = [top + height * r for r in range(rows + 1)]
    items: list[Text | Line] = [Line(xs[0], y, xs[-1], y) for y in ys]
    items += [Line(x, ys[0], x, ys[-1]) for x in xs]
    for r in range(rows):
        for c in range(cols):
            items.append(Text(xs[c] + 4, ys[r] + 16, f"cell {r}.{c} of the grid", 10))
    return items


def test_a_page_that_is_one_table_under_its_title_keeps_the_title_as_a_heading() -> None:
    # Most of the page's text is in the table: the title alone outside it must not be
    # taken for the body size (it would then be no larger than the body).
    title = [Text(72, 80, "Three packs that process unstructured data", 22)]
    pdf = build_pdf([title + ruled_grid(120, 6, 3)])
    assert "| cell 0.0 of the grid |" in markdown(pdf)
    assert headings(pdf) == ["Three packs that process unstructured data"]


def test_a_kicker_above_a_larger_title_is_text() -> None:
    # A small label over the title ("AI Pack" over a slide's title) heads nothing.
    items = [
        Text(72, 80, "Product Family", 13),
        Text(72, 110, "Packs that process unstructured data", 22),
    ] + body(150)
    text = markdown(build_pdf([items]))
    assert headings(build_pdf([items])) == ["Packs that process unstructured data"]
    assert text.startswith("Product Family\n\n#")


def test_a_heading_over_a_smaller_sub_heading_stays_a_heading() -> None:
    items = [
        Text(72, 80, "Results of the Survey", 20),
        Text(72, 110, "Who answered", 14),
    ] + body(140)
    assert headings(build_pdf([items])) == ["Results of the Survey", "Who answered"]


def test_a_font_with_wrong_ascent_and_descent_keeps_its_size_and_its_lines() -> None:
    # The body's loose boxes are ~5 lines tall: read as they are, the body's size is ~50 pt
    # (the bold heading, in a sane font, is then small print) and its lines fuse.
    if not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists():
        pytest.skip("DejaVu Sans is not installed")
    items = [Text(72, 80, "Set Up the Digests", 14, font="Helvetica-Bold")] + body(110)
    pdf = build_pdf([items], font_file=tall_metrics_font())
    text = markdown(pdf)
    assert headings(pdf) == ["Set Up the Digests"]
    assert "Body line 0 of the report says what it has to say in plain words. Body line 1" in text
