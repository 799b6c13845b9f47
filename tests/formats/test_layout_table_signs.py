"""Currency signs and percent marks printed apart from their amounts, as filings set them.

A 10-K prints "$" at the left edge of a column and the amount right-aligned in it, a
cell's gap away, and "%" a gap right of its figure. The table reads them as one cell with
the amount ("$141,366", "33%"), not as columns of their own ("$ | 141,366").
"""

from __future__ import annotations

from pathlib import Path

from omnireader.formats.layout.tables import render_table
from omnireader.formats.layout.tables_signs import merge_sign_columns

from .test_layout_tables import layout, pdf, right, text


def _statement() -> str:
    """Net sales by segment, "$" at each column's left edge (x 250 and 360), the amounts
    right-aligned at 330 and 440, the growth's "%" a full em right of its figure."""
    body = right(330, 100, "2018") + right(440, 100, "2019")
    rows = [
        ("North America", "141,366", "170,773", True),
        ("International", "65,866", "74,723", False),
        ("AWS", "25,655", "35,026", False),
        ("Consolidated", "232,887", "280,522", True),
    ]
    for r, (label, a, b, dollar) in enumerate(rows, start=1):
        y = 100 + 16 * r
        body += text(72, y, label) + right(330, y, a) + right(440, y, b)
        if dollar:
            body += text(250, y, "$") + text(360, y, "$")
    y = 100 + 16 * 5
    body += text(72, y, "Growth") + right(330, y, "33") + right(440, y, "21")
    body += text(340, y, "%") + text(450, y, "%")
    return body


def test_a_dollar_sign_at_the_column_edge_joins_its_amount(tmp_path: Path) -> None:
    (table,), _ = layout(pdf(_statement()), tmp_path)
    assert table.rows == [
        ["", "2018", "2019"],
        ["North America", "$141,366", "$170,773"],
        ["International", "65,866", "74,723"],
        ["AWS", "25,655", "35,026"],
        ["Consolidated", "$232,887", "$280,522"],
        ["Growth", "33%", "21%"],
    ]
    assert "| $ |" not in render_table(table)


def test_a_total_without_a_label_stays_the_tables_last_row(tmp_path: Path) -> None:
    # Amazon's expected amortization: years and amounts, the total on a line of its own
    # with only "$ 4,021" on it. The sign once made that line two runs; the amount alone
    # is still a row.
    body = ""
    for r, (year, amount) in enumerate([("2020", "486"), ("2021", "424"), ("2022", "391")]):
        y = 100 + 16 * r
        body += text(72, y, year) + right(330, y, amount)
        if r == 0:
            body += text(250, y, "$")
    body += text(250, 148, "$") + right(330, 148, "1,301")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[-1] == ["", "$1,301"]
    assert table.rows[0] == ["2020", "$486"]


def test_long_row_labels_beside_amounts_are_still_a_table(tmp_path: Path) -> None:
    # Notes listed by name, each with its amount: labels of six words or more beside one
    # column of money read as a table, as they did while the "$" had a column of its own.
    notes = [
        ("1.900% Notes due on August 21, 2020", "1,000"),
        ("3.300% Notes due on December 5, 2021", "1,000"),
        ("2.500% Notes due on November 29, 2022", "1,250"),
        ("2.400% Notes due on February 22, 2023", "1,000"),
    ]
    body = ""
    for r, (label, amount) in enumerate(notes):
        y = 100 + 16 * r
        body += text(72, y, label) + text(470, y, "$") + right(540, y, amount)
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["1.900% Notes due on August 21, 2020", "$1,000"]
    assert len(table.rows) == 4


def test_a_drawn_grid_gives_its_sign_cells_to_the_amounts() -> None:
    # A ruled table from an HTML filing: "$" in a cell of its own, "%" too.
    grid = [
        ["", "", "2019", "", "Change", ""],
        ["Revenues", "$", "36,397", "", "6", "%"],
        ["Gross profit", "", "15,956", "", "4", "%"],
        ["Total", "$", "(1,250)", "", "", ""],
    ]
    merge_sign_columns(grid)
    assert [[c for c in row if c] for row in grid] == [
        ["2019", "Change"],
        ["Revenues", "$36,397", "6%"],
        ["Gross profit", "15,956", "4%"],
        ["Total", "$(1,250)"],
    ]
    # A sign in a column that holds an amount elsewhere still joins its neighbour.
    grid = [["Revenues", "$36,397", "$", "34,350"], ["Net income", "1,933", "4,240", ""]]
    merge_sign_columns(grid)
    assert grid[0] == ["Revenues", "$36,397", "", "$34,350"]


def test_a_percent_and_the_next_amounts_sign_sharing_a_drawn_cell_are_parted() -> None:
    # NIKE's income statement: "126" then "%" and "$" close together in the cell between
    # the change and the year before's amount ("126 | % $ | 4,029").
    grid = [
        ["NET INCOME", "$5,727", "$2,539", "126", "% $", "4,029", "-37%"],
        ["Diluted earnings per share", "$3.56", "$1.60", "123", "%$", "2.49", "-36%"],
        ["Notes", "", "", "", "% $", "", ""],  # no figure beside it: left as it is
    ]
    merge_sign_columns(grid)
    assert grid[0] == ["NET INCOME", "$5,727", "$2,539", "126%", "", "$4,029", "-37%"]
    assert grid[1][3:6] == ["123%", "", "$2.49"]
    assert grid[2][4] == "% $"


def test_a_percent_mark_hanging_right_of_the_table_is_read_once() -> None:
    # The last column's "%" stands right of its figures, outside the edge the table's box
    # ends at; its cells hold the mark already ("21%"), and the mark was read again as a
    # line of text under the table (3M's, AmEx's and Coca-Cola's filings: ~200 of them).
    from omnireader.formats.pdf.extract import extract_pdf
    from omnireader.payloads import Blob

    with extract_pdf(Blob(data=pdf(_statement())), layout=True) as doc:
        text = "\n\n".join(s.text for s in doc.sections if s.part is None)
    assert "| Growth | 33% | 21% |" in text
    assert text.endswith("21% |")  # nothing after the table: no "%" of its own
