"""Reading order on PDFs drawn here: column heads too short to show their gutter, gaps
that run across all the columns, notes under them, gutters a footnote's number or a word
space meets, and a form's or a table's rows that are no columns."""

from __future__ import annotations

from tests.formats.layout_pdfs import Text, build_pdf, paragraph
from tests.formats.test_pdf_shape import body, headings, markdown, right_edge


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


def test_a_clause_under_a_two_column_letterhead_is_read_after_both_halves() -> None:
    # A specification's letterhead: the project on the left, the section and page number
    # on the right, a gutter of ~60 pt between. The clause's heading sits under the left
    # half four lines below it: a gap narrower than the gutter, yet no column going on.
    left = ["RFP for Construction Management Services", "Rotary Clubs of Grande Prairie"]
    items = paragraph(72, 60, left, size=11, leading=13)
    x = right_edge(items) + 62
    items += paragraph(x, 60, ["Section 00 00 43", "Instructions"], size=11, leading=13)
    items += [Text(x, 86, "Page 1 of 8", 11), Text(72, 134, "1. INTENT", 11)]
    items += paragraph(
        100, 160, [f"The intent of clause line {i} is set out here" for i in range(3)]
    )
    text = markdown(build_pdf([items]))
    assert text.index("Rotary Clubs") < text.index("Section 00 00 43") < text.index("Page 1 of 8")
    assert text.index("Page 1 of 8") < text.index("1. INTENT") < text.index("clause line 0")
