"""The heads of a borderless table of figures, as a financial statement prints them.

Above the amounts: a heading centred over the figure columns ("Year Ended December 31,"),
the column heads ("2018  2019"), a unit note ("(in millions)") and a label alone in the
label column ("Net sales:") over the first group of rows. They are the table's first rows,
not text left above it; the sentence leading into the table stays text.
"""

from __future__ import annotations

from pathlib import Path

from omnireader.formats.layout.tables_text import header_rows

from .test_layout_tables import layout, pdf, right, text

LEAD_IN = "Information about net sales by segment is as follows, for the last two years:"


def _statement(unit: bool = False, label: bool = True) -> str:
    """A lead-in sentence, then "Year Ended December 31," centred over two columns of
    amounts (right-aligned at 400 and 500, "$" at 340 and 440), the years, optionally a
    unit note, a group label, and three rows."""
    body = text(72, 80, LEAD_IN)
    body += text(385, 100, "Year Ended December 31,")
    body += right(400, 112, "2018") + right(500, 112, "2019")
    y = 124
    if unit:
        body += text(72, y, "(in millions)")
        y += 12
    if label:
        body += text(72, y, "Net Sales:")
        y += 12
    rows = [
        ("North America", "141,366", "170,773", True),
        ("International", "65,866", "74,723", False),
        ("Consolidated", "207,232", "245,496", True),
    ]
    for label_text, a, b, dollar in rows:
        body += text(80, y, label_text) + right(400, y, a) + right(500, y, b)
        if dollar:
            body += text(340, y, "$") + text(440, y, "$")
        y += 12
    return body


def test_a_heading_over_the_figures_and_the_years_are_the_tables_first_rows(
    tmp_path: Path,
) -> None:
    (table,), _ = layout(pdf(_statement()), tmp_path)
    assert table.rows[:3] == [
        ["", "Year Ended December 31,", ""],
        ["", "2018", "2019"],
        ["Net Sales:", "", ""],
    ]
    assert table.rows[3] == ["North America", "$141,366", "$170,773"]
    # The heads are the header; the group label heads rows, not columns.
    assert table.header_rows == 2
    assert table.y0 > 80  # the lead-in sentence stays text above the table


def test_a_unit_note_goes_to_the_label_column(tmp_path: Path) -> None:
    (table,), _ = layout(pdf(_statement(unit=True)), tmp_path)
    assert ["(in millions)", "", ""] in table.rows[:4]
    assert table.rows[3] == ["Net Sales:", "", ""]


def test_a_short_line_above_a_table_without_heads_stays_text(tmp_path: Path) -> None:
    # The end of a paragraph, short, at the left margin right above the first row: with
    # no column heads over the figures, nothing says it belongs to the table.
    body = text(72, 100, "millions):")
    for r, (label, a, b) in enumerate([("Domestic", "14,028", "14,549"), ("Abroad", "3", "4")]):
        y = 112 + 12 * r
        body += text(80, y, label) + right(400, y, a) + right(500, y, b)
    body += text(80, 136, "Total") + right(400, 136, "14,031") + right(500, 136, "14,553")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["Domestic", "14,028", "14,549"]


def test_a_group_label_over_the_first_figures_is_no_column_header() -> None:
    rows = [["", "2018", "2019"], ["Net sales:", "", ""], ["Retail", "12", "14"]]
    rows += [["Online", "3", "5"], ["Total", "15", "19"]]
    assert header_rows(rows) == 1
    # A unit note in the same place is the header's last line.
    rows[1][0] = "(in millions)"
    assert header_rows(rows) == 2


def test_a_heading_centred_over_all_the_figures_heads_them_from_the_first(
    tmp_path: Path,
) -> None:
    # "Fiscal Year" centred over three year columns (right edges 300, 400, 500): it stands
    # over the middle year, and heads all three.
    body = text(372, 100, "Fiscal Year")
    body += right(300, 112, "2020") + right(400, 112, "2019") + right(500, 112, "2018")
    for r, (label, *amounts) in enumerate(
        [
            ("Net sales", "17,626.6", "16,865.2", "15,740.4"),
            ("Gross margin", "6,129.9", "5,756.8", "5,435.6"),
        ]
    ):
        y = 124 + 12 * r
        body += text(72, y, label) + "".join(
            right(x, y, a) for x, a in zip((300, 400, 500), amounts)
        )
    body += (
        text(72, 148, "Total")
        + right(300, 148, "1.0")
        + right(400, 148, "2.0")
        + right(500, 148, "3.0")
    )
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["", "Fiscal Year", "", ""]
    assert table.rows[1] == ["", "2020", "2019", "2018"]
