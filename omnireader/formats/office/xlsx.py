"""XLSX workbooks → one Markdown section per sheet, read with openpyxl directly.

    with extract_xlsx(Blob(path="budget.xlsx")) as doc:
        for section in doc.sections:   # "## Budget\\n| Item | Amount | Date |\\n| --- | ..."
            print(section.page, section.heading)

Cells come out as the sheet shows them, not as a data frame prints them: an empty cell is
empty (never NaN, NaT or None), a date is an ISO date (its time added when not midnight),
a percent-formatted number is ``15%``, other numbers have no float noise (``0.3``, ``12``),
and a formula is its value as last calculated. Fully empty rows and columns are dropped.
Titles above a table, headers and sub-tables parted by empty rows follow the rules of
:mod:`.sheet_tables`, shared with XLS and CSV.

The workbook is opened read-only: openpyxl streams each sheet's XML instead of building
every cell as an object, and sheets are read one at a time as the sections are consumed.
Only the current sheet's cell text is held. ZIP-bomb checks happen before
(:func:`omnireader.formats.archives.zip.check_package`, called by ``extract``).
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from omnireader.errors import CorruptError, ReadError
from omnireader.formats.archives.zip import zip_member
from omnireader.formats.document import Extraction, Section
from omnireader.formats.office.properties import package_info
from omnireader.formats.office.sheet_tables import (
    Row,
    buffered_row,
    gathered_rows,
    sheet_markdown,
)
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_xlsx", "cell_text", "sheet_markdown", "buffered_row", "Row"]

# Excel writes control characters in strings as _xHHHH_ (ST_Xstring); openpyxl keeps them.
_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")
# Control characters that str.split() keeps (it already splits on \v \f and \x1c-\x1f).
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
# The parts of a number format that are not codes: "quoted text", \-escaped characters,
# and [Red] / [$€-407] / [h] brackets. A "%" inside them does not scale the number.
_FORMAT_LITERALS = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]')
# Beyond this Excel shows floats in exponent form anyway; below it an integral float is an
# integer someone typed (12.0 is shown as 12).
_INTEGRAL = 1e15


def extract_xlsx(blob: Blob) -> Extraction:
    """Sections of an XLSX workbook, one per sheet that holds anything (page N = sheet N).

    Raises :class:`CorruptError` naming the input for a package openpyxl cannot open, and
    (while the sections are read) for a sheet whose XML is damaged.
    """
    from openpyxl import load_workbook

    if blob.data is None and blob.path is not None and not blob.member:
        source: str | io.BytesIO = blob.path  # openpyxl reads the ZIP from disk as needed
    else:
        source = io.BytesIO(blob.read_bytes())
    try:
        with warnings.catch_warnings():
            # "no default style", "extension not supported": nothing a reader can act on.
            warnings.simplefilter("ignore")
            workbook = load_workbook(source, read_only=True, data_only=True, keep_links=False)
    except (ReadError, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        raise _corrupt(blob, e) from None
    # Parsed from the package here: openpyxl puts "now" in ``created`` when it is missing.
    info = package_info(source if isinstance(source, str) else source.getvalue())
    info.extra["extractor"] = "openpyxl"
    return Extraction.lazy(info, _sections(blob, workbook), workbook.close)


def _sections(blob: Blob, workbook: Any) -> Iterator[Section]:
    # Chart sheets hold no cells and are not in ``worksheets``; page N is still the Nth
    # worksheet, so an empty sheet leaves a gap rather than renumbering the ones after it.
    for n, sheet in enumerate(workbook.worksheets, 1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                body = sheet_markdown(_sheet_rows(sheet))
        except (ReadError, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001 - a damaged sheet deep in the package
            raise _corrupt(blob, e) from None
        if body:
            yield Section(text=f"## {sheet.title}\n{body}", page=n, heading=sheet.title)


def _sheet_rows(sheet: Any) -> list[Row]:
    """The non-empty rows of a read-only sheet, as cell text."""
    # The <dimension> tag is often stale (A1:XFD1048576 after a format was applied to whole
    # columns), and openpyxl pads every row to it; without it rows are as wide as they are.
    sheet.reset_dimensions()
    return gathered_rows(_cell_texts(sheet))


def _cell_texts(sheet: Any) -> Iterator[tuple[list[str], bool]]:
    for cells in sheet.iter_rows():
        texts: list[str] = []
        all_text = True
        for cell in cells:
            value = cell.value
            text = "" if value is None else cell_text(value, cell.number_format)
            if text and not isinstance(value, str):
                all_text = False
            texts.append(text)
        yield texts, all_text


def cell_text(value: Any, number_format: str | None = "General") -> str:
    """A cell value as the sheet shows it, on one line.

    >>> cell_text(0.15, "0%"), cell_text(0.1 + 0.2), cell_text(12.0)
    ('15%', '0.3', '12')
    >>> cell_text(datetime(2024, 3, 15)), cell_text(datetime(2024, 3, 16, 14, 30))
    ('2024-03-15', '2024-03-16 14:30')
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return _clean(value)
    if isinstance(value, bool):  # before int: bool is an int
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        return _datetime_text(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return _clock(value)
    if isinstance(value, timedelta):  # a duration format such as [h]:mm
        return _duration(value)
    if isinstance(value, (int, float)):
        decimals = _percent_decimals(number_format)
        return _number(value) if decimals is None else _percent(value, decimals)
    return _clean(str(value))


def _clean(text: str) -> str:
    def unescape(m: re.Match[str]) -> str:
        code = int(m.group(1), 16)
        return "" if 0xD800 <= code <= 0xDFFF else chr(code)  # a lone surrogate is no text

    text = _CONTROL.sub("", _ESCAPED.sub(unescape, text))
    return " ".join(text.split())  # line breaks in a cell would end a table row


def _number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):  # no spreadsheet can hold one; never print "nan"
        return ""
    if value.is_integer() and abs(value) < _INTEGRAL:
        return str(int(value))
    return f"{value:.15g}"  # Excel's 15 significant digits: 0.30000000000000004 → 0.3


