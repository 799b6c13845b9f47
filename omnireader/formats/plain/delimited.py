"""Delimited text (CSV, TSV, ``;`` and ``|`` files) → a Markdown table, delimiter sniffed.

    >>> delimited_markdown("Jahr;Wert\\n2019;0,25\\n2020;1,5\\n", "werte.csv")
    '| Jahr | Wert |\\n| --- | --- |\\n| 2019 | 0,25 |\\n| 2020 | 1,5 |'

The delimiter is the one of ``,`` ``;`` tab ``|`` that splits a sample of the lines into
the same number of cells (two or more) most consistently, header line included; the
standard library's :class:`csv.Sniffer` breaks ties and finds the quote character. So a
``;`` file with decimal commas is split on ``;`` (the header line has no commas, so a comma
split does not line up), and ``0,25`` stays one cell as written. Quotes around a cell are
not part of its value, and a database export's NULL marker ``\\N`` is an empty cell.
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from omnireader.errors import EmptyInputError
from omnireader.formats.document import DocInfo, Extraction
from omnireader.formats.office.sheet_tables import leading_titles
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["sniff_delimiter", "delimited_markdown", "DELIMITERS"]

DELIMITERS = (",", ";", "\t", "|")
_SAMPLE_LINES = 60
# Tab first: in a tie (one column either way) a tab is never prose, a comma often is.
_PREFERENCE = {"\t": 0, ";": 1, "|": 2, ",": 3}


def _rows(text: str, delimiter: str, quotechar: str = '"') -> list[list[str]]:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, quotechar=quotechar)
    try:
        return [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error:
        return []


def _score(rows: list[list[str]]) -> tuple[float, int]:
    """How well ``rows`` line up: the share of rows with the most common cell count (of
    two or more cells; a trailing empty cell is not counted), and that count."""
    widths = [len(row) - (1 if row and not row[-1].strip() else 0) for row in rows]
    if not widths:
        return 0.0, 0
    width, n = Counter(widths).most_common(1)[0]
    return (n / len(widths) if width >= 2 else 0.0), width


def sniff_delimiter(text: str, hint: str | None = None) -> tuple[str, str]:
    """``(delimiter, quotechar)`` for ``text``; ``hint`` (from a ``.tsv`` name, say) wins
    a tie."""
    lines = text.splitlines(keepends=True)[:_SAMPLE_LINES]
    if len(lines) == _SAMPLE_LINES:
        lines = lines[:-1]  # may be cut inside a quoted cell
    sample = "".join(lines)
    quotechar = '"'
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS))
        quotechar = sniffed.quotechar or '"'
        sniffer_pick = sniffed.delimiter
    except csv.Error:
        sniffer_pick = None
    best: tuple[tuple[float, int, int, int], str] | None = None
    for d in DELIMITERS:
        share, width = _score(_rows(sample, d, quotechar))
        bonus = int(d == hint) + int(d == sniffer_pick)
        key = (share, bonus, width, -_PREFERENCE[d])
        if best is None or key > best[0]:
            best = (key, d)
    assert best is not None
    if best[0][0] == 0.0:  # nothing lines up: one column
        return hint or ",", quotechar
    return best[1], quotechar


# MySQL's SELECT … INTO OUTFILE and PostgreSQL's COPY write a NULL as \N: no value, not
# the text "\N" (Markdown would show the backslash; search would find an "N").
_NULL = "\\N"


def _cell(value: str) -> str:
    if value.strip() == _NULL:
        return ""
    return " ".join(value.split()).replace("|", "\\|")


def delimited_markdown(text: str, name: str = "", hint: str | None = None) -> str:
    """The table in ``text`` as Markdown: lines above it that hold one value (a title) are
    text, the next row is the header, short rows padded, trailing empty columns dropped."""
    delimiter, quotechar = sniff_delimiter(text, hint)
    rows = _rows(text, delimiter, quotechar)
    if not rows:
        return text.strip()
    # A title or a note above the header (one value on its line) is text, not the header:
    # the rule XLSX and XLS follow (formats.office.sheet_tables).
    start = leading_titles([sum(1 for c in row if c.strip()) for row in rows]) or 0
    above = [" ".join(c.split()) for row in rows[:start] for c in row if c.strip()]
    rows = rows[start:]
    width = max(len(row) for row in rows)
    while width > 1 and all(len(row) < width or not row[width - 1].strip() for row in rows):
        width -= 1
    lines = []
    for n, row in enumerate(rows):
        cells = [_cell(c) for c in row[:width]] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if n == 0:
            lines.append("| " + " | ".join(["---"] * width) + " |")
    table = "\n".join(lines)
    return "\n".join(above) + "\n\n" + table if above else table


def _read_csv(blob: Blob, options: ReadOptions) -> Extraction:
    from omnireader.formats.plain.text import decode_text
    from omnireader.formats.plain.text_file import one_section

    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    tabs = (blob.mime or "").endswith("tab-separated-values")
    table = delimited_markdown(text, blob.display_name, hint="\t" if tabs else None)
    if not table.strip():
        raise EmptyInputError(blob.label, "the table holds no text")
    return one_section(table, DocInfo(extra={"extractor": "delimited"}))


_TSV = "text/tab-separated-values"
FORMATS = (
    Format(
        name="csv",
        rank=13,
        display="CSV/TSV",
        extensions=(".csv", ".tsv"),
        mimes=("text/csv", _TSV),
        magic=(
            Magic(80, by_extension(".csv"), "text"),
            Magic(80, by_extension(".tsv", mime=_TSV), "text"),
            Magic(95, lambda p: _TSV if p.tab_table() else None, "text"),
        ),
        extract=_read_csv,
        readme_group="CSV, TSV, `;` and `\\|` tables",
        readme="delimiter and quoting sniffed (`,` `;` tab `\\|`), decimal commas kept, any "
        "encoding; a Markdown table",
    ),
)
