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
    assert "edge bravo" not in text
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
    assert "edge bravo" not in text
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


def test_column_heads_too_short_to_show_the_gutter_each_top_their_own_column() -> None:
    # A slide: three short titles on one baseline over three texts. Read row by row, the
    # titles run together as one line (one heading "Speed Cost Scale") over all three.
    names = ["Speed", "Cost", "Scale"]
    items = body(80, count=3)
    for x, name in zip((72, 252, 432), names):
        items.append(Text(x, 180, name, 14, bold=True))
        texts = [f"{name.lower()} point {i} in a few words" for i in range(4)]
        items += paragraph(x, 205, texts, size=9, leading=11)
    pdf = build_pdf([items])
    assert headings(pdf) == names
    sections = markdown(pdf).split("\n# ")[1:]
    for name, section in zip(names, sections):
        assert section.startswith(name)
        assert f"{name.lower()} point 0" in section and f"{name.lower()} point 3" in section


def test_a_footnote_number_standing_out_into_the_gutter_does_not_hide_it() -> None:
    # The right column hangs its notes' numbers out towards the gutter. At those rows the
    # gap is narrower than a line may hold: without the gutter, the left column's line and
    # the note run on as one line ("... edge 25 note line 3").
    left = paragraph(72, 100, [f"alpha line {i} runs right to the edge" for i in range(10)])
    edge = right_edge(left)
    right = paragraph(edge + 28, 100, [f"note line {i} keeps to its own side" for i in range(10)])
    numbers = [Text(edge + 10, 100 + 12 * i, "25") for i in (3, 7)]
    text = markdown(build_pdf([left + right + numbers]))
    assert "edge 25" not in text
    assert text.index("alpha line 9") < text.index("note line 0")


def test_columns_go_on_past_a_gap_that_runs_across_both() -> None:
    # Left: a picture's caption, then a heading and its text. Right: text, then notes.
    # The caption and the right column's text end at one height, a gap wider than the
    # gutter runs under both: the columns still go on below it.
    left_text = [f"alpha line {i} runs right to the edge" for i in range(8)]
    edge = right_edge(paragraph(72, 0, left_text))
    x = edge + 20
    items = [Text(72, 300, "Figure 1. A picture of the site.", 9)]
    items += [Text(72, 335, "2 Methods", 12, bold=True)] + paragraph(72, 355, left_text)
    items += paragraph(x, 100, [f"bravo line {i} keeps to its own side" for i in range(17)])
    items += paragraph(x, 335, [f"{n} A note on the text, set small." for n in (1, 2)], 8, 10)
    text = markdown(build_pdf([items]))
    assert text.index("Figure 1.") < text.index("# 2 Methods") < text.index("alpha line 7")
    assert text.index("alpha line 7") < text.index("bravo line 0") < text.index("A note")


def test_notes_under_both_columns_are_read_after_them() -> None:
    left_text = [f"alpha line {i} runs right to the edge" for i in range(12)]
    edge = right_edge(paragraph(72, 0, left_text))
    x = edge + 20
    items = paragraph(72, 100, left_text)
    items += paragraph(x, 100, [f"bravo line {i} keeps to its own side" for i in range(12)])
    items += [Text(72, 280, "1 A note on the left column.", 8)]
    items += [Text(x, 280, "2 A note on the right column.", 8)]
    text = markdown(build_pdf([items]))
    assert text.index("alpha line 11") < text.index("bravo line 0") < text.index("bravo line 11")
    assert text.index("bravo line 11") < text.index("1 A note") < text.index("2 A note")


def test_a_gutter_does_not_cut_a_line_above_where_a_word_space_meets_it() -> None:
    # The paragraph's last line, right above two columns, has a word space just where the
    # gutter runs: the gutter starts at the first row it is a wide gap in, not there.
    left = paragraph(72, 200, [f"alpha line {i} runs right to the edge" for i in range(8)])
    edge = right_edge(left)
    x = edge + 20
    right = paragraph(x, 200, [f"bravo line {i} keeps to its own side" for i in range(8)])
    words = "The paragraph above both columns runs on"
    head = [
        Text(72, 164, "This paragraph spans the page from one side right to the other."),
        Text(72, 176, "It says what the columns below are about, in plain words, and"),
    ]
    start = right_edge([Text(72, 188, words)])
    last = [Text(edge + 10 - (start - 72) - 2.5, 188, words), Text(edge + 12.5, 188, "to here.")]
    text = markdown(build_pdf([head + last + left + right]))
    assert "runs on to here." in text
    assert text.index("to here.") < text.index("alpha line 0") < text.index("bravo line 0")


def test_a_forms_values_centred_over_their_labels_are_no_column_heads() -> None:
    # A filing's cover: each value centred over its label, the labels' lines not level.
    # Read as heads of the columns below, the bold state would head the page ("# OREGON").
    left = ["(State or other jurisdiction of incorporation)", "One Bowerman Drive, Beaverton"]
    right = ["(IRS Employer Identification No.)", "97005-6453", "(Zip Code)"]
    items = body(80, count=3)
    for x, y, value, label in ((72, 164, "OREGON", left), (330, 170, "93-0584541", right)):
        label_width = right_edge([Text(x, 0, label[0], 8)]) - x
        value_width = right_edge([Text(x, 0, value, 10, bold=True)]) - x
        items.append(Text(x + (label_width - value_width) / 2, 150, value, 10, bold=True))
        items += paragraph(x, y, label, size=8, leading=9)
    items += [Text(72, 182, "(Address of principal executive offices)", 8)]
    pdf = build_pdf([items + body(220, count=3)])
    assert headings(pdf) == []
    assert "OREGON 93-0584541" in markdown(pdf)


def test_rows_of_a_two_column_table_set_apart_are_read_row_by_row() -> None:
    # The rows stand further apart than the gutter is wide: each row is read in turn.
    cells = [f"amount {r} equal to the target" for r in range(3)]
    edge = right_edge([Text(72, 0, cells[0])])
    items = body(80, count=3)
    for r, cell in enumerate(cells):
        y = 150 + 60 * r
        items += paragraph(72, y, [cell, f"for year {r} as adjusted"])
        items += paragraph(edge + 20, y, [f"condition {r} the unit met", f"its goal for year {r}"])
    text = markdown(build_pdf([items]))
    assert text.index("amount 0") < text.index("condition 0") < text.index("amount 1")
    assert text.index("amount 1") < text.index("condition 1") < text.index("amount 2")