def _percent_decimals(number_format: str | None) -> int | None:
    """How many decimals a percent format shows (``0.0%`` → 1), or None if not a percent."""
    if not number_format or "%" not in number_format:
        return None
    positive = _FORMAT_LITERALS.sub("", number_format).split(";", 1)[0]
    if "%" not in positive:
        return None
    _, dot, decimals = positive.split("%", 1)[0].partition(".")
    return sum(1 for ch in decimals if ch in "0#?") if dot else 0


def _percent(value: int | float, decimals: int) -> str:
    shown = _number(value)
    if not shown:
        return ""
    try:  # decimal arithmetic: 0.145 is 14.5%, not 14.499999999999998%
        scaled = Decimal(shown) * 100
        return f"{scaled.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)}%"
    except InvalidOperation:  # too many digits to quantize: show it unrounded
        return f"{_number(value * 100)}%"


def _datetime_text(value: datetime) -> str:
    # The time is kept whenever there is one, even under a date-only format: a timestamp
    # is worth more to a memory than the column width it was formatted for.
    value = _whole_seconds(value)
    if value.time() == time(0):
        return value.date().isoformat()
    return f"{value.date().isoformat()} {_clock(value.time())}"


def _whole_seconds(value: datetime) -> datetime:
    # Serial dates are floats: 14:30 can come back as 14:29:59.999999.
    try:
        rounded = value + timedelta(microseconds=500_000) if value.microsecond else value
    except OverflowError:
        rounded = value
    return rounded.replace(microsecond=0)


def _clock(value: time) -> str:
    if value.microsecond >= 500_000:  # round to the second, unless that passes midnight
        step = timedelta(microseconds=1_000_000 - value.microsecond)
        later = datetime.combine(date.min, value) + step
        value = later.time() if later.date() == date.min else value
    value = value.replace(microsecond=0)
    return value.strftime("%H:%M:%S" if value.second else "%H:%M")


def _duration(value: timedelta) -> str:
    total = round(value.total_seconds())
    hours, rest = divmod(abs(total), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{'-' if total < 0 else ''}{hours}:{minutes:02}:{seconds:02}"


def _corrupt(blob: Blob, e: Exception) -> CorruptError:
    lines = str(e).strip().splitlines()
    detail = (lines[0] if lines else "")[:200]
    return CorruptError(blob.label, f"cannot be read as XLSX ({type(e).__name__}: {detail})")


def _read_xlsx(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_xlsx(blob)


FORMATS = (
    Format(
        name="xlsx",
        rank=4,
        display="XLSX",
        extensions=(".xlsx", ".xlsm"),
        mimes=("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",),
        magic=(Magic(22, lambda p: p.zip_has("xl/workbook.xml"), layer="zip"),),
        extract=_read_xlsx,
        zip_package=True,
        find_member=zip_member,
        readme_group="XLSX, XLS",
        readme="openpyxl / xlrd: one Markdown table per sheet, cells as the sheet shows them "
        "(empty cells empty, dates as ISO dates, percent as percent, formulas as their last "
        "value), a title row above the table as text",
    ),
)
