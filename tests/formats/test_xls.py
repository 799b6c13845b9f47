"""Legacy Excel (.xls) reads like XLSX: cells as the sheet shows them (no pandas NaN or
"Unnamed: 1"), a title row above the table as text, one section per sheet. The workbooks
are real BIFF files written by xlwt."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import CorruptError
from omnireader.formats.extract import extract
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

xlwt = pytest.importorskip("xlwt", reason="xlwt (the test extra) writes the .xls files")


def write_workbook(path: Path) -> None:
    book = xlwt.Workbook()
    sales = book.add_sheet("Sales")
    sales.write(0, 0, "Quarterly kite sales")  # a title, then a blank row, then the table
    for col, name in enumerate(["Region", "Units", "Share", "Shipped", "Comment"]):
        sales.write(2, col, name)
    percent = xlwt.easyxf(num_format_str="0%")
    day = xlwt.easyxf(num_format_str="yyyy-mm-dd")
    sales.write(3, 0, "North")
    sales.write(3, 1, 4)
    sales.write(3, 2, 0.15, percent)
    sales.write(3, 3, datetime(2024, 3, 15), day)
    sales.write(3, 4, "first shipment")
    sales.write(4, 0, "South")  # no units, share or date: empty cells, never NaN
    sales.write(4, 2, 0.3, percent)
    sales.write(4, 4, "late")
    notes = book.add_sheet("Notes")
    notes.write(0, 0, "Reorder string spools in May.")
    book.add_sheet("Empty")
    book.save(str(path))


def test_cells_read_as_the_sheet_shows_them(tmp_path: Path) -> None:
    write_workbook(tmp_path / "sales.xls")
    with extract(Blob(path=str(tmp_path / "sales.xls")), "xls", ReadOptions()) as doc:
        sections = list(doc.sections)
    assert [(s.page, s.heading) for s in sections] == [(1, "Sales"), (2, "Notes")]
    assert sections[0].text == (
        "## Sales\nQuarterly kite sales\n\n"
        "| Region | Units | Share | Shipped | Comment |\n| --- | --- | --- | --- | --- |\n"
        "| North | 4 | 15% | 2024-03-15 | first shipment |\n"
        "| South |  | 30% |  | late |"
    )
    assert sections[1].text == "## Notes\nReorder string spools in May."


def test_a_reader_gives_one_item_per_sheet_without_pandas_artefacts(tmp_path: Path) -> None:
    write_workbook(tmp_path / "sales.xls")
    items = Reader().read(tmp_path / "sales.xls")
    assert len(items) == 2
    for junk in ("NaN", "NaT", "Unnamed"):
        assert not any(junk in i.memory for i in items)


def test_a_damaged_workbook_is_corrupt_and_named(tmp_path: Path) -> None:
    write_workbook(tmp_path / "sales.xls")
    data = (tmp_path / "sales.xls").read_bytes()
    (tmp_path / "cut.xls").write_bytes(data[: len(data) // 3])
    report = Reader().read_report(tmp_path / "cut.xls")
    assert report.items == []
    [failure] = report.failures
    assert failure.error == CorruptError.code and "cut.xls" in failure.message
