"""A chart drawn with paths sets its axis ticks and values as text aligned like a table's:
it is read as text lines, not as a Markdown table of axis labels. Tables that look a
little like one (years down the first column, a triangle of figures) stay tables."""

from __future__ import annotations

from omnireader.formats.layout.model import Table
from omnireader.formats.layout.tables_charts import is_chart
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Line, Text, build_pdf, paragraph

TICKS = ["$100", "$80", "$60", "$40", "$20", "$0"]


def _bar_chart(gridlines: bool) -> bytes:
    """A titled bar chart's text: ticks down the left, a value over each bar (one of them
    level with a tick), the years along the foot; gridlines at the ticks if asked."""
    items: list[Text | Line] = [Text(72, 72, "Net Sales by Year", 14, bold=True)]
    items += paragraph(
        72,
        100,
        [
            "Net sales rose in each of the last four years, as the chart below shows,",
            "with the largest increase in the most recent year of the four.",
        ],
    )
    top = 150
    for k, tick in enumerate(TICKS):
        items.append(Text(72, top + 30 * k + 3, tick, 9))
        if gridlines:
            items.append(Line(110, top + 30 * k, 500, top + 30 * k))
    for x, value in [(150, 42), (250, 57), (350, 71), (450, 93)]:
        items.append(Text(x, top + 150 - 1.5 * value - 4, str(value), 9))
    for x, year in [(145, "2019"), (245, "2020"), (345, "2021"), (445, "2022")]:
        items.append(Text(x, top + 165, year, 9))
    items += paragraph(72, top + 200, ["The increase came from volume in every segment."])
    return build_pdf([items])


def _text(pdf: bytes) -> str:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        return "\n".join(s.text for s in doc.sections if s.part is None)


def test_a_bar_charts_ticks_and_values_are_text_not_a_table() -> None:
    for gridlines in (False, True):
        text = _text(_bar_chart(gridlines))
        assert "|" not in text, text
        # Every tick and value is still there, top to bottom.
        order = [text.index(t) for t in ["$100", "93", "$80", "71", "$40", "$0", "2019"]]
        assert order == sorted(order), text


def _grid(rows: list[list[str]]) -> Table:
    return Table(rows=rows, x0=0, y0=0, x1=100, y1=100)


def test_a_value_axis_with_values_scattered_beside_it_is_a_chart() -> None:
    # Ruled by the chart's gridlines: ticks falling by 20, a bar's value here and there.
    rows = [["100", "32", "", "22"], ["", "", "37", ""], ["80", "", "", "20"]]
    rows += [["60", "30", "17", ""], ["40", "", "46", "57"], ["20", "38", "", ""]]
    assert is_chart(_grid(rows))


def test_an_axis_run_on_into_a_table_below_is_left_as_found() -> None:
    # A performance graph's ticks, then the table of its returns in the same grid: taken
    # apart, the table's rows would be scattered as text.
    rows = [["$250", "", "", ""], ["$225", "", "", ""], ["$200", "", "", ""]]
    rows += [["$175", "", "", ""], ["2016", "2017", "2018", "2019"]]
    rows += [["", "2016", "2017", "2018"], ["Verizon", "$100.0", "$104.0", "$115.7"]]
    rows += [["S&P 500", "100.0", "121.8", "116.5"]]
    assert not is_chart(_grid(rows))


def test_scattered_figures_with_no_full_column_are_a_chart() -> None:
    rows = [["", "56", "", "", "", ""], ["", "", "", "47", "", ""], ["21", "", "", "", "16", ""]]
    rows += [["", "", "9", "", "", ""], ["", "", "", "0", "", "3"]]
    assert is_chart(_grid(rows))


def test_years_down_the_first_column_with_a_full_column_beside_stay_a_table() -> None:
    # Warehouses opened each year and their sales since: a triangle, but a table.
    rows = [["Year Opened", "# of Whses", "", "", ""]]
    rows += [["2021", "20", "", "", "$140"], ["2020", "13", "", "$132", "152"]]
    rows += [["2019", "20", "$129", "138", "172"], ["2018", "21", "119", "141", "172"]]
    rows += [["Totals", "74", "248", "411", "636"]]
    assert not is_chart(_grid(rows))


def test_numbered_entries_beside_their_text_stay_a_table() -> None:
    rows = [["(10.13)", "Form of grant agreement for performance share awards"]]
    rows += [["", "under the long-term incentive plan"], ["(10.14)", "Form of stock option"]]
    rows += [["(10.15)", "Deferred compensation plan"], ["(10.16)", "Executive severance plan"]]
    assert not is_chart(_grid(rows))


def test_a_statement_of_figures_stays_a_table() -> None:
    rows = [["", "2023", "2022", "2021"], ["Net sales", "$100", "$80", "$60"]]
    rows += [["Cost of sales", "40", "32", "24"], ["Gross profit", "60", "48", "36"]]
    rows += [["Expenses", "20", "16", "12"], ["Net income", "$40", "$32", "$24"]]
    assert not is_chart(_grid(rows))
