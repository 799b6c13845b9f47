"""XLSX workbooks: one clean Markdown table per sheet, cells as the sheet shows them.

Every workbook here is built with openpyxl in the test and read through the public Reader,
the way a user's file is; the extractor is called directly only where a test measures it.
"""

from __future__ import annotations

import io
import re
import tracemalloc
import zipfile
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from pathlib import Path

import pytest
from openpyxl import Workbook

from omnireader import Reader
from omnireader.errors import CorruptError
from omnireader.formats.office.xlsx import cell_text, extract_xlsx
from omnireader.payloads import Blob


def saved(workbook: Workbook) -> bytes:
    buf = io.BytesIO()
    workbook.save(buf)
    return buf.getvalue()


def with_sheet_xml(data: bytes, edit: Callable[[bytes], bytes]) -> bytes:
    """The workbook ``data`` with its first sheet's XML passed through ``edit``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            part = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                part = edit(part)
            zout.writestr(info, part)
    return out.getvalue()


def read_sheets(workbook: Workbook, name: str = "book.xlsx") -> list[str]:
    items = Reader().read(Blob(data=saved(workbook), filename=name))
    assert all(i.metadata.extra["format"] == "xlsx" for i in items)
    return [i.memory for i in items]


def test_a_title_above_the_table_is_text_and_blank_cells_are_empty() -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Report"
    ws["A1"] = "Quarterly sales report"
    ws.merge_cells("A1:D1")
    ws.append([])  # a blank row between the title and the table
    ws.append(["Region", "Units", "Share", "Code"])
    ws.append(["North", 4, 0.15, "007"])
    ws.append(["South", None, 0.3, "0420"])
    ws["C4"].number_format = ws["C5"].number_format = "0%"
    [text] = read_sheets(wb)
    assert text == (
        "## Report\n"
        "Quarterly sales report\n\n"
        "| Region | Units | Share | Code |\n"
        "| --- | --- | --- | --- |\n"
        "| North | 4 | 15% | 007 |\n"
        "| South |  | 30% | 0420 |"
    )


def test_no_pandas_artefacts_ever() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Name", None, "Born"])  # a blank header cell stays blank
    ws.append(["Ada", "x", None])  # an empty date cell is empty, not NaT
    ws.append([None, None, None])
    [text] = read_sheets(wb)
    assert "| Name |  | Born |" in text and "| Ada | x |  |" in text
    for junk in ("Unnamed", "NaN", "NaT", "None", "nan"):
        assert junk not in text


def test_dates_are_iso_with_the_time_only_when_there_is_one() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["What", "When"])
    ws.append(["launch", datetime(2024, 3, 15)])
    ws.append(["review", datetime(2024, 3, 16, 14, 30)])
    ws.append(["stand-up", time(9, 15)])
    ws.append(["day", date(2024, 1, 2)])
    ws.append(["shift", timedelta(hours=30, minutes=5)])
    ws["B7"].number_format = "[h]:mm:ss"
    [text] = read_sheets(wb)
    assert "| launch | 2024-03-15 |" in text and "00:00:00" not in text
    assert "| review | 2024-03-16 14:30 |" in text
    assert "| stand-up | 09:15 |" in text
    assert "| day | 2024-01-02 |" in text
    assert "| shift | 30:05:00 |" in text


def test_numbers_show_as_written_without_float_noise() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["n", "value"])
    for n, value in enumerate([12.0, 1500.5, -7, True, 0.1234], 1):
        ws.append([n, value])
    ws["B6"].number_format = "0.0%"
    [text] = read_sheets(wb)
    assert text.splitlines()[3:] == [
        "| 1 | 12 |",
        "| 2 | 1500.5 |",
        "| 3 | -7 |",
        "| 4 | TRUE |",
        "| 5 | 12.3% |",
    ]
    # Excel keeps 17 digits of a sum like 0.1 + 0.2; it shows 15, and so do we.
    assert cell_text(0.1 + 0.2) == "0.3" and cell_text(1 / 3) == "0.333333333333333"
    assert cell_text(0.145, "0%") == "15%"  # rounded half up, as Excel shows it
    assert cell_text(0.5, '0.00" %"') == "0.5"  # a quoted "%" is text, not a percent format


def test_a_formula_is_its_cached_value_not_its_source(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Item", "Amount"])
    ws.append(["crane", 1200.5])
    ws.append(["fuel", 300])
    ws.append(["Total", "=SUM(B2:B3)"])
    # openpyxl writes formulas without a value; Excel stores the last result next to it.
    path = tmp_path / "budget.xlsx"
    path.write_bytes(
        with_sheet_xml(
            saved(wb),
            lambda xml: re.sub(
                rb"<f>SUM\(B2:B3\)</f>(<v\s*/>|<v></v>)?", b"<f>SUM(B2:B3)</f><v>1500.5</v>", xml
            ),
        )
    )
    [item] = Reader().read(path)
    assert "| Total | 1500.5 |" in item.memory and "SUM" not in item.memory


def test_empty_rows_and_columns_are_dropped_and_each_sheet_is_a_page() -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Stock"
    ws["B3"], ws["D3"] = "fruit", "kg"  # column A and C empty, rows 1-2 empty
    ws["B6"], ws["D6"] = "plums", 2
    wb.create_sheet("Empty")
    notes = wb.create_sheet("Notes")
    notes["A1"] = "count again on Monday"
    notes["A2"] = "ask about quinces"
    items = Reader().read(Blob(data=saved(wb), filename="stock.xlsx"))
    assert [(i.source.page, i.metadata.extra["heading"]) for i in items] == [
        (1, "Stock"),
        (3, "Notes"),
    ]
    assert items[0].memory == "## Stock\n| fruit | kg |\n| --- | --- |\n| plums | 2 |"
    # One column of values is a list of lines, not a one-column table.
    assert items[1].memory == "## Notes\ncount again on Monday\nask about quinces"


def test_a_first_row_of_numbers_is_data_under_a_blank_header() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append([2019, 0.25])
    ws.append([2020, 1.5])
    [text] = read_sheets(wb)
    assert text.splitlines()[1:] == [
        "|  |  |",
        "| --- | --- |",
        "| 2019 | 0.25 |",
        "| 2020 | 1.5 |",
    ]


def test_line_breaks_pipes_and_escaped_control_characters_stay_inside_their_cell() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Note", "Plan"])
    # Excel writes a vertical tab in a string as _x000B_; openpyxl hands that back as is.
    ws.append(["line one\nline two", "a | b_x000B_c"])
    [text] = read_sheets(wb)
    assert text.splitlines()[-1] == "| line one line two | a \\| b c |"
    assert "_x000B_" not in text and "\x0b" not in text


def test_a_stale_sheet_size_does_not_pad_rows_to_the_whole_grid() -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["a", "b"])
    ws.append([1, 2])
    # A format applied to whole columns leaves <dimension ref="A1:XFD1048576"> behind.
    data = with_sheet_xml(
        saved(wb),
        lambda xml: xml.replace(b'<dimension ref="A1:B2"', b'<dimension ref="A1:XFD1048576"'),
    )
    [item] = Reader().read(Blob(data=data, filename="wide.xlsx"))
    assert item.memory == "## Sheet\n| a | b |\n| --- | --- |\n| 1 | 2 |"


def test_a_large_sheet_is_streamed_not_loaded_whole(tmp_path: Path) -> None:
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Log")
    ws.append(["id", "name", "score"])
    for n in range(3_000):
        ws.append([n, f"row {n}", n / 7])
    path = tmp_path / "log.xlsx"
    wb.save(path)
    tracemalloc.start()
    try:
        with extract_xlsx(Blob(path=str(path))) as doc:
            [section] = list(doc.sections)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert section.text.count("\n") == 3_000 + 2
    assert "| 2999 | row 2999 | 428.428571428571 |" in section.text
    # Loading this workbook whole takes ~36 times its text; read-only streaming keeps the
    # peak to the cell text, the Markdown made of it, and openpyxl's parse buffers.
    assert peak < 20 * len(section.text)


def test_a_damaged_workbook_is_a_corrupt_error_naming_the_file() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "this is not a workbook")
    with pytest.raises(CorruptError) as info:
        Reader().read(Blob(data=buf.getvalue(), filename="budget.xlsx"))
    assert info.value.input_name == "budget.xlsx" and "XLSX" in str(info.value)


def test_a_damaged_sheet_is_a_corrupt_error_too() -> None:
    wb = Workbook()
    wb.active.append(["a", "b"])
    cut = with_sheet_xml(saved(wb), lambda xml: xml[: len(xml) // 2])  # ends mid-XML
    with pytest.raises(CorruptError) as info:
        with extract_xlsx(Blob(data=cut, filename="cut.xlsx")) as doc:
            list(doc.sections)
    assert info.value.input_name == "cut.xlsx"


def test_a_password_protected_workbook_opens_with_its_password_and_only_with_it() -> None:
    from msoffcrypto.format.ooxml import OOXMLFile

    wb = Workbook()
    wb.active.append(["secret", "value"])
    wb.active.append(["vault", 42])
    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(saved(wb))).encrypt("hunter2", locked)
    blob = Blob(data=locked.getvalue(), filename="vault.xlsx")
    assert [f.error for f in Reader().read_report(blob).failures] == ["encrypted"]
    [item] = Reader(password="hunter2").read(blob)
    assert item.memory == "## Sheet\n| secret | value |\n| --- | --- |\n| vault | 42 |"
