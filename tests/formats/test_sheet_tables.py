"""Tables that are not what they seem: a title row above a CSV/TSV header is text, and
sub-tables of a sheet parted by empty rows are tables of their own (XLSX and XLS), while a
blank row inside one table does not split it."""

from __future__ import annotations

import io
from pathlib import Path

from openpyxl import Workbook

from omnireader import Reader
from omnireader.formats.office.sheet_tables import GAP, sheet_markdown
from omnireader.formats.plain.delimited import delimited_markdown


def _tables(text: str) -> list[str]:
    """The header lines of the Markdown tables in ``text``, in order."""
    lines = text.splitlines()
    return [lines[i - 1] for i, line in enumerate(lines) if line.startswith("| ---")]


def test_a_csv_title_row_is_text_not_the_header(tmp_path: Path) -> None:
    path = tmp_path / "sales.csv"
    path.write_text("Monthly sales report,,\nRegion,Month,Total\nNorth,Jan,10\nSouth,Jan,12\n")
    [item] = Reader().read(path)
    assert item.memory.startswith("Monthly sales report\n\n| Region | Month | Total |")
    assert "| Monthly sales report" not in item.memory


def test_a_tsv_note_above_the_header_is_text() -> None:
    out = delimited_markdown("Exported 2024-05-01\nname\tage\nAna\t31\n", "people.tsv", "\t")
    assert out == "Exported 2024-05-01\n\n| name | age |\n| --- | --- |\n| Ana | 31 |"


def test_a_csv_without_a_title_keeps_its_first_row_as_header() -> None:
    assert delimited_markdown("a,b\n1,2\n").startswith("| a | b |\n| --- | --- |")


def _workbook(rows: list[list[object]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def test_xlsx_sub_tables_parted_by_blank_rows_are_separate_tables(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    path.write_bytes(
        _workbook(
            [
                ["Item", "Qty"],
                ["Pens", 3],
                ["Ink", 2],
                [],
                [],
                ["Staff", "Hours", "Rate"],
                ["Ana", 30, 12.5],
                [],
                ["Notes for the board"],
                ["Owner", "Due"],
                ["Bo", "May"],
            ]
        )
    )
    [item] = Reader().read(path)
    assert _tables(item.memory) == ["| Item | Qty |", "| Staff | Hours | Rate |", "| Owner | Due |"]
    assert "Notes for the board\n\n| Owner | Due |" in item.memory


def test_a_blank_row_inside_one_table_does_not_split_it() -> None:
    rows = [("Month\x00Total", True), ("Jan\x0010", False), GAP, ("Feb\x0012", False)]
    assert sheet_markdown(rows) == ("| Month | Total |\n| --- | --- |\n| Jan | 10 |\n| Feb | 12 |")


def test_xls_sub_tables_are_separate_tables_too(tmp_path: Path) -> None:
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("Q1")
    for r, row in enumerate(
        [["Item", "Qty"], ["Pens", 3], [], ["Staff", "Hours", "Rate"], ["Ana", 30, 12.5]]
    ):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    path = tmp_path / "q1.xls"
    book.save(str(path))
    [item] = Reader().read(path)
    assert _tables(item.memory) == ["| Item | Qty |", "| Staff | Hours | Rate |"]
