"""Legacy Excel workbooks (.xls, BIFF 2-8) → one Markdown section per sheet, read with xlrd
and laid out like XLSX (:func:`.sheet_tables.sheet_markdown`).

MarkItDown reads .xls through pandas, which prints an empty cell as ``NaN`` and a blank
header as ``Unnamed: 1``. Here cells come out as the sheet shows them, by the same rules as
:mod:`.xlsx`: empty cells empty, dates as ISO dates, percent formats as percent, a title
row above the table as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from omnireader.errors import CorruptError, EncryptedError, ReadError
from omnireader.formats.document import Extraction, Section
from omnireader.formats.office.properties import ole_info
from omnireader.formats.office.sheet_tables import (
    Row,
    gathered_rows,
    sheet_markdown,
)
from omnireader.formats.office.xlsx import cell_text
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_xls"]


def extract_xls(blob: Blob) -> Extraction:
    """Sections of an .xls workbook, one per sheet that holds anything (page N = sheet N).

    Raises :class:`EncryptedError` for a password-protected workbook and
    :class:`CorruptError` for one xlrd cannot read, each naming the input.
    """
    import xlrd

    data = blob.read_bytes()
    try:
        # formatting_info: the cells' number formats (percent); on_demand: a sheet's
        # records are parsed when the sheet is read, one at a time.
        book = xlrd.open_workbook(
            file_contents=data, formatting_info=True, on_demand=True, logfile=_Quiet()
        )
    except (ReadError, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        if "encrypt" in str(e).lower():
            raise EncryptedError(blob.label, "the workbook is password-protected") from None
        raise CorruptError(blob.label, f"cannot be read as XLS ({e})") from None
    info = ole_info(data)  # title, authors and dates from the SummaryInformation stream
    info.extra["extractor"] = "xlrd"
    return Extraction.lazy(info, _sections(blob, book), book.release_resources)


def _sections(blob: Blob, book: Any) -> Iterator[Section]:
    for n in range(book.nsheets):
        try:
            sheet = book.sheet_by_index(n)
            body = sheet_markdown(_rows(book, sheet))
            book.unload_sheet(n)
        except (ReadError, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001 - a damaged sheet deep in the file
            raise CorruptError(blob.label, f"cannot be read as XLS ({e})") from None
        if body:
            yield Section(text=f"## {sheet.name}\n{body}", page=n + 1, heading=sheet.name)


def _rows(book: Any, sheet: Any) -> list[Row]:
    return gathered_rows(_cell_texts(book, sheet))


def _cell_texts(book: Any, sheet: Any) -> Iterator[tuple[list[str], bool]]:
    import xlrd

    for r in range(sheet.nrows):
        texts: list[str] = []
        all_text = True
        for cell in sheet.row(r):
            value: Any = cell.value
            if cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                value = None
            elif cell.ctype == xlrd.XL_CELL_DATE:
                value = xlrd.xldate.xldate_as_datetime(value, book.datemode)
            elif cell.ctype == xlrd.XL_CELL_BOOLEAN:
                value = bool(value)
            elif cell.ctype == xlrd.XL_CELL_ERROR:
                value = xlrd.error_text_from_code.get(value, "#ERROR")
            text = "" if value is None else cell_text(value, _number_format(book, cell))
            if text and cell.ctype != xlrd.XL_CELL_TEXT:
                all_text = False
            texts.append(text)
        yield texts, all_text


def _number_format(book: Any, cell: Any) -> str | None:
    try:
        key = book.xf_list[cell.xf_index].format_key
        return book.format_map[key].format_str  # type: ignore[no-any-return]
    except (IndexError, KeyError, AttributeError, TypeError):
        return None


class _Quiet:
    """xlrd's log: it writes warnings about odd records to stdout unless given a file."""

    def write(self, text: str) -> int:
        return len(text)


def _read_xls(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_xls(blob)


FORMATS = (
    Format(
        name="xls",
        rank=5,
        display="XLS",
        extensions=(".xls",),
        mimes=("application/vnd.ms-excel",),
        magic=(
            Magic(14, lambda p: p.ole_has("Workbook"), "ole"),
            Magic(15, lambda p: p.ole_has("Book"), "ole"),
            Magic(51, lambda p: p.ole_names is None and p.ext == ".xls", "ole"),
        ),
        extract=_read_xls,
        readme_group="XLSX, XLS",
    ),
)
